import { attachedSchema, promptDoneSchema } from '../lib/ipc-schema.js';
import { round, type Scenario } from '../lib/scenario.js';
import { openStreamSession } from '../lib/stream-session.js';

/** One prompt fills the journal with about 10,000 updates (5,000 events/s for 2.05 s). */
const FILL = { clients: 1, rate: 5_000, bytes: 300, durationMs: 2_050, daemon: { limits: { connectionsPerToken: 64 } } } as const;
const ATTACHES = 5;

/**
 * B-REPLAY: a fresh client attaches with `session/load` + `afterSeq: 0` + the epoch to a session
 * whose journal holds about 10,000 updates; the figure is request → result, and the replay
 * arrives before the result (docs/CLIENT-PROTOCOL.md). Five attaches per daemon, each a new client.
 */
export const bReplay: Scenario = {
  id: 'B-REPLAY',
  proves: ['B-REPLAY'],
  goal: 'attach to a 10,000-update journal: replay delivered < 300 ms',
  unit: 'ms',
  runs: 1,
  passes: (s) => s.value < 300,
  async run() {
    const s = await openStreamSession(FILL);
    try {
      await s.load.call(promptDoneSchema, { op: 'prompt', client: 0, sessionId: s.sessionId, text: 'bench stream' }, 60_000);
      const journal = (await s.load.report([0])).lastSeq[0] ?? 0;
      const times: number[] = [];
      const counts: number[] = [];
      for (let i = 0; i < ATTACHES; i++) {
        await s.load.send({ op: 'connect', wsUrl: s.daemon.wsUrl, tokens: [s.daemon.adminToken], count: 1, protocol: 'acp' });
        const r = await s.load.call(attachedSchema, {
          op: 'attach',
          sessionId: s.sessionId,
          method: 'session/load',
          clients: [i + 1],
          afterSeq: 0,
          epoch: s.epoch,
        });
        const rep = await s.load.report([i + 1]);
        if (!rep.complete || rep.updates < journal)
          throw new Error(`replay ${i + 1}: ${rep.updates} of ${journal} updates (${rep.problems.slice(0, 2).join('; ')})`);
        times.push(round(r.ms, 1));
        counts.push(rep.updates);
      }
      const sorted = [...times].sort((a, b) => a - b);
      return {
        value: sorted[Math.floor(sorted.length / 2)]!,
        extra: { firstAttachMs: times[0], journalUpdates: journal, attachesMs: times, replayedUpdates: counts, auth: s.auth },
      };
    } finally {
      await s.close();
    }
  },
};
