/**
 * Which agent store a state dir served is read from the simulator's flags the way the simulator
 * reads them (daemon/agent-stores.ts): `--data-dir=X` names another store as much as
 * `--data-dir X` does, and a relative dir is the state dir's (the simulator runs there). Were the
 * `=` form missed, a start on another data dir would be taken for the same store, and every
 * session the state dir keeps something about would be forgotten as deleted (deleted-while-down.ts).
 * Real daemons one after another on one state dir, with the simulator child.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHub } from '../helpers/hub-harness.js';
import { restartableHub } from '../helpers/restartable-hub.js';
import { authorEntries } from '../helpers/state-logs.js';
import { agentStoreOf } from '../../src/daemon/agent-stores.js';

const { stateDir, workspace, start } = restartableHub('zch-store-forms-');
const authored = (): Set<string> => new Set(authorEntries(stateDir).map((e) => e.s));

describe('the agent store of a state dir', () => {
  it('is read from --data-dir in both of the simulator forms, a relative dir from the state dir', () => {
    const config = (simArgs: string[]) => ({ stateDir: '/s', simArgs });
    expect(agentStoreOf('sim', config([]), {})).toBe(`sim:${path.resolve('/s/sim')}`);
    expect(agentStoreOf('sim', config(['--data-dir=/other']), {})).toBe(`sim:${path.resolve('/other')}`);
    expect(agentStoreOf('sim', config(['--data-dir', '/a', '--data-dir=/b']), {})).toBe(`sim:${path.resolve('/b')}`);
    expect(agentStoreOf('sim', config(['--data-dir=/a', '--data-dir', '/b']), {})).toBe(`sim:${path.resolve('/b')}`);
    expect(agentStoreOf('sim', config(['--data-dir', 'sim']), {})).toBe(agentStoreOf('sim', config([]), {}));
  });

  it('keeps what a session has when the next start runs the simulator on --data-dir=<another dir>', async () => {
    const first = await start();
    const c = await first.initializedClient({ name: 'phone' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    const turn = await c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    expect(turn.stopReason).toBe('end_turn');
    await first.close();
    expect(authored().has(sessionId)).toBe(true);
    // The same store again: the look runs, and the agent still has the session.
    const again = await start();
    expect((await again.daemon.deletedWhileDown).removed).toEqual([]);
    await again.close();

    const other = path.join(stateDir, 'other-store');
    const elsewhere = await startHub({
      simArgs: ['--turn-delay-scale', '0.2', `--data-dir=${other}`],
      config: { stateDir, workspace },
    });
    expect(await elsewhere.daemon.deletedWhileDown).toEqual({ checked: 0, removed: [], complete: false });
    await elsewhere.close();
    expect(authored().has(sessionId)).toBe(true);
  }, 120_000);
});
