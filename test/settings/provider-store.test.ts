import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HubError } from '../../src/errors.js';
import { createProvider, deleteProvider, setEnabled, updateProvider, upsertModelRule } from '../../src/settings/provider-mutations.js';
import { ABSENT_ETAG, ProviderStore } from '../../src/settings/provider-store.js';
import { toProviderViews } from '../../src/settings/provider-view.js';
import { providerPutSchema } from '../../src/settings/provider-resource.js';

const KEY = 'sk-test-0123456789-ABCD';
const create = {
  providerId: 'p1',
  apiType: 'anthropic-messages',
  baseUrl: 'https://api.example.com/anthropic',
  models: ['GLM-5.3'],
  apiKey: KEY,
} as const;

async function mode(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

function hubError(code: string) {
  return expect.objectContaining({ name: 'HubError', code });
}

describe('ProviderStore', () => {
  let root: string;
  let dir: string;
  let file: string;
  let store: ProviderStore;

  beforeEach(async () => {
    process.umask(0o022);
    root = await mkdtemp(join(tmpdir(), 'hub-store-'));
    dir = join(root, 'zcode', 'v2');
    file = join(dir, 'provider_config.json');
    store = new ProviderStore({ filePath: file });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('a missing file reads as empty and valid', async () => {
    const snap = await store.read();
    expect(snap).toMatchObject({ etag: ABSENT_ETAG, exists: false, health: { status: 'missing', issues: [] } });
    expect(toProviderViews(snap.draft!)).toEqual([]);
  });

  it('[SEC-09] creates the directory 0700 and writes the file, backups and their directory private (umask 022)', async () => {
    await store.start();
    expect(await mode(dir)).toBe(0o700);
    await store.update((d) => createProvider(d, create));
    expect(await mode(file)).toBe(0o600);
    await store.update((d) => setEnabled(d, 'p1', false));
    expect(await mode(file)).toBe(0o600);
    expect(await mode(store.backups.dir)).toBe(0o700);
    const backups = await readdir(store.backups.dir);
    expect(backups).toHaveLength(1);
    expect(await mode(join(store.backups.dir, backups[0]!))).toBe(0o600);
  });

  it('[SEC-09] a pre-existing world-readable file becomes 0600 on the next write', async () => {
    await store.update((d) => createProvider(d, create));
    await chmod(file, 0o644);
    await store.update((d) => setEnabled(d, 'p1', false));
    expect(await mode(file)).toBe(0o600);
  });

  it('writes canonical bytes, changes the ETag on every write and keeps the last 5 versions', async () => {
    const first = await store.update((d) => createProvider(d, create));
    expect(first.health.status).toBe('valid');
    const bytes = await readFile(file, 'utf8');
    expect(bytes.startsWith('{\n  "schemaVersion": 1,\n  "config": {')).toBe(true);
    const etags = new Set([ABSENT_ETAG, first.etag]);
    for (let i = 0; i < 8; i += 1) {
      const snap = await store.update((d) => updateProvider(d, 'p1', { name: `name ${i}` }));
      etags.add(snap.etag);
    }
    expect(etags.size).toBe(10);
    expect(await store.backups.ids()).toHaveLength(5);
    expect((await store.read()).etag).toBe([...etags].at(-1));
  });

  it('a write that changes nothing does not touch the file or make a backup', async () => {
    const first = await store.update((d) => createProvider(d, create));
    const again = await store.update((d) => updateProvider(d, 'p1', { models: ['GLM-5.3'] }));
    expect(again.etag).toBe(first.etag);
    expect(await store.backups.ids()).toEqual([]);
  });

  it('[CFG-02] two writers with the same If-Match: one wins, the other gets 412; no lost update', async () => {
    const { etag } = await store.update((d) => createProvider(d, create));
    const results = await Promise.allSettled([
      store.update((d) => updateProvider(d, 'p1', { name: 'first' }), { ifMatch: etag }),
      store.update((d) => updateProvider(d, 'p1', { models: ['other'] }), { ifMatch: etag }),
    ]);
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toBeInstanceOf(HubError);
    expect((rejected[0]!.reason as HubError).httpStatus).toBe(412);
    const view = toProviderViews((await store.read()).draft!)[0]!;
    // Exactly one of the two edits landed, whole.
    expect([view.name === 'first' && view.models[0] === 'GLM-5.3', view.name === 'p1' && view.models[0] === 'other']).toContain(true);
    await expect(store.update((d) => d, { ifMatch: '"nope"' })).rejects.toEqual(hubError('HUB_ERR_PRECONDITION'));
    await expect(store.update((d) => d, { ifMatch: '*' })).resolves.toBeDefined();
  });

  it('[CFG-03] a change that would make the file invalid is refused with field paths; the file stays byte-identical', async () => {
    await store.update((d) => createProvider(d, create));
    const before = await readFile(file);
    await expect(store.update((d) => createProvider(d, { ...create, providerId: 'account:x' }))).rejects.toEqual(
      hubError('HUB_ERR_BAD_REQUEST'),
    );
    try {
      await store.update((d) => createProvider(d, { ...create, providerId: 'account:x' }));
    } catch (error) {
      expect((error as HubError).details).toMatchObject({ issues: [{ path: 'config.providerConfigRules.providerRules.1.config.access' }] });
    }
    await expect(store.update((d) => createProvider(d, create))).rejects.toEqual(hubError('HUB_ERR_CONFLICT'));
    expect((await readFile(file)).equals(before)).toBe(true);
  });

  it('[CFG-04] a file broken by hand is reported, never overwritten by an edit that leaves it broken, repaired by one that fixes it, and picked up when fixed', async () => {
    await store.update((d) => createProvider(d, create));
    await store.update((d) => createProvider(d, { ...create, providerId: 'p2' }));
    const good = await readFile(file, 'utf8');
    // A human adds a key the schema does not know to p2.
    const broken = good.replace('"providerId": "p2",', '"providerId": "p2",\n      "color": "red",');
    await writeFile(file, broken);
    const snap = await store.read();
    expect(snap.health.status).toBe('invalid');
    expect(snap.health.issues[0]!.path).toBe('config.providerConfigRules.providerRules.1');
    expect(snap.health.issues[0]!.message).toContain('color');
    expect(toProviderViews(snap.draft!).map((p) => p.providerId)).toEqual(['p1', 'p2']);

    await expect(store.update((d) => setEnabled(d, 'p1', false))).rejects.toEqual(hubError('HUB_ERR_CONFLICT'));
    expect(await readFile(file, 'utf8')).toBe(broken);

    // Not JSON at all: no edit can apply.
    await writeFile(file, '{"schemaVersion": 1, ');
    expect((await store.read()).health).toMatchObject({ status: 'invalid', issues: [{ path: '' }] });
    await expect(store.update((d) => setEnabled(d, 'p1', false))).rejects.toEqual(hubError('HUB_ERR_CONFLICT'));

    // Deleting the offending provider makes it valid again: allowed.
    await writeFile(file, broken);
    const repaired = await store.update((d) => deleteProvider(d, 'p2'));
    expect(repaired.health.status).toBe('valid');

    // A fix by hand is picked up on the next read.
    await writeFile(file, broken);
    expect((await store.read()).health.status).toBe('invalid');
    await writeFile(file, good);
    expect((await store.read()).health.status).toBe('valid');
  });

  it('[CFG-05] the view never carries the key; writing back what was read keeps the stored key byte for byte', async () => {
    await store.update((d) => createProvider(d, create));
    const keyBytes = (await readFile(file, 'utf8')).match(/"apiKey": "([^"]*)"/)![1];
    const views = toProviderViews((await store.read()).draft!);
    const text = JSON.stringify(views);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(0, -4));
    expect(views[0]).toMatchObject({ hasKey: true, keyHint: 'ABCD', complete: true });
    const body = providerPutSchema.parse(views[0]);
    await store.update((d) => updateProvider(d, 'p1', body));
    expect((await readFile(file, 'utf8')).match(/"apiKey": "([^"]*)"/)![1]).toBe(keyBytes);
  });

  it('keeps keys it does not model (logo, visibility, headers, apiKeyManagementUrl, templateId) across edits', async () => {
    const doc = {
      schemaVersion: 1,
      config: {
        providerOrder: ['p1'],
        providerConfigRules: {
          providerRules: [
            {
              providerId: 'p1',
              templateId: 'tpl',
              config: {
                group: 'standard-personal',
                logo: { type: 'builtin', key: 'zai' },
                access: { type: 'zhipu-coding-plan-api-key', apiKey: KEY, apiKeyManagementUrl: 'https://keys.example.com' },
                api: { type: 'openai-chat-completions', baseUrl: 'https://a.example.com', headers: { 'x-team': 'blue' } },
                visibility: 'hidden',
              },
            },
          ],
        },
        modelConfigRules: { providerModelRules: [], manualProviderModelRules: [] },
      },
    };
    await store.replace(doc);
    await store.update((d) => updateProvider(d, 'p1', { apiKey: 'sk-new-key-99999999', baseUrl: 'https://b.example.com' }));
    await store.update((d) => upsertModelRule(d, 'p1', 'GLM-5.3', { kind: 'smart', config: { enabled: true } }));
    const rule = (await store.read()).doc!.config.providerConfigRules.providerRules[0]!;
    expect(rule).toMatchObject({
      templateId: 'tpl',
      config: {
        logo: { type: 'builtin', key: 'zai' },
        access: { type: 'zhipu-coding-plan-api-key', apiKey: 'sk-new-key-99999999', apiKeyManagementUrl: 'https://keys.example.com' },
        api: { type: 'openai-chat-completions', baseUrl: 'https://b.example.com', headers: { 'x-team': 'blue' } },
        visibility: 'hidden',
      },
    });
  });

  it('restores a backup (the current version is backed up first); unknown or malformed ids are 404', async () => {
    await store.update((d) => createProvider(d, create));
    await store.update((d) => deleteProvider(d, 'p1'));
    const [newest] = await store.listBackups();
    expect(newest).toMatchObject({ valid: true });
    const restored = await store.restoreBackup(newest!.id);
    expect(toProviderViews(restored.draft!).map((p) => p.providerId)).toEqual(['p1']);
    expect(await store.backups.ids()).toHaveLength(2);
    await expect(store.restoreBackup('../../etc/passwd')).rejects.toEqual(hubError('HUB_ERR_NOT_FOUND'));
    await expect(store.restoreBackup('0000000000000-deadbeef')).rejects.toEqual(hubError('HUB_ERR_NOT_FOUND'));
  });

  it('start() removes temp files of dead writers but not those of live ones', async () => {
    await store.start();
    const stale = join(dir, '.provider_config.json.hub-tmp-999999999-abc');
    const live = join(dir, `.provider_config.json.hub-tmp-${process.ppid}-abc`);
    await writeFile(stale, 'x');
    await writeFile(live, 'x');
    const { removedTempFiles } = await store.start();
    expect(removedTempFiles).toEqual(['.provider_config.json.hub-tmp-999999999-abc']);
    expect((await readdir(dir)).sort()).toEqual([`.provider_config.json.hub-tmp-${process.ppid}-abc`]);
  });
});
