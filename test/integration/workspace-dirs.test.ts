import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * `GET /api/workspaces/dirs`: the new-session picker browses folders inside the
 * workspace roots, read-only, folders only, confined by the same check as session/new.
 */
let hub: HubHarness;
let outside: string;
type Listing = { path: string; root: string; parent?: string; dirs: Array<{ name: string; path: string }>; truncated: boolean };

beforeAll(async () => {
  hub = await startHub({ limits: { workspaceDirsMax: 3 } });
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-roots-'));
  for (const d of ['shop', 'api', '.git', 'shop/src']) fs.mkdirSync(path.join(hub.workspace, d), { recursive: true });
  fs.writeFileSync(path.join(hub.workspace, 'README.md'), 'x');
  // A symlink that leads out of the roots is never offered.
  fs.symlinkSync(outside, path.join(hub.workspace, 'escape'));
});
afterAll(async () => {
  await hub?.close();
  fs.rmSync(outside, { recursive: true, force: true });
});

const dirs = (p: string, token?: string) => hub.api(`/api/workspaces/dirs?path=${encodeURIComponent(p)}`, token ? { token } : {});

describe('GET /api/workspaces/dirs', () => {
  it('lists the sub-folders of a root: no files, no hidden folders, no symlink out of the roots', async () => {
    const res = await dirs(hub.workspace);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Listing;
    const real = fs.realpathSync(hub.workspace);
    expect(body).toEqual({
      path: real,
      root: real,
      dirs: [
        { name: 'api', path: path.join(real, 'api') },
        { name: 'shop', path: path.join(real, 'shop') },
      ],
      truncated: false,
    });
  });

  it('inside a root it names the folder above, up to the root', async () => {
    const body = (await (await dirs(path.join(hub.workspace, 'shop'))).json()) as Listing;
    expect(body.parent).toBe(fs.realpathSync(hub.workspace));
    expect(body.dirs.map((d) => d.name)).toEqual(['src']);
  });

  it('refuses what session/new would refuse, naming the roots', async () => {
    const cases: Array<[string, number, RegExp]> = [
      [outside, 403, /Outside the workspace roots/],
      [path.join(hub.workspace, 'escape'), 403, /Outside the workspace roots/],
      ['/does/not/exist', 400, /No such folder/],
      ['relative/dir', 400, /absolute path/],
      [path.join(hub.workspace, 'README.md'), 400, /Not a folder/],
      [hub.stateDir, 403, /Outside the workspace roots|private files/],
    ];
    for (const [p, status, why] of cases) {
      const res = await dirs(p);
      expect(res.status, p).toBe(status);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message, p).toMatch(why);
      expect(body.error.message, p).toContain(hub.workspace);
    }
  });

  it('[SEC-10] every listing, served or refused, is in the audit log with the verified caller', async () => {
    const phone = await hub.token('operate', 'Audited phone');
    await dirs(path.join(hub.workspace, 'shop'), phone);
    await dirs(outside, phone);
    const entries = (
      (await (await hub.api('/api/audit?limit=500')).json()) as {
        entries: Array<{
          action: string;
          who: { name: string; scope: string };
          detail?: { path?: string; outcome?: string; dirs?: number };
        }>;
      }
    ).entries.filter((e) => e.action === 'workspace.dirs' && e.who.name === 'Audited phone');
    expect(entries.map((e) => [e.detail?.path, e.detail?.outcome])).toEqual(
      expect.arrayContaining([
        [path.join(hub.workspace, 'shop'), 'served'],
        [outside, 'refused'],
      ]),
    );
    expect(entries.find((e) => e.detail?.outcome === 'served')?.detail?.dirs).toBe(1);
  });

  it('needs operate, like session/new', async () => {
    expect((await dirs(hub.workspace, await hub.token('view', 'dash'))).status).toBe(403);
    expect((await dirs(hub.workspace, await hub.token('operate', 'phone'))).status).toBe(200);
  });

  it(`crosses workspaceDirsMax (default ${LIMITS.workspaceDirsMax}): the first folders by name, truncated`, async () => {
    for (const d of ['web', 'docs']) fs.mkdirSync(path.join(hub.workspace, d), { recursive: true });
    const body = (await (await dirs(hub.workspace)).json()) as Listing;
    expect(body.dirs.map((d) => d.name)).toEqual(['api', 'docs', 'shop']);
    expect(body.truncated).toBe(true);
  });
});
