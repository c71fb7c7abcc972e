/**
 * Kept task output of a session deleted while no hub ran goes at the next start, and only that
 * (src/domain/prompts/task-output-prune.ts): real daemons one after another on one state dir with
 * the simulator child. Three sessions keep task output; one is archived (listed only when
 * archived ones are asked for); while the hub is down the agent's own copy of another is deleted
 * (its simulator file, as the ZCode CLI would). The next hub asks the agent about exactly those
 * sessions, one per call (`taskOutputPruneBatch` 1, crossing the batch with three), and removes
 * the deleted one's file; the others keep theirs and replay it. A hub whose agent does not answer
 * `session/list` removes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveOutput, sessionUpdates, startWatch } from '../helpers/background-watch.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { restartableHub } from '../helpers/restartable-hub.js';
import { until } from '../helpers/until.js';
import { idFileName } from '../../src/fs/id-file-name.js';

const { stateDir, workspace, start } = restartableHub('zch-task-prune-');
const taskDir = path.join(stateDir, 'task-outputs');
const fileOf = (sessionId: string) => path.join(taskDir, idFileName(sessionId, '.json'));

/** The cards whose kept output a fresh client is replayed (each once). */
async function replayedCards(hub: HubHarness, sessionId: string): Promise<string[]> {
  const c = await hub.initializedClient({ name: 'reader' });
  await c.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
  const cards = sessionUpdates(c, sessionId)
    .filter((u) => u._meta?.zcode?.replay === true && u.update._meta?.zcode?.outputText !== undefined)
    .map((u) => u.update.toolCallId ?? '');
  await c.close();
  return [...new Set(cards)];
}

describe('kept task output of sessions deleted while the hub was down', () => {
  it('is removed at the next start; archived and listed sessions keep theirs; nothing goes when the agent does not list', async () => {
    const first = await start();
    const a = await first.initializedClient({ name: 'phone' });
    const sessions: Array<{ sessionId: string; card: string }> = [];
    const known = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const { sessionId } = await a.request<{ sessionId: string }>('session/new', {
        cwd: workspace,
        mcpServers: [],
        _meta: { zcode: { mode: 'yolo' } },
      });
      const task = await startWatch(a, sessionId, known);
      await a.waitFor(() => liveOutput(sessionUpdates(a, sessionId), task.card).length > 0 || undefined, 30_000, 'task output');
      await a.request('_zcode/cancel_background_task', { sessionId, taskId: task.taskId });
      sessions.push({ sessionId, card: task.card });
    }
    const [gone, archived, kept] = sessions as [(typeof sessions)[0], (typeof sessions)[0], (typeof sessions)[0]];
    await a.request('_zcode/session_archive', { sessionId: archived.sessionId, archived: true });
    await first.close();
    for (const s of sessions) expect(fs.existsSync(fileOf(s.sessionId))).toBe(true);

    // While no hub runs, the agent's own copy of one session is deleted.
    const agentCopy = path.join(stateDir, 'sim', 'sessions', `${gone.sessionId}.json`);
    expect(fs.existsSync(agentCopy)).toBe(true);
    fs.rmSync(agentCopy);

    // An agent that does not answer session/list: no file goes (it cannot say which sessions it has).
    const mute = await startHub({
      simArgs: ['--turn-delay-scale', '0.2', '--never-answer', 'session/list'],
      config: { stateDir, workspace },
      limits: { forwardRequestTimeoutMs: 1_000 },
    });
    expect(await mute.daemon.taskOutputsPruned).toEqual({ checked: 0, removed: [], complete: false });
    await mute.close();
    for (const s of sessions) expect(fs.existsSync(fileOf(s.sessionId))).toBe(true);

    const second = await start({ taskOutputPruneBatch: 1 });
    const pruned = await second.daemon.taskOutputsPruned;
    expect(pruned).toEqual({ checked: 3, removed: [gone.sessionId], complete: true });
    expect(fs.existsSync(fileOf(gone.sessionId))).toBe(false);
    expect(fs.existsSync(fileOf(archived.sessionId))).toBe(true);
    expect(fs.existsSync(fileOf(kept.sessionId))).toBe(true);
    // The sessions the agent still has replay their task output as before.
    expect(await replayedCards(second, archived.sessionId)).toEqual([archived.card]);
    expect(await replayedCards(second, kept.sessionId)).toEqual([kept.card]);
    await until(() => (fs.readdirSync(taskDir).filter((n) => n.endsWith('.tmp')).length === 0 ? true : undefined), 'no temp file left');
  }, 240_000);
});
