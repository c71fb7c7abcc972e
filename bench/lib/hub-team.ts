/**
 * A team on a running hub, as B-SCALE and B-COST-TEAM build it: one prompting client per session
 * (load-client slots 0..sessions-1), then `sessions × perSession` team clients dealt round-robin over
 * the sessions and attached with `session/resume`, 25 clients per minted operate token (under
 * LIMITS.connectionsPerToken 32). The load client's slots are global: a team opened first holds
 * slots 0..sessions × (perSession + 1) − 1; one opened after `first` slots holds the same shifted by
 * `first` (B-COST-TEAM's second hub).
 */
import { benchPrompt, teamSlotMs } from './bench-prompt.js';
import type { DaemonProcess } from './daemon-process.js';
import { attachedSchema, promptDoneSchema, sessionOpenedSchema, waitDoneSchema } from './ipc-schema.js';
import type { LoadDriver } from './load-driver.js';

export const CLIENTS_PER_TOKEN = 25;

/** The part of a team's shape these helpers read. */
export interface TeamShape {
  sessions: number;
  perSession: number;
  rate: number;
  bytes: number;
  streamMs: number;
  phaseMs: number;
  /** Where the sessions stream on the shared grid (bench/lib/bench-prompt.ts `GRID`, `teamSlotMs`); 0: each from its own prompt. */
  grid: number;
}

export interface HubTeam {
  /** The sessions' ids, session k prompted by slot first + k. */
  sessions: string[];
  /** The team's first slot (its first prompter). */
  first: number;
  /** The hub's epoch (what a reconnect's `afterSeq` is tied to). */
  epoch: string;
  tokens: string[];
}

/**
 * Team client slots of session `k`: slots sessions.. (after the prompters 0..sessions-1), dealt
 * round-robin over the sessions; `batch` 0/1 = the first/second half of the slots (connected apart).
 */
export function teamOf(t: TeamShape, k: number, batch?: 0 | 1, first = 0): number[] {
  const team = t.sessions * t.perSession;
  const from = batch === 1 ? team / 2 : 0;
  const to = batch === 0 ? team / 2 : team;
  const out: number[] = [];
  for (let j = from; j < to; j++) if (j % t.sessions === k) out.push(first + t.sessions + j);
  return out;
}

/**
 * Mints the tokens, connects the prompters, opens one session each and attaches the team in two
 * halves (`between` runs after the first: B-SCALE's RSS at half the team). `first`: how many slots
 * the load client holds already (the team takes the next ones).
 */
export async function openHubTeam(
  d: DaemonProcess,
  load: LoadDriver,
  t: TeamShape,
  between: () => Promise<void> = () => Promise.resolve(),
  first = 0,
): Promise<HubTeam> {
  const team = t.sessions * t.perSession;
  const { tokens, minted } = await d.tokens(team + t.sessions, CLIENTS_PER_TOKEN);
  if (!minted) throw new Error('could not mint device tokens (POST /api/tokens)');
  await load.send({ op: 'connect', wsUrl: d.wsUrl, tokens, count: t.sessions, protocol: 'acp' });
  const sessions: string[] = [];
  let epoch = '';
  for (let k = 0; k < t.sessions; k++) {
    const o = await load.call(sessionOpenedSchema, { op: 'newSession', client: first + k, cwd: d.workspace });
    sessions.push(o.sessionId);
    epoch = o.epoch;
  }
  const attachBatch = async (b: 0 | 1) => {
    await load.send({ op: 'connect', wsUrl: d.wsUrl, tokens, count: team / 2, protocol: 'acp' }, 300_000);
    for (let k = 0; k < t.sessions; k++)
      await load.call(
        attachedSchema,
        { op: 'attach', sessionId: sessions[k]!, method: 'session/resume', clients: teamOf(t, k, b, first) },
        300_000,
      );
  };
  await attachBatch(0);
  await between();
  await attachBatch(1);
  return { sessions, first, epoch, tokens };
}

/** One turn in every session (session k prompted k × phaseMs late); resolves once each ended `end_turn`. */
export async function streamHubTeam(load: LoadDriver, team: HubTeam, t: TeamShape): Promise<void> {
  const turns = team.sessions.map(async (sessionId, k) => {
    await new Promise((r) => setTimeout(r, k * t.phaseMs));
    return load.call(
      promptDoneSchema,
      {
        op: 'prompt',
        client: team.first + k,
        sessionId,
        text: benchPrompt({ rate: t.rate, bytes: t.bytes, ms: t.streamMs, slotMs: teamSlotMs(t, k) }),
      },
      t.streamMs + 120_000,
    );
  });
  for (const s of await Promise.all(turns)) if (s.stopReason !== 'end_turn') throw new Error(`team turn ended ${s.stopReason}`);
}

/** Each session's head seq: the latest its prompter (slot first + k) holds. */
export async function teamHeads(load: LoadDriver, t: TeamShape, first = 0): Promise<number[]> {
  return (await load.report([...Array(t.sessions).keys()].map((k) => first + k))).lastSeq.map((s) => s ?? 0);
}

/** Each session's team slots (`teamOf`), or the groups a caller narrowed them to. */
const groupsOf = (t: TeamShape, groups?: number[][]) => groups ?? Array.from({ length: t.sessions }, (_, k) => teamOf(t, k));

/** Waits until every team client (of `groups`, by session; all by default) holds its session's head seq. */
export async function settleHubTeam(load: LoadDriver, t: TeamShape, groups?: number[][], first = 0): Promise<void> {
  const heads = await teamHeads(load, t, first);
  const g = groupsOf(t, groups);
  for (let k = 0; k < t.sessions; k++)
    await load.call(waitDoneSchema, { op: 'waitSeq', seq: heads[k]!, clients: g[k]!, timeoutMs: 60_000 }, 90_000);
}

/** FAN-01 per session: every client of a session (of `groups`) saw every seq once and ends on the same seq. */
export async function hubTeamGaps(load: LoadDriver, t: TeamShape, groups?: number[][]): Promise<string[]> {
  // Sessions have their own seq, so one report over all of them would compare across sessions.
  const g = groupsOf(t, groups);
  const out: string[] = [];
  for (let k = 0; k < t.sessions; k++) {
    const r = await load.report(g[k]!);
    if (!r.complete) out.push(`session ${k}: ${r.problems.slice(0, 2).join('; ') || 'clients end on different seqs'}`);
  }
  return out;
}
