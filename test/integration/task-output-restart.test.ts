/**
 * Background tasks' output so far survives a hub restart (docs/CLIENT-PROTOCOL.md "Terminal
 * output of background tasks"): real daemons one after another on one state dir. The kept output
 * is in `<state-dir>/task-outputs/` (0600); after the restart a replay brings it back — a task
 * that ended before keeps its status, one that was running comes back `failed` with task status
 * `interrupted` (the agent process that ran it stopped with the hub); the restarted hub's own
 * `taskOutputsMax` bounds what it takes back; deleting the session removes its file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveOutput, sessionUpdates, startWatch } from '../helpers/background-watch.js';
import type { HubHarness } from '../helpers/hub-harness.js';
import { restartableHub } from '../helpers/restartable-hub.js';
import { until } from '../helpers/until.js';

const MAX_CHARS = 600;
const { stateDir, workspace, start } = restartableHub('zch-task-restart-');
const taskDir = path.join(stateDir, 'task-outputs');

const updates = sessionUpdates;

/** The kept output a fresh client is replayed per task card: status, task status, text, trimmed. */
async function replayedTasks(hub: HubHarness, sessionId: string) {
  const c = await hub.initializedClient({ name: 'reader' });
  await c.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
  const out = new Map<string, { status?: string; task?: string; text: string; trimmed: boolean }>();
  for (const u of updates(c, sessionId)) {
    const text = u.update._meta?.zcode?.outputText ?? '';
    const kept = u._meta?.zcode?.replay === true && u.update._meta?.backgroundTask !== undefined;
    if (!kept || u.update.toolCallId === undefined) continue;
    out.set(u.update.toolCallId, {
      ...(u.update.status === undefined ? {} : { status: u.update.status }),
      ...(u.update._meta?.backgroundTask?.status === undefined ? {} : { task: u.update._meta.backgroundTask.status }),
      text,
      trimmed: u.update._meta?.zcode?.outputTrimmed === true,
    });
  }
  await c.close();
  return out;
}

describe('background task output across a hub restart', () => {
  it('is kept in the state dir, replayed after the restart (a running task as interrupted), bounded by the new limits, removed with its session', async () => {
    const hub = await start({ taskOutputMaxChars: MAX_CHARS, taskOutputsMax: 2 });
    const a = await hub.initializedClient({ name: 'phone' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', {
      cwd: workspace,
      mcpServers: [],
      _meta: { zcode: { mode: 'yolo' } },
    });
    const known = new Set<string>();
    // The first task streams past the bound, then is stopped; the second runs on through the restart.
    const first = await startWatch(a, sessionId, known);
    await a.waitFor(() => liveOutput(updates(a, sessionId), first.card).length > MAX_CHARS * 2 || undefined, 30_000, 'first output');
    await a.request('_zcode/cancel_background_task', { sessionId, taskId: first.taskId });
    const second = await startWatch(a, sessionId, known);
    await a.waitFor(() => liveOutput(updates(a, sessionId), second.card).length > MAX_CHARS || undefined, 30_000, 'second output');
    const before = await replayedTasks(hub, sessionId);
    expect(before.get(first.card)).toMatchObject({ status: 'failed', task: 'cancelled', trimmed: true });
    expect(before.get(second.card)).toMatchObject({ status: 'in_progress', task: 'running' });

    // Written in batches while it streams, and at shutdown: one private file for the session.
    const files = await until(() => {
      const names = fs.existsSync(taskDir) ? fs.readdirSync(taskDir).filter((n) => n.endsWith('.json')) : [];
      return names.length > 0 ? names : undefined;
    }, 'the task output file');
    await hub.close();
    expect(files).toHaveLength(1);
    const file = path.join(taskDir, files[0] as string);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(taskDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const again = await start({ taskOutputMaxChars: MAX_CHARS, taskOutputsMax: 2 });
    const after = await replayedTasks(again, sessionId);
    // The stopped task: exactly what was kept before the restart.
    expect(after.get(first.card)).toEqual(before.get(first.card));
    // The running one: ended as interrupted, its output at most the bound, from a line start, what the phone saw.
    const interrupted = after.get(second.card);
    expect(interrupted).toMatchObject({ status: 'failed', task: 'interrupted', trimmed: true });
    const text = interrupted?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(MAX_CHARS);
    expect(text.startsWith('\u001b[')).toBe(true);
    expect(text.length).toBeGreaterThanOrEqual((before.get(second.card)?.text ?? '').length - 100);
    expect(liveOutput(updates(a, sessionId), second.card)).toContain(text.split('\n')[0]);
    await again.close();

    // A hub with a smaller taskOutputsMax takes back only the newest task.
    const third = await start({ taskOutputMaxChars: MAX_CHARS, taskOutputsMax: 1 });
    expect([...(await replayedTasks(third, sessionId)).keys()]).toEqual([second.card]);

    // Deleting the session removes its file.
    const admin = await third.initializedClient({ name: 'deleter' });
    await admin.request('session/delete', { sessionId });
    await until(() => (fs.existsSync(file) ? undefined : true), 'the file removed with its session');
  }, 240_000);
});
