/**
 * `zcode-hub sim --replay FILE` (docs/APP-SERVER.md §15.4): answers the hub as the recorded
 * child did. A request of the hub is matched to the recorded request of the same method not yet
 * used that is most like it (ties: the earliest); an answer to a reverse request by its id. The
 * matched cue's group is then written with its recorded pacing × `timeScale`, ids of responses
 * rewritten to the live request's, and what the hub sends differently (fresh ids, another
 * workspace) substituted. A request with no recorded counterpart is answered -32603 saying so.
 * What the child wrote before a cue is written before that cue's group, however soon the live
 * hub sends it.
 */
import type { Logger } from '../../logger.js';
import type { LineWriter } from '../framing.js';
import type { RecordedMessage, ReplayCue, ReplayScript } from './replay-script.js';
import { Substitutions } from './replay-substitutions.js';

type Id = string | number;
const key = (id: Id): string => `${typeof id}:${id}`;

/** A recorded message waiting for its time: `t` in the recording's ms, `write` what its timer runs. */
interface Pending {
  t: number;
  write: () => void;
}

interface CueState {
  cue: ReplayCue;
  fired: boolean;
  /** The live id of a fired request. */
  liveId?: Id;
  /** Responses to this request that came due before the hub sent it. */
  deferred: Record<string, unknown>[];
}

export class ReplayPlayer {
  private readonly states: CueState[];
  private readonly requestsByRecordedId = new Map<string, CueState>();
  private readonly subs = new Substitutions();
  /** Every write waiting for its time: a recorded message's, or `undefined` for the replayer's own answer. */
  private readonly timers = new Map<NodeJS.Timeout, Pending | undefined>();
  private closed = false;

  constructor(
    script: ReplayScript,
    private readonly write: LineWriter,
    private readonly timeScale: number,
    private readonly log: Logger,
  ) {
    this.states = script.cues.map((cue) => ({ cue, fired: false, deferred: [] }));
    for (const s of this.states) if (s.cue.kind === 'request') this.requestsByRecordedId.set(key(s.cue.id), s);
    this.play(script.initial, 0);
  }

  /** One line the hub wrote. */
  handleLine(line: string): void {
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      this.write({ id: 'parse-error', error: { code: -32700, message: 'Parse error' } });
      return;
    }
    if (typeof m !== 'object' || m === null || Array.isArray(m)) return;
    const msg = m as Record<string, unknown>;
    const id = msg['id'];
    if (typeof id !== 'string' && typeof id !== 'number') return; // a notification: ignored (§1.4)
    const method = msg['method'];
    if (typeof method === 'string') this.onRequest(id, method, msg['params']);
    else this.onResponse(id);
  }

  /** Stops every pending write. */
  close(): void {
    this.closed = true;
    for (const t of this.timers.keys()) clearTimeout(t);
    this.timers.clear();
  }

  private onRequest(id: Id, method: string, params: unknown): void {
    let best: CueState | undefined;
    let bestScore = -Infinity;
    for (const s of this.states) {
      if (s.fired || s.cue.kind !== 'request' || s.cue.method !== method) continue;
      const score = this.subs.likeness(s.cue.params, params);
      if (score > bestScore) [best, bestScore] = [s, score];
    }
    if (!best) {
      this.log.warn({ method }, 'replay: the recording has no further request of this method');
      // Through the timers, so it keeps its place behind answers already due.
      this.play(
        [{ t: 0, msg: { id, error: { code: -32603, message: `replay: the recording has no further ${method} request` } } }],
        0,
        true,
      );
      return;
    }
    this.subs.learn(best.cue.params, params);
    best.fired = true;
    best.liveId = id;
    this.writeRecordedBefore(best.cue.t);
    for (const r of best.deferred.splice(0)) this.write(this.subs.apply({ ...r, id }) as object);
    this.play(best.cue.group, best.cue.t);
  }

  private onResponse(id: Id): void {
    const s = this.states.find((x) => !x.fired && x.cue.kind === 'response' && key(x.cue.id) === key(id));
    if (!s) return; // an answer the recording did not have (a re-announcement answered twice): ignored, like §1.7 rule 4
    s.fired = true;
    this.writeRecordedBefore(s.cue.t);
    this.play(s.cue.group, s.cue.t);
  }

  /**
   * Writes now, in their recorded order, the messages still waiting that the child had written
   * before the hub sent the cue recorded at `t`. The hub may send it sooner after their cue than it
   * did in the recording (a probe that reacts to the first event of a stream, on a machine busier
   * when it recorded); the cue's own group is then not written ahead of what preceded it on the
   * child's stdout (a stream's later events before its earlier ones).
   */
  private writeRecordedBefore(t: number): void {
    const due: Array<[NodeJS.Timeout, Pending]> = [];
    for (const [timer, p] of this.timers) if (p !== undefined && p.t <= t) due.push([timer, p]);
    // A map keeps insertion order, each group's recorded order; across groups, by time (the sort is stable).
    due.sort(([, a], [, b]) => a.t - b.t);
    for (const [timer, p] of due) {
      clearTimeout(timer);
      this.timers.delete(timer);
      p.write();
    }
  }

  /** Writes a group with its recorded pacing, relative to its cue's time; `own`: messages of the replayer, written as they are. */
  private play(group: readonly RecordedMessage[], from: number, own = false): void {
    for (const m of group) {
      const write = (): void => {
        if (own) this.write(m.msg);
        else this.emit(m.msg);
      };
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          if (!this.closed) write();
        },
        Math.max(0, (m.t - from) * this.timeScale),
      );
      this.timers.set(timer, own ? undefined : { t: m.t, write });
    }
  }

  private emit(msg: Record<string, unknown>): void {
    const isResponse = msg['method'] === undefined && ('result' in msg || 'error' in msg);
    if (isResponse) {
      const request = this.requestsByRecordedId.get(key(msg['id'] as Id));
      if (request && !request.fired) {
        request.deferred.push(msg);
        return;
      }
      if (request?.liveId !== undefined) {
        this.write(this.subs.apply({ ...msg, id: request.liveId }) as object);
        return;
      }
    }
    this.write(this.subs.apply(msg) as object);
  }
}
