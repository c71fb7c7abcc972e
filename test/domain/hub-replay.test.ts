import { afterEach, describe, expect, it } from 'vitest';
import { RecorderClient, startRig, until, type DomainRig } from './helpers.js';

let rig: DomainRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const text = (t: string) => [{ type: 'text' as const, text: t }];
// Bench mode: every turn streams ~600 text deltas (no coalescing) in ~1.2 s.
const BENCH = ['--event-rate', '500', '--event-duration-ms', '1200', '--event-bytes', '120'];

function lastPosition(c: RecorderClient): { seq: number; epoch: string } {
  const metas = c
    .updates()
    .map((u) => u._meta?.zcode)
    .filter((m): m is { seq: number; epoch: string } => typeof m?.seq === 'number');
  const last = metas.at(-1);
  if (!last) throw new Error('no journaled update seen');
  return last;
}

describe('Hub over the real simulator: replay', () => {
  it('[REC-01] disconnect, 500+ updates, reconnect with afterSeq + epoch: exactly the missing ones, then live', async () => {
    rig = await startRig({ simArgs: BENCH });
    const a = new RecorderClient();
    const b = new RecorderClient();
    const watcher = new RecorderClient();
    const { sessionId } = await rig.hub.newSession(a, { cwd: rig.config.workspace });
    await rig.hub.loadSession(b, sessionId, { history: false });
    await rig.hub.loadSession(watcher, sessionId, { history: false });
    await rig.hub.prompt(a, sessionId, text('warm up'));
    const seen = lastPosition(b);
    b.close();
    rig.hub.disconnect(b.clientId);
    await rig.hub.prompt(a, sessionId, text('while b is away'));
    const missed = watcher.updates().filter((u) => (u._meta?.zcode?.seq ?? 0) > seen.seq);
    expect(missed.length).toBeGreaterThanOrEqual(500);
    const b2 = new RecorderClient();
    const opened = await rig.hub.loadSession(b2, sessionId, { afterSeq: seen.seq, epoch: seen.epoch, history: false });
    expect(opened.replayMeta).toMatchObject({ recovered: true, replayed: missed.length });
    const replayed = b2.raw.filter((f) => f.includes('"session/update"'));
    // Byte-identical to what a live client received, in order.
    const liveFrames = watcher.raw.filter((f) => f.includes('"session/update"')).slice(-missed.length);
    expect(replayed).toEqual(liveFrames);
    await rig.hub.prompt(a, sessionId, text('after the reconnect'));
    const seqs = b2.updates().map((u) => u._meta?.zcode?.seq as number);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seen.seq + 1 + i));
  });

  it('[REC-02] gap beyond the journal and a child restart: recovered false, tail rebuilt from history; pending interaction re-sent', async () => {
    // A real child, for a real SIGKILL.
    rig = await startRig({ limits: { journalMaxUpdates: 5 }, child: true });
    const a = new RecorderClient();
    const b = new RecorderClient();
    const { sessionId } = await rig.hub.newSession(a, { cwd: rig.config.workspace });
    await rig.hub.loadSession(b, sessionId, { history: false });
    await rig.hub.prompt(a, sessionId, text('first'));
    const seen = lastPosition(b);
    b.close();
    rig.hub.disconnect(b.clientId);
    for (let i = 0; i < 4; i += 1) await rig.hub.prompt(a, sessionId, text(`more ${i}`));
    const b2 = new RecorderClient();
    const r = await rig.hub.loadSession(b2, sessionId, { afterSeq: seen.seq, epoch: seen.epoch, history: false, limit: 4 });
    expect(r.replayMeta.recovered).toBe(false);
    expect(r.replayMeta.replayed).toBeGreaterThan(0);
    expect(b2.updates().every((u) => u._meta?.zcode?.replay === true)).toBe(true);
    expect(r.replayMeta.hasMore).toBe(true);
    const earlier = await rig.hub.loadEarlier(sessionId, r.replayMeta.cursor as string, 4);
    expect(earlier.updates.length).toBeGreaterThan(0);

    // Child restart: the epoch changes; an old position is not resumable exactly.
    const before = rig.hub.status().epoch;
    process.kill(rig.backend.status().pid as number, 'SIGKILL');
    const r2 = rig;
    await until(() => r2.hub.status().epoch !== before && r2.backend.status().state === 'ready', 'backend respawned');
    const pos = lastPosition(a);
    const a2 = new RecorderClient();
    const after = await rig.hub.loadSession(a2, sessionId, { afterSeq: pos.seq, epoch: pos.epoch, history: false });
    expect(after.replayMeta.recovered).toBe(false);
    expect(after.epoch).not.toBe(pos.epoch);
    // A new interaction while a2 is attached, then a fresh connection re-attaches after the replay: it gets it.
    const turn = rig.hub.prompt(a2, sessionId, text('permission please'));
    await a2.waitFor(() => a2.openRequests('session/request_permission').length > 0, 'permission request');
    const a3 = new RecorderClient();
    const again = await rig.hub.loadSession(a3, sessionId, { afterSeq: 0, epoch: 'stale', history: false });
    expect(again.replayMeta.recovered).toBe(false);
    rig.hub.deliverPending(a3, sessionId);
    await a3.waitFor(() => a3.openRequests('session/request_permission').length > 0, 're-sent after replay');
    const lastUpdate = a3.frames.map((f) => f.method).lastIndexOf('session/update');
    expect(lastUpdate).toBeGreaterThan(-1);
    a3.openRequests()[0]?.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');
  });

  it('[REC-03] 100 clients reconnect at once: all caught up, no request to the child caused by it', async () => {
    rig = await startRig({ simArgs: BENCH });
    const a = new RecorderClient();
    const { sessionId } = await rig.hub.newSession(a, { cwd: rig.config.workspace });
    const clients = Array.from({ length: 100 }, () => new RecorderClient());
    for (const c of clients) await rig.hub.loadSession(c, sessionId, { history: false });
    await rig.hub.prompt(a, sessionId, text('one'));
    const positions = clients.map((c) => lastPosition(c));
    for (const c of clients) {
      c.close();
      rig.hub.disconnect(c.clientId);
    }
    await rig.hub.prompt(a, sessionId, text('two'));
    const requestsBefore = rig.requests.length;
    const again = clients.map(() => new RecorderClient());
    const results = await Promise.all(
      again.map((c, i) =>
        (rig as DomainRig).hub.loadSession(c, sessionId, {
          afterSeq: positions[i]?.seq as number,
          epoch: positions[i]?.epoch as string,
          history: false,
        }),
      ),
    );
    expect(rig.requests.length).toBe(requestsBefore);
    const target = lastPosition(a).seq;
    for (const [i, c] of again.entries()) {
      expect(results[i]?.replayMeta.recovered).toBe(true);
      expect(lastPosition(c).seq).toBe(target);
    }
  });

  it('[FAN-03] broadcast to 100 clients: each event serialized once', async () => {
    rig = await startRig({ simArgs: BENCH });
    const a = new RecorderClient();
    const { sessionId } = await rig.hub.newSession(a, { cwd: rig.config.workspace });
    const clients = Array.from({ length: 100 }, () => new RecorderClient());
    for (const c of clients) await rig.hub.loadSession(c, sessionId, { history: false });
    for (const c of [a, ...clients]) {
      c.raw.length = 0;
      c.sent.length = 0;
    }
    const before = rig.hub.stats.serializations;
    await rig.hub.prompt(a, sessionId, text('stream'));
    // Every frame handed over (`sent`), also those a client's update kinds leave out.
    const distinct = new Set([a, ...clients].flatMap((c) => c.sent.map((f) => f.text)));
    expect(distinct.size).toBeGreaterThan(500);
    expect(rig.hub.stats.serializations - before).toBe(distinct.size);
    for (const c of clients) expect(c.raw.filter((f) => f.includes('"session/update"')).length).toBeGreaterThan(500);
  });
});

/** Stalls the one event loop for 1.5 s when the first streamed delta reaches it. */
class StallingClient extends RecorderClient {
  stalled = false;
  override sendFrame(frame: Parameters<RecorderClient['sendFrame']>[0]): void {
    super.sendFrame(frame);
    if (this.stalled || !frame.text.includes('agent_message_chunk')) return;
    this.stalled = true;
    const end = performance.now() + 1500;
    while (performance.now() < end) {
      // the stall: nothing else runs
    }
  }
}

describe('the simulator’s bench stream on a busy machine', () => {
  it('sends rate × duration deltas even when the event loop stalls past the stream’s end', async () => {
    // In-process, the simulator shares this event loop: a 1.5 s stall inside a 1.2 s stream is
    // what a loaded 2-core machine can do to it. The stream must still be its 600 deltas
    // (500/s × 1.2 s), the late ones sent in a burst, not cut at the deadline.
    rig = await startRig({ simArgs: BENCH });
    const a = new StallingClient();
    const { sessionId } = await rig.hub.newSession(a, { cwd: rig.config.workspace });
    await rig.hub.prompt(a, sessionId, text('stream'));
    expect(a.stalled).toBe(true);
    const deltas = a.updates().filter((u) => u.update.sessionUpdate === 'agent_message_chunk');
    expect(deltas).toHaveLength(600);
  });
});
