/**
 * How one answer or event of the app-server becomes rows of the probe report: the hub's own
 * schemas decide (the typed client's result schemas, src/acp/zcode-event-schema.ts), this file
 * only names the field path and the value seen (docs/APP-SERVER.md §15).
 */
import { AppServerError } from '../app-server/errors.js';
import type { ProbeRow } from './probe-report.js';

/** The longest value quoted in a row's detail. */
const QUOTE_CHARS = 80;

/** A value as a row quotes it: its JSON, cut short, or `undefined`. */
export function quote(value: unknown): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

/** The value at `path` inside `root` (undefined when any step is missing). */
export function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** `result.session.title`, `params.payload.kind`, `result.sessions.0.sessionId`. */
export function pathText(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  return [prefix, ...path.map(String)].join('.');
}

/** Why a call failed, as what a probe row says; `limitMs` names the step bound. */
export interface FailureContext {
  step: string;
  expectation: string;
  /** The raw result the child sent, when it answered (kept by the probe's tap). */
  raw?: unknown;
  limitMs: number;
  /** What the link says about the child's exit, when it is gone. */
  exitNote: () => string;
}

/** The rows a failed call yields: missing (no answer, -32601, child gone) or differs (an error answer, a result the hub cannot read). */
export function failureRows(err: unknown, c: FailureContext): ProbeRow[] {
  const row = (outcome: ProbeRow['outcome'], detail: string): ProbeRow => ({ step: c.step, expectation: c.expectation, outcome, detail });
  if (!(err instanceof AppServerError)) return [row('differs', `the hub could not use the answer: ${(err as Error).message}`)];
  const fault = err.fault;
  switch (fault.kind) {
    case 'failure':
      if (fault.failure === 'timeout') return [row('missing', `no answer within ${c.limitMs} ms (limits.probeStepTimeoutMs)`)];
      if (fault.failure === 'gone' || fault.failure === 'not_running' || fault.failure === 'closed')
        return [row('missing', `the app-server is not running: ${c.exitNote()}`)];
      return [row('differs', `the link failed (${fault.failure}): ${err.message}`)];
    case 'rpc':
      if (fault.code === -32601) return [row('missing', `method not found (-32601): ${fault.message}`)];
      return [row('differs', `answered error ${fault.code}: ${fault.message}`)];
    case 'ack': {
      const { status, reasonCode, message } = fault.ack;
      return [row('differs', `ACK status ${status}${reasonCode ? ` (${reasonCode})` : ''}${message ? `: ${message}` : ''}`)];
    }
    case 'result':
      return fault.issues.map((issue) =>
        row('differs', `${pathText('result', issue.path)}: ${issue.message}; seen ${quote(valueAt(c.raw, issue.path))}`),
      );
  }
}

/**
 * One row per field the hub reads from an answer and fills with a default when absent (so the
 * schema alone passes it): present → ok, absent → missing, naming the path.
 */
export function presenceRows(step: string, raw: unknown, paths: readonly string[], prefix = 'result'): ProbeRow[] {
  return paths.map((p) => {
    const path = p.split('.');
    const seen = valueAt(raw, path);
    return seen === undefined || seen === null
      ? {
          step,
          expectation: `${pathText(prefix, path)} is present`,
          outcome: 'missing',
          detail: `${pathText(prefix, path)} is ${quote(seen)}`,
        }
      : { step, expectation: `${pathText(prefix, path)} is present`, outcome: 'ok' };
  });
}

/**
 * Rows about the child's reverse requests (APP-SERVER.md §1.7, §6): each method it asked that
 * the hub answers is ok; one the hub does not know is answered -32601 (a feature of the child
 * then falls back or fails), so it differs; runtime preferences never asked means the hub's
 * (question auto-resolution off, §6.3) never reached the child.
 */
export function reverseRequestRows(asked: ReadonlyMap<string, number>, known: readonly string[], runtimePreferences: string): ProbeRow[] {
  const step = 'reverse requests';
  const rows: ProbeRow[] = [
    asked.has(runtimePreferences)
      ? { step, expectation: `the child asks ${runtimePreferences} when it opens a session (§6.1)`, outcome: 'ok' }
      : {
          step,
          expectation: `the child asks ${runtimePreferences} when it opens a session (§6.1)`,
          outcome: 'missing',
          detail: "never asked: the hub's runtime preferences (question auto-resolution off, §6.3) did not reach the child",
        },
  ];
  for (const [method, times] of asked) {
    if (method === runtimePreferences) continue;
    rows.push(
      known.includes(method)
        ? { step, expectation: `the hub answers the child's ${method} (§6)`, outcome: 'ok' }
        : {
            step,
            expectation: 'every reverse request is one the hub answers (§6)',
            outcome: 'differs',
            detail: `the child asked ${method} (${times}×), which the hub does not know: it answers -32601 Method not found`,
          },
    );
  }
  return rows;
}
