/**
 * People (docs/SECURITY.md "People"): every device token belongs to a person an admin set —
 * by `token create --person`, `pair --person` or `PATCH /api/tokens/:id` — never the device.
 * Real daemon on port 0 with the simulator child; the CLI runs against it and offline.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAuthServices } from '../../src/auth/auth-services.js';
import { TOKENS_FILE } from '../../src/auth/token-registry.js';
import { runPeopleCli } from '../../src/cli/people.js';
import { runTokenCli } from '../../src/cli/token.js';
import { writeHubFile } from '../../src/daemon/state-files.js';
import { LIMITS } from '../../src/limits.js';
import { VERSION } from '../../src/version.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { collector } from '../helpers/cli-io.js';

const tokenInfo = z.looseObject({ id: z.string(), name: z.string(), person: z.string(), state: z.string() });
const peopleBody = z.object({
  people: z.array(z.looseObject({ person: z.string(), admin: z.boolean(), active: z.number(), tokens: z.array(tokenInfo) })),
});
const errorBody = z.object({ error: z.looseObject({ code: z.string(), message: z.string(), details: z.unknown().optional() }) });

describe('people: who a device token belongs to', () => {
  let hub: HubHarness;
  const json = (body: unknown): RequestInit => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const createToken = async (body: unknown) => {
    const res = await hub.api('/api/tokens', { method: 'POST', ...json(body) });
    expect(res.status).toBe(201);
    const created = z.object({ token: z.string(), info: tokenInfo }).parse(await res.json());
    registerSecret(created.token);
    return created;
  };
  const patch = (id: string, body: unknown, token?: string) =>
    hub.api(`/api/tokens/${encodeURIComponent(id)}`, { method: 'PATCH', ...json(body), ...(token ? { token } : {}) });
  const me = async (token: string) =>
    z
      .object({ identity: z.looseObject({ name: z.string(), person: z.string() }) })
      .parse(await (await hub.api('/api/me', { token })).json());

  beforeAll(async () => {
    hub = await startHub();
    // As `zcode-hub start` does, so the CLI finds the daemon.
    writeHubFile(hub.stateDir, {
      pid: process.pid,
      host: '127.0.0.1',
      port: Number(new URL(hub.url).port),
      url: hub.url,
      version: VERSION,
      startedAt: Date.now(),
    });
  });
  afterAll(async () => {
    await hub.close();
  });

  it('POST /api/tokens takes a person (default: one named after the token); GET /api/people groups tokens by person, admin always there', async () => {
    const phone = await createToken({ name: 'Ann phone', scope: 'operate', person: 'ann' });
    const laptop = await createToken({ name: 'Ann laptop', scope: 'view', person: 'ann' });
    const bot = await createToken({ name: 'ci-bot', scope: 'operate' });
    expect(phone.info.person).toBe('ann');
    expect(bot.info.person).toBe('ci-bot');
    expect(await me(phone.token)).toMatchObject({ identity: { name: 'Ann phone', person: 'ann' } });
    expect(await me(hub.adminToken)).toMatchObject({ identity: { name: 'admin', person: 'admin' } });
    const res = await hub.api('/api/people');
    expect(res.status).toBe(200);
    const { people } = peopleBody.parse(await res.json());
    const ann = people.find((p) => p.person === 'ann');
    expect(ann?.tokens.map((t) => t.id).sort()).toEqual([phone.info.id, laptop.info.id].sort());
    expect(ann).toMatchObject({ admin: false, active: 2 });
    expect(people.find((p) => p.person === 'admin')).toMatchObject({ admin: true });
    expect(people.find((p) => p.person === 'ci-bot')?.tokens).toHaveLength(1);
  });

  it('PATCH /api/tokens/:id {person} moves a token at once (the registry is read per request), audited with old → new', async () => {
    const tablet = await createToken({ name: 'shared tablet', scope: 'operate', person: 'ann' });
    const res = await patch(tablet.info.id, { person: 'bob' });
    expect(res.status).toBe(200);
    expect(tokenInfo.parse((await res.json()).info)).toMatchObject({ id: tablet.info.id, person: 'bob' });
    expect(await me(tablet.token)).toMatchObject({ identity: { name: 'shared tablet', person: 'bob' } });
    const audit = z.object({
      entries: z.array(z.looseObject({ action: z.string(), who: z.looseObject({ person: z.string().optional() }), detail: z.unknown() })),
    });
    const { entries } = audit.parse(await (await hub.api('/api/audit?limit=500')).json());
    expect(entries.filter((e) => e.action === 'token.person').at(-1)).toMatchObject({
      who: { person: 'admin' },
      detail: { id: tablet.info.id, name: 'shared tablet', from: 'ann', to: 'bob' },
    });
  });

  it('a person changed while its device is connected holds at once for that connection', async () => {
    const tablet = await createToken({ name: 'kitchen tablet', scope: 'operate', person: 'ann' });
    const c = await hub.initializedClient({ token: tablet.token, name: 'tablet-app' });
    const watcher = await hub.initializedClient();
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await watcher.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const presence = z.object({ clients: z.array(z.looseObject({ person: z.string().optional(), device: z.string().optional() })) });
    // The attach notice (coalesced) has come and gone before the change.
    await watcher.waitForNotification<unknown>('_zcode/presence', (p) => presence.parse(p).clients.length === 2);
    const before = watcher.notifications('_zcode/presence').length;
    expect((await patch(tablet.info.id, { person: 'dora' })).status).toBe(200);
    // Presence is announced again with the new person.
    const again = await watcher.waitForNotification<unknown>('_zcode/presence', () => true, undefined, before);
    expect(presence.parse(again).clients.find((x) => x.device === 'kitchen tablet')).toMatchObject({ person: 'dora' });
    await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello after the move' }] });
    const echo = z.object({ _meta: z.object({ zcode: z.looseObject({ promptedBy: z.looseObject({}).optional() }) }) });
    const by = watcher
      .notifications('session/update')
      .map((n) => echo.safeParse(n))
      .find((r) => r.success && r.data._meta.zcode.promptedBy)?.data?._meta.zcode.promptedBy;
    expect(by).toMatchObject({ person: 'dora', device: 'kitchen tablet', name: 'dora · kitchen tablet', client: 'tablet-app' });
  });

  it('bad input gets a clear 400, an unknown token 404, the admin token 400', async () => {
    const t = await createToken({ name: 'victim', scope: 'view', person: 'ann' });
    for (const [body, says] of [
      [{ person: '' }, /person needs a name/],
      [{ person: '   ' }, /person needs a name/],
      [{ person: 'x'.repeat(65) }, /at most 64/],
      [{ person: 'ann\u0007' }, /control characters/],
      [{ person: 'admin · laptop' }, /and .*·.* are not allowed/],
      [{ person: 7 }, /string/i],
      [{}, /expected string|required/i],
      [{ person: 'ann', scope: 'admin' }, /unrecognized|additional/i],
    ] as const) {
      const res = await patch(t.info.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = errorBody.parse(await res.json());
      expect(err.error.code).toBe('HUB_ERR_BAD_REQUEST');
      expect(JSON.stringify(err.error), JSON.stringify(body)).toMatch(says);
    }
    expect((await patch('no-such-token', { person: 'ann' })).status).toBe(404);
    const admin = await patch('admin', { person: 'mallory' });
    expect(admin.status).toBe(400);
    expect(errorBody.parse(await admin.json()).error.message).toMatch(/always admin/);
    // Bad persons on create and on pairing codes too.
    expect((await hub.api('/api/tokens', { method: 'POST', ...json({ name: 'x', scope: 'view', person: 'a\nb' }) })).status).toBe(400);
    expect((await hub.api('/api/tokens', { method: 'POST', ...json({ name: 'a · b', scope: 'view' }) })).status).toBe(400);
    expect((await hub.api('/api/pair/codes', { method: 'POST', ...json({ scope: 'view', person: '' }) })).status).toBe(400);
    expect(await me((await createToken({ name: 'still', scope: 'view' })).token)).toMatchObject({ identity: { person: 'still' } });
  });

  it('view and operate tokens get 403 on GET /api/people and PATCH /api/tokens/:id; nothing changes', async () => {
    const t = await createToken({ name: 'Ann watch', scope: 'view', person: 'ann' });
    for (const scope of ['view', 'operate'] as const) {
      const token = await hub.token(scope, `${scope} device`, 'mallory');
      expect((await hub.api('/api/people', { token })).status).toBe(403);
      expect((await patch(t.info.id, { person: 'mallory' }, token)).status).toBe(403);
      // Not even its own token: a device never picks its person.
      const own = (await me(token)).identity;
      expect(own.person).toBe('mallory');
    }
    expect(await me(t.token)).toMatchObject({ identity: { person: 'ann' } });
  });

  it("pairing: `--person` makes the paired device that person's; without it a device cannot name itself into someone else", async () => {
    const code = async (body: unknown) => {
      const res = await hub.api('/api/pair/codes', { method: 'POST', ...json(body) });
      expect(res.status).toBe(201);
      const grant = z.object({ code: z.string(), person: z.string().optional() }).parse(await res.json());
      registerSecret(grant.code);
      registerSecret(grant.code.replace('-', ''));
      return grant;
    };
    const redeem = async (c: string, name: string) => {
      const res = await fetch(`${hub.url}/api/pair`, { method: 'POST', ...json({ code: c, name }) });
      expect(res.status).toBe(200);
      const body = z.object({ token: z.string(), name: z.string(), person: z.string() }).parse(await res.json());
      registerSecret(body.token);
      return body;
    };
    const forAnn = await code({ scope: 'operate', person: 'ann' });
    expect(forAnn.person).toBe('ann');
    expect(await redeem(forAnn.code, 'Ann tablet')).toMatchObject({ name: 'Ann tablet', person: 'ann' });
    expect(await redeem((await code({ scope: 'operate' })).code, 'carol')).toMatchObject({ person: 'carol' });
    // "admin" and "ann" are taken: the device gets a person of its own, which an admin may change.
    expect(await redeem((await code({ scope: 'operate' })).code, 'admin')).toMatchObject({ name: 'admin', person: 'admin (2)' });
    expect(await redeem((await code({ scope: 'view' })).code, 'ann')).toMatchObject({ name: 'ann', person: 'ann (2)' });
  });

  it('CLI: token create --person, people list and people set, through the running daemon; bad input exits 2', async () => {
    const created = collector();
    expect(
      await runTokenCli(
        ['create', '--scope', 'operate', '--name', 'Dan phone', '--person', 'dan', '--json', '--state-dir', hub.stateDir],
        created,
      ),
    ).toBe(0);
    const { token, info } = z.object({ token: z.string(), info: tokenInfo }).parse(JSON.parse(created.out()));
    registerSecret(token);
    expect(info.person).toBe('dan');
    const tokens = collector();
    expect(await runTokenCli(['list', '--state-dir', hub.stateDir], tokens)).toBe(0);
    expect(tokens.out()).toMatch(/^ID\s+NAME\s+PERSON\s+SCOPE/);
    const list = collector();
    expect(await runPeopleCli(['--state-dir', hub.stateDir], list)).toBe(0);
    expect(list.out()).toMatch(/^PERSON\s+ACTIVE\/TOKENS/);
    expect(list.out()).toMatch(/^dan\s+1\/1\s.*Dan phone$/m);
    const set = collector();
    expect(await runPeopleCli(['set', info.id, 'erin', '--state-dir', hub.stateDir], set)).toBe(0);
    expect(set.out()).toContain("'Dan phone' is now erin's");
    expect(await me(token)).toMatchObject({ identity: { person: 'erin' } });
    for (const args of [['set', info.id, 'a·b'], ['set', info.id], ['set', 'admin', 'x'], ['bogus']]) {
      const bad = collector();
      expect(await runPeopleCli([...args, '--state-dir', hub.stateDir], bad), args.join(' ')).toBe(2);
      expect(bad.err()).toMatch(/zcode-hub people/);
    }
    const badCreate = collector();
    expect(await runTokenCli(['create', '--scope', 'view', '--name', 'x', '--person', '', '--state-dir', hub.stateDir], badCreate)).toBe(2);
    expect(badCreate.err()).toMatch(/--person: a person needs a name/);
    const unknown = collector();
    expect(await runPeopleCli(['set', 'no-such-token', 'ann', '--state-dir', hub.stateDir], unknown)).toBe(1);
    expect(unknown.err()).toBe('zcode-hub people set: the hub refused it: No such token (HUB_ERR_NOT_FOUND)\n');
  });
});

describe('people on the state dir', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const stateDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-people-'));
    dirs.push(d);
    return d;
  };

  it('tokens stored before people existed migrate: person = their name, written back', async () => {
    const dir = stateDir();
    const first = createAuthServices({ stateDir: dir, limits: LIMITS });
    const issued = await first.tokens.create({ name: 'old phone', scope: 'operate', ttlMs: 60_000, via: 'cli' });
    registerSecret(issued.token);
    first.close();
    // Rewrite the file as an older hub wrote it: no `person`.
    const file = path.join(dir, TOKENS_FILE);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { tokens: Array<Record<string, unknown>> };
    for (const t of stored.tokens) delete t['person'];
    fs.writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
    const after = createAuthServices({ stateDir: dir, limits: LIMITS });
    expect(await after.tokens.authenticate(issued.token)).toMatchObject({ name: 'old phone', person: 'old phone' });
    after.close();
    expect((JSON.parse(fs.readFileSync(file, 'utf8')) as { tokens: Array<{ person?: string }> }).tokens[0]?.person).toBe('old phone');
  });

  it('offline CLI: people set and list work on the files, audited', async () => {
    const dir = stateDir();
    const created = collector();
    expect(await runTokenCli(['create', '--scope', 'view', '--name', 'kiosk', '--json', '--state-dir', dir], created)).toBe(0);
    const { token, info } = z.object({ token: z.string(), info: tokenInfo }).parse(JSON.parse(created.out()));
    registerSecret(token);
    expect(info.person).toBe('kiosk');
    expect(await runPeopleCli(['set', info.id, 'frank', '--state-dir', dir], collector())).toBe(0);
    const list = collector();
    expect(await runPeopleCli(['list', '--json', '--state-dir', dir], list)).toBe(0);
    const { people } = peopleBody.parse(JSON.parse(list.out()));
    expect(people.map((p) => p.person)).toEqual(['admin', 'frank']);
    const services = createAuthServices({ stateDir: dir, limits: LIMITS });
    expect(await services.tokens.authenticate(token)).toMatchObject({ person: 'frank' });
    expect(services.audit.page(0, 10).entries.at(-1)).toMatchObject({
      action: 'token.person',
      detail: { from: 'kiosk', to: 'frank', offline: true },
    });
    services.close();
  });
});
