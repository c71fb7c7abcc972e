/**
 * What the state dir keeps about a session deleted while no hub ran goes at the next start, and
 * only that (src/domain/sessions/deleted-while-down.ts): real daemons one after another on one
 * state dir with the simulator child. Three sessions keep task output, authors and marks; one is
 * archived (listed only when archived ones are asked for); a fourth has an "always allow" grant.
 * While the hub is down the agent's own copies of the fourth and of one of the three are deleted
 * (their simulator files, as the ZCode CLI would). The next hub asks the agent about exactly the
 * sessions it keeps something about, one per call (`taskOutputPruneBatch` 1, crossing the batch),
 * and forgets the deleted ones — task output file, authors, marks, and their id in the grant (the
 * grant itself stays); the others keep theirs and replay their output. A hub whose agent does not
 * answer `session/list`, or lists sessions it was not asked about, forgets nothing; nor does a
 * start that does not know which agent store the state dir served, or one on another store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { liveOutput, sessionUpdates, startWatch } from '../helpers/background-watch.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { restartableHub } from '../helpers/restartable-hub.js';
import { authorEntries, sessionMarks } from '../helpers/state-logs.js';
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

const readJson = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(stateDir, name), 'utf8'));
const grantsFile = z.object({ grants: z.array(z.looseObject({ id: z.string(), sessionId: z.string().optional() })) });
/** The sessions each file of the state dir keeps something about. */
function keptIn() {
  return {
    authors: new Set(authorEntries(stateDir).map((e) => e.s)),
    marks: new Set(Object.keys(sessionMarks(stateDir))),
    grants: grantsFile.parse(readJson('always-grants.json')).grants,
  };
}

describe('what is kept about sessions deleted while the hub was down', () => {
  it('is forgotten at the next start; archived and listed sessions keep theirs; nothing goes when the agent does not list', async () => {
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
    // A fourth session: a permission answered "always allow" for the project (a grant naming it).
    const { sessionId: granted } = await a.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    const turn = a.request<{ stopReason: string }>('session/prompt', {
      sessionId: granted,
      prompt: [{ type: 'text', text: 'permission please' }],
    });
    const ask = await a.waitForRequest('session/request_permission', (q) => q.params.sessionId === granted);
    a.answer(ask.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
    expect((await turn).stopReason).toBe('end_turn');
    await first.close();
    for (const s of sessions) expect(fs.existsSync(fileOf(s.sessionId))).toBe(true);
    const before = keptIn();
    const all = [...sessions.map((s) => s.sessionId), granted];
    for (const id of all) expect(before.authors.has(id), id).toBe(true);
    for (const id of [archived.sessionId, granted]) expect(before.marks.has(id), id).toBe(true);
    expect(before.grants.map((g) => g.sessionId)).toEqual([granted]);

    // While no hub runs, the agent's own copies of two sessions are deleted.
    for (const id of [gone.sessionId, granted]) {
      const agentCopy = path.join(stateDir, 'sim', 'sessions', `${id}.json`);
      expect(fs.existsSync(agentCopy)).toBe(true);
      fs.rmSync(agentCopy);
    }

    // An agent that does not answer session/list: no file goes (it cannot say which sessions it has).
    const mute = await startHub({
      simArgs: ['--turn-delay-scale', '0.2', '--never-answer', 'session/list'],
      config: { stateDir, workspace },
      limits: { forwardRequestTimeoutMs: 1_000 },
    });
    expect(await mute.daemon.deletedWhileDown).toEqual({ checked: 0, removed: [], complete: false });
    await mute.close();
    for (const s of sessions) expect(fs.existsSync(fileOf(s.sessionId))).toBe(true);
    expect(keptIn()).toEqual(before);
    // An agent that takes the ids but lists other sessions (a page of everything): no answer either.
    const unfiltered = await startHub({
      simArgs: ['--turn-delay-scale', '0.2', '--list-ignores-ids'],
      config: { stateDir, workspace },
      limits: { taskOutputPruneBatch: 1 },
    });
    expect((await unfiltered.daemon.deletedWhileDown).removed).toEqual([]);
    expect((await unfiltered.daemon.deletedWhileDown).complete).toBe(false);
    await unfiltered.close();
    expect(keptIn()).toEqual(before);

    const second = await start({ taskOutputPruneBatch: 1 });
    const pruned = await second.daemon.deletedWhileDown;
    expect(pruned.checked).toBe(all.length);
    expect(pruned.complete).toBe(true);
    expect(pruned.removed.sort()).toEqual([gone.sessionId, granted].sort());
    expect(fs.existsSync(fileOf(gone.sessionId))).toBe(false);
    const after = keptIn();
    expect([...after.authors].sort()).toEqual([archived.sessionId, kept.sessionId].sort());
    expect(after.marks.has(granted) || after.marks.has(gone.sessionId)).toBe(false);
    expect(after.marks.has(archived.sessionId)).toBe(true);
    // The grant stays (it holds for the workspace); it no longer names the deleted session.
    expect(after.grants.map((g) => [g.id, g.sessionId])).toEqual(before.grants.map((g) => [g.id, undefined]));
    expect(fs.existsSync(fileOf(archived.sessionId))).toBe(true);
    expect(fs.existsSync(fileOf(kept.sessionId))).toBe(true);
    // The sessions the agent still has replay their task output as before.
    expect(await replayedCards(second, archived.sessionId)).toEqual([archived.card]);
    expect(await replayedCards(second, kept.sessionId)).toEqual([kept.card]);
    await until(() => (fs.readdirSync(taskDir).filter((n) => n.endsWith('.tmp')).length === 0 ? true : undefined), 'no temp file left');
    await second.close();

    // From here on the agent no longer has `kept` either; each start below must still keep its entries.
    fs.rmSync(path.join(stateDir, 'sim', 'sessions', `${kept.sessionId}.json`));
    const untouched = keptIn();
    const looksNot = async (simArgs: string[]): Promise<void> => {
      const hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2', ...simArgs], config: { stateDir, workspace } });
      expect(await hub.daemon.deletedWhileDown).toEqual({ checked: 0, removed: [], complete: false });
      await hub.close();
      expect(fs.existsSync(fileOf(kept.sessionId))).toBe(true);
      expect(keptIn()).toEqual(untouched);
    };
    // A state dir whose past is unknown (written before agent-stores.json existed): not this start.
    fs.rmSync(path.join(stateDir, 'agent-stores.json'));
    await looksNot([]);
    // Another agent store (the simulator on another data dir, as the real CLI would be): its
    // sessions are not this state dir's, so nothing is looked for — then or ever after.
    await looksNot(['--data-dir', path.join(stateDir, 'other-store')]);
    await looksNot([]);
  }, 240_000);
});
