import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

// Session/new refuses a workspace that is not an existing folder, with a
// message that says so, instead of creating a session there (which then became the default).
let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

describe('session/new: the workspace must be an existing folder', () => {
  it('refuses a missing path, a file and a relative path; accepts a folder', async () => {
    const c = await hub.initializedClient({ name: 'ws-check' });
    const file = path.join(hub.workspace, 'notes.txt');
    fs.writeFileSync(file, 'x');
    for (const [cwd, why] of [
      ['/does/not/exist', /No such folder: \/does\/not\/exist/],
      [file, /Not a folder/],
      ['relative/dir', /absolute path/],
    ] as const) {
      const err = await c.request('session/new', { cwd, mcpServers: [] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, cwd).toBeInstanceOf(RpcError);
      expect((err as RpcError).hubCode).toBe('HUB_ERR_BAD_REQUEST');
      expect((err as RpcError).message).toMatch(why);
    }
    const listed = await c.request<{ sessions: Array<{ cwd: string }> }>('session/list', {});
    expect(listed.sessions.map((s) => s.cwd)).not.toContain('/does/not/exist');
    const ok = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    expect(ok.sessionId).toBeTruthy();
  });
});
