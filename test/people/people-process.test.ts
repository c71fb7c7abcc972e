/**
 * People across real processes (docs/SECURITY.md "People"): `zcode-hub start` as a user runs it
 * (port 0, the simulator child), the CLI as separate processes, a WebSocket client whose
 * clientInfo.name claims another name. The person set by `token create --person` is what the
 * daemon shows and audits; `people` lists and moves it; bad input exits 2; view gets 403.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cli, killStarted, ready, start, tempHome } from '../daemon/process-helpers.js';
import { AcpWsClient } from '../helpers/acp-ws-client.js';
import { registerSecret } from '../security/helpers/log-capture.js';

afterEach(killStarted);

const created = z.object({ token: z.string(), info: z.looseObject({ id: z.string(), person: z.string() }) });

describe('[PPL-01] people with a real daemon process', () => {
  it('token create --person, a client claiming "Bob" shown and audited as ann, people list/set, bad input and scope', async () => {
    const { home, stateDir } = tempHome();
    const daemon = start(home, stateDir);
    const { url } = await ready(stateDir);
    const admin = fs.readFileSync(path.join(stateDir, 'admin.token'), 'utf8').trim();
    const create = (args: string[]) => {
      const r = cli(home, ['token', 'create', ...args, '--json', '--state-dir', stateDir]);
      expect(r.status, r.stderr).toBe(0);
      const c = created.parse(JSON.parse(r.stdout));
      registerSecret(c.token);
      return c;
    };
    const ann = create(['--scope', 'operate', '--name', 'Ann phone', '--person', 'ann']);
    const viewer = create(['--scope', 'view', '--name', 'wall screen']);
    expect(ann.info.person).toBe('ann');
    expect(viewer.info.person).toBe('wall screen');

    const ws = await AcpWsClient.connect(`${url.replace(/^http/, 'ws')}/acp`, { token: ann.token });
    const init = z
      .object({ _meta: z.object({ zcode: z.looseObject({ identity: z.looseObject({}) }) }) })
      .parse(await ws.initialize({ name: 'Bob' }));
    expect(init._meta.zcode.identity).toMatchObject({ name: 'Ann phone', person: 'ann', tokenId: ann.info.id });
    const { sessionId } = await ws.request<{ sessionId: string }>('session/new', { cwd: home, mcpServers: [] });
    await ws.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    const turn = z.object({ promptedBy: z.looseObject({}).optional() });
    expect(
      ws
        .notifications('_zcode/turn_state')
        .map((n) => turn.parse(n).promptedBy)
        .find(Boolean),
    ).toMatchObject({
      name: 'ann · Ann phone',
      person: 'ann',
      device: 'Ann phone',
      client: 'Bob',
    });
    await ws.close();
    const audit = z.object({ entries: z.array(z.looseObject({ action: z.string(), who: z.looseObject({}) })) });
    const { entries } = audit.parse(await (await fetch(`${url}/api/audit`, { headers: { authorization: `Bearer ${admin}` } })).json());
    expect(entries.find((e) => e.action === 'prompt')?.who).toMatchObject({ person: 'ann', name: 'Ann phone', client: 'Bob' });

    const list = cli(home, ['people', '--state-dir', stateDir]);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^ann\s+1\/1\s.*Ann phone$/m);
    const bad = cli(home, ['people', 'set', ann.info.id, 'a\u0001b', '--state-dir', stateDir]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/control characters/);
    const moved = cli(home, ['people', 'set', ann.info.id, 'bob', '--state-dir', stateDir]);
    expect(moved.status, moved.stderr).toBe(0);
    const me = await (await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${ann.token}` } })).json();
    expect(me).toMatchObject({ identity: { person: 'bob' } });

    for (const token of [viewer.token, ann.token]) {
      expect((await fetch(`${url}/api/people`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403);
      const patch = await fetch(`${url}/api/tokens/${ann.info.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ person: 'mallory' }),
      });
      expect(patch.status).toBe(403);
    }
    daemon.child.kill('SIGTERM');
    expect(await daemon.exited).toBe(0);
  }, 120_000);
});
