/**
 * A background task's output so far reaches a device that joins late (docs/CLIENT-PROTOCOL.md
 * "Terminal output of background tasks"), bounded by `taskOutputMaxChars` per task and
 * `taskOutputsMax` per session; stopping it is operate+ (a view device is refused).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../helpers/acp-ws-client.js';
import { liveOutput, sessionUpdates, startWatch, type TaskUpdate } from '../helpers/background-watch.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

const MAX_CHARS = 600;
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ limits: { taskOutputMaxChars: MAX_CHARS, taskOutputsMax: 2 } });
});
afterAll(async () => {
  await hub?.close();
});

/** Cards of the tasks started so far (an earlier task still streams while the next starts). */
const started = new Set<string>();
const updates = sessionUpdates;

describe('background task output for late joiners', () => {
  it('a late joiner gets the output so far (trimmed past taskOutputMaxChars), then the live rest without gap or repeat; a view device cannot stop it', async () => {
    const a = await hub.initializedClient({ name: 'phone' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', {
      cwd: hub.workspace,
      mcpServers: [],
      _meta: { zcode: { mode: 'yolo' } },
    });
    const { card, taskId } = await startWatch(a, sessionId, started);
    // Enough output that the kept tail had to drop its start.
    await a.waitFor(() => liveOutput(updates(a, sessionId), card).length > MAX_CHARS * 2 || undefined, 30_000, 'output past the bound');

    const late = await hub.initializedClient({ name: 'laptop' });
    await late.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const replayed = updates(late, sessionId).filter((u) => u._meta?.zcode?.replay === true && u.update.toolCallId === card);
    // After the history's launch card (its result "running in background"), the task's kept output.
    const kept = replayed.filter((u) => u.update._meta?.backgroundTask !== undefined).at(-1);
    expect(kept?.update.status).toBe('in_progress');
    expect(kept?.update._meta?.backgroundTask).toMatchObject({ taskId, status: 'running' });
    expect(kept?.update._meta?.zcode?.outputTrimmed).toBe(true);
    const sofar = kept?.update._meta?.zcode?.outputText ?? '';
    // At most the bound, from the start of a line.
    expect(sofar.length).toBeLessThanOrEqual(MAX_CHARS);
    expect(sofar.length).toBeGreaterThan(MAX_CHARS - 100);
    expect(sofar.startsWith('\u001b[')).toBe(true);

    // More lines arrive live; what the late joiner holds is exactly the tail of what the phone saw.
    const seenAtJoin = liveOutput(updates(late, sessionId), card).length;
    await late.waitFor(
      () => liveOutput(updates(late, sessionId), card).length > seenAtJoin + 100 || undefined,
      20_000,
      'live output after the join',
    );
    const held = sofar + liveOutput(updates(late, sessionId), card);
    await a.waitFor(() => liveOutput(updates(a, sessionId), card).endsWith(held) || undefined, 10_000, 'the phone saw the same tail');

    // A view device sees the task but cannot stop it.
    const viewer = await hub.initializedClient({ token: await hub.token('view', 'viewer'), name: 'viewer' });
    await viewer.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const refused = await viewer.request('_zcode/cancel_background_task', { sessionId, taskId }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RpcError);
    expect((refused as RpcError).code).toBe(-32001);
    const before = liveOutput(updates(a, sessionId), card).length;
    await a.waitFor(() => liveOutput(updates(a, sessionId), card).length > before || undefined, 20_000, 'still running');

    // The operate device stops it: the card ends, marked cancelled, and no more output comes.
    const skip = a.notifications('session/update').length;
    const res = await a.request<{ cancelled: boolean }>('_zcode/cancel_background_task', { sessionId, taskId });
    expect(res.cancelled).toBe(true);
    const ended = await a.waitForNotification<TaskUpdate>(
      'session/update',
      (u) => u.sessionId === sessionId && u.update.toolCallId === card && u.update._meta?.backgroundTask?.status === 'cancelled',
      10_000,
      skip,
    );
    expect(ended.update.status).toBe('failed');

    // A reload after the stop still shows the output, and the card as stopped.
    const reload = await hub.initializedClient({ name: 'phone again' });
    await reload.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const after = updates(reload, sessionId)
      .filter((u) => u.update.toolCallId === card && u.update._meta?.backgroundTask !== undefined)
      .at(-1);
    expect(after?.update.status).toBe('failed');
    expect(after?.update._meta?.backgroundTask).toMatchObject({ taskId, status: 'cancelled' });
    expect(after?.update._meta?.zcode?.outputText?.length).toBeLessThanOrEqual(MAX_CHARS);

    // A replay sends the kept output only after cards it holds: a page of just the last turn
    // leaves the first task's card (and its output) to the earlier page, which brings both.
    const second = await startWatch(a, sessionId, started);
    await a.waitFor(() => liveOutput(updates(a, sessionId), second.card).length > 0 || undefined, 20_000, 'second task output');
    const paged = await hub.initializedClient({ name: 'paged' });
    const opened = await paged.request<{ _meta?: { zcode?: { replayMeta?: { cursor?: string } } } }>('session/load', {
      sessionId,
      cwd: hub.workspace,
      mcpServers: [],
      _meta: { zcode: { limit: 1 } },
    });
    const replayedTasks = (list: TaskUpdate[]) =>
      list.filter((u) => u.update._meta?.backgroundTask !== undefined && u._meta?.zcode?.replay === true).map((u) => u.update.toolCallId);
    expect(replayedTasks(updates(paged, sessionId))).toEqual([second.card]);
    const cursor = opened._meta?.zcode?.replayMeta?.cursor as string;
    const earlier = await paged.request<{ updates: Array<TaskUpdate['update']> }>('_zcode/load_earlier', { sessionId, cursor });
    const firstCard = earlier.updates.findIndex((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === card);
    const firstKept = earlier.updates.findIndex((u) => u.toolCallId === card && u._meta?.backgroundTask?.status === 'cancelled');
    expect(firstCard).toBeGreaterThanOrEqual(0);
    expect(firstKept).toBeGreaterThan(firstCard);
    expect(earlier.updates[firstKept]?._meta?.zcode?.outputTrimmed).toBe(true);

    // taskOutputsMax is 2: a third task's output pushes out the first one's.
    const third = await startWatch(a, sessionId, started);
    await a.waitFor(() => liveOutput(updates(a, sessionId), third.card).length > 0 || undefined, 20_000, 'third task output');
    const full = await hub.initializedClient({ name: 'full' });
    await full.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    expect(replayedTasks(updates(full, sessionId))).toEqual([second.card, third.card]);
    await a.request('_zcode/cancel_background_task', { sessionId, taskId: second.taskId });
    await a.request('_zcode/cancel_background_task', { sessionId, taskId: third.taskId });
  });
});
