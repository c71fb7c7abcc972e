import path from 'node:path';
import { DaemonProcess, repoRoot } from '../lib/daemon-process.js';
import { attachedSchema, promptDoneSchema, sessionOpenedSchema } from '../lib/ipc-schema.js';
import { LoadDriver } from '../lib/load-driver.js';
import { round, type Scenario } from '../lib/scenario.js';

const SESSIONS = 10;
const IDLE_CLIENTS = 100;
const MiB = 1024 * 1024;
/** RSS settles after connections and their first frames; sampled this long after the last attach. */
const SETTLE_MS = 2_000;

/** Daemon flags for B-MEM only: a SIGUSR2 handler that runs full GCs (bench/lib/gc-preload.cjs). */
const GC_ARGS = ['--expose-gc', '--require', path.join(repoRoot, 'bench', 'lib', 'gc-preload.cjs')];

/** RSS after the settle time and two full collections in the daemon. */
async function settledRss(d: DaemonProcess): Promise<number> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  process.kill(d.pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 500));
  return d.rss();
}

/**
 * B-MEM: 10 sessions (each with one answered prompt, default scenario) and 100 idle clients,
 * 10 per session. Figures: the daemon's RSS (from /proc/<pid>/status) with everything attached,
 * and the RSS growth from the 100 idle clients divided by 100. Both are read after forced full
 * GCs, or the collector's timing (±10 MB) would drown the clients' share.
 *
 * The first 100 clients' share includes one-off costs that do not grow with the number of
 * clients (V8 young-generation pages first touched by the connect burst, compiled code), so a
 * second batch of 100 is attached afterwards and its share reported as `nextIdleClientKiB`
 * (details only; the goal is still judged on the first 100).
 */
export const bMem: Scenario = {
  id: 'B-MEM',
  proves: ['B-MEM'],
  goal: '10 sessions, 100 idle clients: hub RSS < 150 MB and < 100 KB per idle client',
  unit: 'MiB RSS',
  runs: 3,
  passes: (s) => s.value < 150 && s.details.every((d) => d.perClientGoalMet === true),
  async run() {
    const d = await DaemonProcess.spawn({ limits: { connectionsPerToken: 256 }, nodeArgs: GC_ARGS });
    const load = await LoadDriver.start().catch(async (err: unknown) => {
      await d.stop();
      throw err;
    });
    try {
      await d.waitHealthy(true);
      const idleStart = await settledRss(d);
      const { tokens } = await d.tokens(2 * IDLE_CLIENTS + 1, 25);
      await load.send({ op: 'connect', wsUrl: d.wsUrl, tokens, count: 1, protocol: 'acp' });
      const sessions: string[] = [];
      for (let i = 0; i < SESSIONS; i++) {
        const o = await load.call(sessionOpenedSchema, { op: 'newSession', client: 0, cwd: d.workspace });
        await load.call(promptDoneSchema, { op: 'prompt', client: 0, sessionId: o.sessionId, text: `hello ${i}` }, 60_000);
        sessions.push(o.sessionId);
      }
      await load.send({ op: 'close', clients: [0] });
      const withSessions = await settledRss(d);
      await load.send({ op: 'connect', wsUrl: d.wsUrl, tokens, count: IDLE_CLIENTS, protocol: 'acp' });
      for (let i = 0; i < SESSIONS; i++) {
        const clients = [...Array(IDLE_CLIENTS / SESSIONS).keys()].map((k) => 1 + i * (IDLE_CLIENTS / SESSIONS) + k);
        await load.call(attachedSchema, { op: 'attach', sessionId: sessions[i]!, method: 'session/resume', clients });
      }
      const withClients = await settledRss(d);
      const perClientKiB = (withClients - withSessions) / IDLE_CLIENTS / 1024;
      await load.send({ op: 'connect', wsUrl: d.wsUrl, tokens, count: IDLE_CLIENTS, protocol: 'acp' });
      for (let i = 0; i < SESSIONS; i++) {
        const clients = [...Array(IDLE_CLIENTS / SESSIONS).keys()].map((k) => 1 + IDLE_CLIENTS + i * (IDLE_CLIENTS / SESSIONS) + k);
        await load.call(attachedSchema, { op: 'attach', sessionId: sessions[i]!, method: 'session/resume', clients });
      }
      const withMoreClients = await settledRss(d);
      return {
        value: round(withClients / MiB, 1),
        extra: {
          rssIdleMiB: round(idleStart / MiB, 1),
          rssTenSessionsMiB: round(withSessions / MiB, 1),
          rssWithClientsMiB: round(withClients / MiB, 1),
          perIdleClientKiB: round(perClientKiB, 1),
          rssWithNextClientsMiB: round(withMoreClients / MiB, 1),
          nextIdleClientKiB: round((withMoreClients - withClients) / IDLE_CLIENTS / 1024, 1),
          perClientGoalMet: perClientKiB < 100,
        },
      };
    } finally {
      await load.stop();
      await d.stop();
    }
  },
};
