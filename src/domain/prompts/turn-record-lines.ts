/**
 * The lines of a running-turn record (turn-record.ts): how the pending lines become the bytes of
 * one append, and how a record's text is read back at start. The writer and the files' lifecycle
 * are turn-record.ts's.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { z } from 'zod';

/**
 * A journaled frame's bytes where the journal keeps them (journal.ts `JournalEntry`): the record
 * copies them into its write at the flush, so it holds no string of its own until then.
 */
export interface StoredLine {
  /** The frame's UTF-8 length. */
  readonly bytes: number;
  /** Copies the frame's bytes into `target` at `at`; answers how many. */
  copyTo(target: Buffer, at: number): number;
}

/** A record read back at start: the updates of a tail, and whether its turn was still running. */
export interface RestoredTurn {
  startedAt: number;
  updates: Array<{ update: SessionUpdate; meta: Record<string, unknown> }>;
  /** The last turn line said `run`: the hub stopped while the turn ran. */
  running: boolean;
  /** Size of the record on disk. */
  bytes: number;
}

const controlLine = z.union([
  z.object({ t: z.literal('open'), startedAt: z.number(), sessionId: z.string().optional() }),
  z.object({ t: z.enum(['run', 'idle']) }),
]);
const frameLine = z.looseObject({
  method: z.literal('session/update'),
  params: z.looseObject({
    update: z.looseObject({ sessionUpdate: z.string() }),
    _meta: z.looseObject({ zcode: z.record(z.string(), z.unknown()).optional() }).optional(),
  }),
});

/**
 * Pending lines as the bytes to append, each followed by a newline, in one buffer outside the JS
 * heap. A frame is copied from the journal's store, not encoded again, and no string of it is kept
 * until the flush (BENCHMARKS.md, tenth and fifteenth sessions).
 */
export function encodeLines(lines: ReadonlyArray<string | StoredLine>): Buffer {
  let size = 0;
  for (const line of lines) size += (typeof line === 'string' ? Buffer.byteLength(line, 'utf8') : line.bytes) + 1;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const line of lines) {
    at += typeof line === 'string' ? out.write(line, at, 'utf8') : line.copyTo(out, at);
    out[at++] = 0x0a;
  }
  return out;
}

/**
 * The updates of a record's text (pure; unreadable lines are skipped, a record without its header
 * is none), and the session id its first header names (none in an earlier version's record).
 */
export function parseRecord(text: string): (Omit<RestoredTurn, 'bytes'> & { sessionId?: string }) | undefined {
  let startedAt: number | undefined;
  let sessionId: string | undefined;
  let running = true;
  const updates: RestoredTurn['updates'] = [];
  for (const raw of text.split('\n')) {
    if (raw === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      continue;
    }
    const control = controlLine.safeParse(value);
    if (control.success) {
      if (control.data.t === 'open') {
        startedAt ??= control.data.startedAt;
        sessionId ??= control.data.sessionId;
      } else running = control.data.t === 'run';
      continue;
    }
    const frame = frameLine.safeParse(value);
    if (!frame.success) continue;
    // The old run's position (seq, epoch) is no position now: the hub journals it afresh.
    const { seq: _seq, epoch: _epoch, ...meta } = frame.data.params._meta?.zcode ?? {};
    updates.push({ update: frame.data.params.update as SessionUpdate, meta });
  }
  if (startedAt === undefined) return undefined;
  return sessionId === undefined ? { startedAt, updates, running } : { startedAt, updates, running, sessionId };
}
