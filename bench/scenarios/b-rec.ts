import { promptDoneSchema, waitDoneSchema } from '../lib/ipc-schema.js';
import { round, type Scenario } from '../lib/scenario.js';
import { openStreamSession } from '../lib/stream-session.js';

/** One prompt = about 500 session updates (1,000 events/s for a bit over 0.5 s). */
const TURN = { rate: 1_000, bytes: 300, durationMs: 505 } as const;
const RECONNECTING = 100;

/**
 * B-REC: 100 clients that were attached drop off, miss one turn of about 500 updates, and come
 * back at once with `session/load` + `afterSeq` (their own last seq) and the epoch. The figure is
 * the time from the first reconnect to the moment the last of them holds the final seq, gap-free.
 * Client 0 stays attached and prompts.
 */
export const bRec: Scenario = {
  id: 'B-REC',
  proves: ['B-REC'],
  goal: '100 clients reconnecting with afterSeq after ~500 missed updates each: all caught up < 2 s',
  unit: 'ms',
  runs: 3,
  passes: (s) => s.value < 2000,
  async run() {
    const setup = { clients: RECONNECTING + 1, ...TURN };
    const s = await openStreamSession(setup);
    try {
      const away = [...Array(RECONNECTING).keys()].map((i) => i + 1);
      const prompt = () => s.load.call(promptDoneSchema, { op: 'prompt', client: 0, sessionId: s.sessionId, text: 'bench stream' }, 60_000);
      await prompt();
      const warm = (await s.load.report([0])).lastSeq[0] ?? 0;
      await s.load.call(waitDoneSchema, { op: 'waitSeq', seq: warm, clients: away, timeoutMs: 30_000 });
      const before = await s.load.report(away);
      await s.load.send({ op: 'close', clients: away });
      await prompt();
      const target = (await s.load.report([0])).lastSeq[0] ?? 0;
      const rec = await s.load.call(
        waitDoneSchema,
        { op: 'reconnect', sessionId: s.sessionId, clients: away, targetSeq: target, epoch: s.epoch, timeoutMs: 30_000 },
        60_000,
      );
      const after = await s.load.report(away);
      if (!rec.reached) throw new Error('not every client caught up in 30 s');
      if (!after.complete) throw new Error(`catch-up not gap-free: ${after.problems.slice(0, 3).join('; ')}`);
      const lastBefore = Math.min(...before.lastSeq.map((x) => x ?? 0));
      return {
        value: round(rec.ms, 1),
        extra: { missedUpdates: target - lastBefore, complete: after.complete, clients: away.length, auth: s.auth },
      };
    } finally {
      await s.close();
    }
  },
};
