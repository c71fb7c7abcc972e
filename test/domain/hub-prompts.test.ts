import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecorderClient, startRig, type DomainRig } from './helpers.js';

let rig: DomainRig;
beforeEach(async () => {
  rig = await startRig();
});
afterEach(async () => {
  await rig?.close();
});

const text = (t: string) => [{ type: 'text' as const, text: t }];

/** Clients `a` and `b` on one new session. */
async function twoClients(r: DomainRig) {
  const a = new RecorderClient({ name: 'a' });
  const b = new RecorderClient({ name: 'b' });
  const opened = await r.hub.newSession(a, { cwd: r.config.workspace });
  await r.hub.loadSession(b, opened.sessionId, { history: false });
  return { a, b, opened };
}

/** The prompt texts a client saw echoed from others. */
const echoes = (c: RecorderClient) =>
  c
    .updates()
    .filter((u) => u.update.sessionUpdate === 'user_message_chunk')
    .map((u) => (u.update.content as { text: string }).text);

describe('Hub over the real simulator: prompts', () => {
  it('[PRM-01] two clients prompt a busy session: FIFO, each answered at its own turn end, both echoed', async () => {
    const a = new RecorderClient({ name: 'phone' });
    const b = new RecorderClient({ name: 'editor' });
    rig.hub.connect(a);
    rig.hub.connect(b);
    const opened = await rig.hub.newSession(a, { cwd: rig.config.workspace });
    await rig.hub.loadSession(b, opened.sessionId, { history: false });
    const order: string[] = [];
    const first = rig.hub.prompt(a, opened.sessionId, text('first ask')).then((r) => {
      order.push('first');
      return r;
    });
    const second = rig.hub.prompt(b, opened.sessionId, text('second ask')).then((r) => {
      order.push('second');
      return r;
    });
    const [r1, r2] = await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(r1.stopReason).toBe('end_turn');
    expect(r2.stopReason).toBe('end_turn');
    expect(r2.queuedBehind).toBe(1);
    expect(r1.turnId).toBeDefined();
    expect(r2.turnId).toBeDefined();
    expect(r1.turnId).not.toBe(r2.turnId);
    // Each client sees the other's prompt echoed (and not its own, which it already shows).
    expect(echoes(a)).toEqual(['second ask']);
    expect(echoes(b)).toEqual(['first ask']);
    // The queue was visible to everyone.
    const queued = (a.notes('_zcode/turn_state') as Array<{ queue: Array<{ name: string }> }>).some((t) =>
      t.queue.some((q) => q.name === 'editor'),
    );
    expect(queued).toBe(true);
    // seq strictly increasing with no gaps for a client attached from the start.
    const seqs = a.updates().map((u) => u._meta?.zcode?.seq ?? -1);
    const sorted = [...seqs].sort((x, y) => x - y);
    expect(seqs).toEqual(sorted);
  });

  it('a prompt that runs at once is told by its start alone: no turn_state ever lists it as queued', async () => {
    const { a, b, opened } = await twoClients(rig);
    type TurnState = { state: string; promptId?: string; queue: unknown[] };
    // Each was told the idle state when it opened the session.
    const before = [a, b].map((c) => c.notes('_zcode/turn_state').length);
    const result = await rig.hub.prompt(a, opened.sessionId, text('straight in'));
    expect(result).toMatchObject({ stopReason: 'end_turn', queuedBehind: 0 });
    for (const [i, c] of [a, b].entries()) {
      const states = (c.notes('_zcode/turn_state') as TurnState[]).slice(before[i]);
      expect(states.every((t) => t.queue.length === 0)).toBe(true);
      // running (promptedBy and promptId), running with the child's turn id, idle.
      expect(states.map((t) => t.state)).toEqual(['running', 'running', 'idle']);
      expect(states[0]?.promptId).toBeDefined();
    }
  });

  it('cancel returns the caller’s queued prompts cancelled, keeps others queued, and stops the running turn', async () => {
    const { a, b, opened } = await twoClients(rig);
    const running = rig.hub.prompt(a, opened.sessionId, text('slow running'));
    const mineQueued = rig.hub.prompt(a, opened.sessionId, text('mine queued'));
    const theirsQueued = rig.hub.prompt(b, opened.sessionId, text('theirs queued'));
    // Both others queued behind the running turn (admission awaits I/O: without this wait the
    // cancel could come while they are still on their way, which the next test covers).
    type TurnState = { turnId?: string; queue: Array<{ preview: string }> };
    await a.waitFor(
      () => (a.notes('_zcode/turn_state') as TurnState[]).some((t) => t.turnId !== undefined && t.queue.length === 2),
      'turn started, two queued',
    );
    await rig.hub.cancel(a, opened.sessionId);
    expect((await mineQueued).stopReason).toBe('cancelled');
    expect((await running).stopReason).toBe('cancelled');
    const theirs = await theirsQueued;
    expect(theirs.stopReason).toBe('end_turn');
    expect(rig.requests).toContain('v4/command');
  });

  it('a cancel that comes while the caller’s prompt is still being admitted cancels it: it never runs', async () => {
    const { a, b, opened } = await twoClients(rig);
    // Admission awaits the workspace-root check: both prompts are on their way, none queued yet.
    const mine = rig.hub.prompt(a, opened.sessionId, text('mine on its way'));
    const theirs = rig.hub.prompt(b, opened.sessionId, text('theirs on its way'));
    expect((a.notes('_zcode/turn_state') as Array<{ queue: unknown[] }>).every((t) => t.queue.length === 0)).toBe(true);
    await rig.hub.cancel(a, opened.sessionId);
    expect(await mine).toEqual({ stopReason: 'cancelled', queuedBehind: 0 });
    expect((await theirs).stopReason).toBe('end_turn');
    // Never queued, so never echoed; the other client's prompt ran and was.
    expect(echoes(b)).toEqual([]);
    expect(echoes(a)).toEqual(['theirs on its way']);
    // A cancel is not sticky: the next prompt after it runs.
    expect((await rig.hub.prompt(a, opened.sessionId, text('after the cancel'))).stopReason).toBe('end_turn');
  });

  it('a stop the agent answers late never stops the next prompt’s turn (the queue waits for both stops)', async () => {
    // The legacy `session/stop` runs concurrently in the child (§1.6, §4.9): delayed here, it
    // would land after the next send's ACK and stop that turn instead of the one it was for.
    const late = await startRig({ simArgs: ['--slow-method', 'session/stop=40'] });
    try {
      const { a, b, opened } = await twoClients(late);
      const running = late.hub.prompt(a, opened.sessionId, text('slow running'));
      const theirsQueued = late.hub.prompt(b, opened.sessionId, text('theirs queued'));
      await a.waitFor(() => a.notes('_zcode/turn_state').some((t) => (t as { turnId?: string }).turnId !== undefined), 'turn started');
      await late.hub.cancel(a, opened.sessionId);
      expect((await running).stopReason).toBe('cancelled');
      expect((await theirsQueued).stopReason).toBe('end_turn');
    } finally {
      await late.close();
    }
  });
});
