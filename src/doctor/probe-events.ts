/**
 * The notifications the probe's child sends, read with the hub's own lenient readers
 * (`parseSessionEvent`, `stateUpdatedParamsSchema`, APP-SERVER.md §5): every problem they
 * report becomes a `differs` row naming the field path, and the probe waits on what it expects
 * (a turn's events, the ready boundary) with a bound.
 */
import { parseLenient } from '../acp/lenient-parse.js';
import { parseSessionEvent, sessionEventEnvelopeSchema, stateUpdatedParamsSchema } from '../acp/zcode-event-schema.js';
import type { BackendNotification } from '../ports/backend-port.js';
import { pathText, quote, valueAt } from './probe-check.js';
import type { ProbeRow } from './probe-report.js';

/** A notification as the probe waits on it. */
export type SeenNotification =
  | { kind: 'event'; type: string; seq: number; payload: Record<string, unknown> }
  | { kind: 'state'; reason: string }
  | { kind: 'other'; method: string };

/** Distinct problems kept; a child that gets one field wrong on every delta says so once. */
const MAX_PROBLEM_ROWS = 50;

interface Waiter {
  from: number;
  match: (n: SeenNotification) => boolean;
  resolve: (n: SeenNotification | undefined) => void;
  timer: NodeJS.Timeout;
}

/** Collects and checks the child's notifications; `phase` names the step they are charged to. */
export class NotificationWatch {
  phase = 'start';
  private readonly seen: SeenNotification[] = [];
  private readonly problems = new Map<string, ProbeRow>();
  private readonly waiters = new Set<Waiter>();
  private readonly lastSeq = new Map<string, number>();

  /** How many notifications have arrived so far (a mark to wait from). */
  get mark(): number {
    return this.seen.length;
  }

  private closed = false;

  /** Feeds one notification of the child. */
  accept(n: BackendNotification): void {
    const seen = this.read(n);
    this.seen.push(seen);
    for (const w of [...this.waiters]) {
      if (w.match(seen)) this.settle(w, seen);
    }
  }

  /** The first notification from `from` on that matches, or undefined after `timeoutMs`. */
  waitFor(from: number, match: (n: SeenNotification) => boolean, timeoutMs: number): Promise<SeenNotification | undefined> {
    const found = this.seen.slice(from).find(match);
    if (found || this.closed) return Promise.resolve(found);
    return new Promise((resolve) => {
      const w: Waiter = { from, match, resolve, timer: setTimeout(() => this.settle(w, undefined), timeoutMs) };
      this.waiters.add(w);
    });
  }

  /** Index of the first match from `from` on, or -1. */
  indexOf(from: number, match: (n: SeenNotification) => boolean): number {
    const i = this.seen.slice(from).findIndex(match);
    return i === -1 ? -1 : i + from;
  }

  /** One row per distinct problem, or one ok row when there was none. */
  rows(): ProbeRow[] {
    if (this.problems.size > 0) return [...this.problems.values()];
    return [{ step: 'notifications', expectation: 'every session/event and state.updated reads as the hub reads it', outcome: 'ok' }];
  }

  /** Forgets the seq watermarks: a closed and resumed session counts from 1 again (§4.15). */
  resetSeq(): void {
    this.lastSeq.clear();
  }

  /** Ends every wait, and any later one at once (the probe is over, or abandoned). */
  close(): void {
    this.closed = true;
    for (const w of [...this.waiters]) this.settle(w, undefined);
  }

  private settle(w: Waiter, n: SeenNotification | undefined): void {
    clearTimeout(w.timer);
    this.waiters.delete(w);
    w.resolve(n);
  }

  private problem(expectation: string, detail: string): void {
    const key = `${expectation}\n${detail}`;
    if (this.problems.size >= MAX_PROBLEM_ROWS || this.problems.has(key)) return;
    this.problems.set(key, { step: `${this.phase} (notification)`, expectation, outcome: 'differs', detail });
  }

  private read(n: BackendNotification): SeenNotification {
    if (n.method === 'session/event') return this.readEvent(n.params);
    if (n.method === 'state.updated') {
      const parsed = stateUpdatedParamsSchema.safeParse(n.params);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          this.problem(
            'state.updated reads as the hub reads it',
            `${pathText('params', issue.path)}: ${issue.message}; seen ${quote(valueAt(n.params, issue.path))}`,
          );
        return { kind: 'other', method: n.method };
      }
      return { kind: 'state', reason: parsed.data.reason ?? '' };
    }
    return { kind: 'other', method: n.method };
  }

  private readEvent(params: unknown): SeenNotification {
    const parsed = parseSessionEvent(params);
    const type = String(valueAt(params, ['type']) ?? '?');
    for (const dropped of parsed.dropped)
      this.problem(`session/event ${type} reads as the hub reads it`, `params.${dropped} has a type the hub does not read; it was dropped`);
    if (parsed.kind === 'invalid') {
      const envelopeReads = parseLenient(sessionEventEnvelopeSchema, params).success;
      for (const issue of parsed.error.issues) {
        // parseSessionEvent parses the payload apart: once the envelope reads, the issue is the payload's.
        const full = envelopeReads ? ['payload', ...issue.path] : issue.path;
        this.problem(
          `session/event ${type} reads as the hub reads it`,
          `${pathText('params', full)}: ${issue.message}; seen ${quote(valueAt(params, full))}`,
        );
      }
      return { kind: 'other', method: 'session/event' };
    }
    if (parsed.kind === 'unknown') {
      this.problem(
        'session/event types are ones the hub knows (§5.4)',
        `type ${quote(type)} is unknown to the hub: it ignores such events`,
      );
      return { kind: 'other', method: 'session/event' };
    }
    const { event } = parsed;
    const last = this.lastSeq.get(event.sessionId);
    if (last !== undefined && event.seq <= last)
      this.problem('session/event seq grows by one per event (§5.2)', `seq ${event.seq} after ${last} (${event.type})`);
    this.lastSeq.set(event.sessionId, event.seq);
    return { kind: 'event', type: event.type, seq: event.seq, payload: event.payload as Record<string, unknown> };
  }
}
