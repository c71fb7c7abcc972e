import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, openRegularFile, OWN_FILE_FLAGS, writeAll } from '../fs/secure-file.js';
import { AuditIndex, forEachLine } from './audit-index.js';
import { SCOPES, type Identity } from './identity.js';

/** File name of the audit log in the state dir: append-only JSONL, mode 0600 (ARCHITECTURE.md §7). */
export const AUDIT_FILE = 'audit.jsonl';

/** A `detail` larger than this is replaced by a marker: the audit log records acts, not payloads. */
const DETAIL_MAX_CHARS = 4_096;

/** Keys whose values never reach the audit file, at any depth. */
const SECRET_KEY = /api[-_]?key|token|secret|password|authorization|cookie|^code$|pairing/i;

/** What was done. Open-ended (`string`) so the domain can add acts; these are the ones the hub writes. */
export type AuditAction =
  | 'prompt'
  | 'cancel'
  | 'answer'
  | 'settings.change'
  | 'token.create'
  | 'token.revoke'
  | 'token.person'
  | 'pairing.create'
  | 'pairing.redeem'
  | 'push.subscribe'
  | 'push.unsubscribe'
  | (string & {});

/** One act to record; the shape the domain Hub takes as `audit?: AuditSink`. */
export interface AuditInput {
  identity: Identity;
  /** The client's self-declared `clientInfo.name`, kept beside the verified identity (never instead of it). */
  client?: string;
  action: AuditAction;
  sessionId?: string;
  detail?: unknown;
}

/** Records an act; never throws into the caller (a full disk must not fail a prompt). */
export type AuditSink = (entry: AuditInput) => void;

export const auditEntrySchema = z.object({
  seq: z.number().int().positive(),
  at: z.number(),
  /** `person` is the token's person (absent in entries written before people existed). */
  who: z.object({
    tokenId: z.string(),
    name: z.string(),
    person: z.string().optional(),
    client: z.string().optional(),
    scope: z.enum(SCOPES),
  }),
  action: z.string(),
  sessionId: z.string().optional(),
  detail: z.unknown().optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

function scrub(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[nested]';
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : scrub(v, depth + 1);
  return out;
}

/** Scrubs secrets out of a detail object and bounds its size. */
export function sanitizeDetail(detail: unknown): unknown {
  if (detail === undefined) return undefined;
  const clean = scrub(detail, 0);
  const text = JSON.stringify(clean);
  return text !== undefined && text.length > DETAIL_MAX_CHARS ? { truncated: true, chars: text.length } : clean;
}

/**
 * The audit log: who (person, token name + id), what, when, on which session. Appends are synchronous
 * single writes of one line, so concurrent acts never interleave within a line.
 */
export class AuditLog {
  readonly file: string;
  private seq = 0;
  /** Where its entries start, so a page reads only what it shows (audit-index.ts); built by the first page. */
  private index: AuditIndex | undefined;
  private readonly now: () => number;
  /** Bound `record`, ready to pass as the domain's `AuditSink`. */
  readonly sink: AuditSink;

  constructor(
    stateDir: string,
    private readonly onError?: (err: unknown) => void,
    now?: () => number,
  ) {
    ensurePrivateDir(stateDir);
    this.file = path.join(stateDir, AUDIT_FILE);
    this.now = now ?? Date.now;
    // Never through a link, a FIFO or a directory under its name: a security record is refused, not guessed at.
    const fd = openRegularFile(this.file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, { mode: 0o600 });
    try {
      // A crash mid-append leaves a torn last line; the next entry starts on a line of its own,
      // or it would be glued to the fragment and skipped with it. The fragment stays: nothing is cut from an audit log.
      const size = fs.fstatSync(fd).size;
      const last = Buffer.alloc(1);
      if (size > 0 && fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) fs.writeSync(fd, '\n');
      this.seq = lastSeq(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(this.file, 0o600);
    this.sink = (entry) => this.record(entry);
  }

  /** Appends one entry; failures go to `onError`, never to the caller. */
  record(input: AuditInput): void {
    try {
      const entry: AuditEntry = {
        seq: this.seq + 1,
        at: this.now(),
        who: {
          tokenId: input.identity.tokenId,
          name: input.identity.name,
          person: input.identity.person,
          ...(input.client === undefined ? {} : { client: input.client }),
          scope: input.identity.scope,
        },
        action: input.action,
        ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
        ...(input.detail === undefined ? {} : { detail: sanitizeDetail(input.detail) }),
      };
      const fd = openRegularFile(this.file, OWN_FILE_FLAGS.append, { mode: 0o600 });
      try {
        const offset = fs.fstatSync(fd).size;
        writeAll(fd, Buffer.from(`${JSON.stringify(entry)}\n`));
        this.index?.note(entry.seq, offset);
      } finally {
        fs.closeSync(fd);
      }
      this.seq = entry.seq;
    } catch (err) {
      this.onError?.(err);
    }
  }

  /** A page of entries with `seq > after`, oldest first; `next` is the cursor of the following page. */
  page(after: number, limit: number): { entries: AuditEntry[]; next?: number } {
    let fd: number;
    try {
      fd = openRegularFile(this.file, fs.constants.O_RDONLY);
    } catch (err) {
      // Removed under the running hub: nothing to show until the next entry creates it again.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [] };
      throw err;
    }
    let found: AuditEntry[];
    try {
      // Once, at the first page an admin asks for, not at every start: the log only grows.
      this.index ??= AuditIndex.build(fd);
      // One more than the page: whether another page follows.
      found = entriesFrom(fd, this.index.startFor(after), after, limit + 1);
    } finally {
      fs.closeSync(fd);
    }
    const entries = found.slice(0, limit);
    const last = entries.at(-1);
    return found.length > limit && last ? { entries, next: last.seq } : { entries };
  }
}

/** Bytes read from the end at first when looking for the last entry; doubled until one is found. */
const TAIL_BYTES = 64 * 1024;

/**
 * The seq of the log's last well-formed entry (a torn line is no entry), 0 when it has none: read
 * from the end, a window doubling until it holds one, so a start does not read the whole log.
 */
function lastSeq(fd: number): number {
  const size = fs.fstatSync(fd).size;
  for (let window = TAIL_BYTES; ; window *= 2) {
    const from = lineStartAtOrAfter(fd, Math.max(0, size - window));
    const seq = entriesFrom(fd, from, 0, Number.POSITIVE_INFINITY).at(-1)?.seq;
    if (seq !== undefined) return seq;
    if (size - window <= 0) return 0;
  }
}

/**
 * The first line start at or after `offset`, so a window never begins with the end of a line
 * (which a detail could make read as an entry); past the window's first 64 KiB, the window is empty.
 */
function lineStartAtOrAfter(fd: number, offset: number): number {
  if (offset === 0) return 0;
  const head = Buffer.allocUnsafe(TAIL_BYTES);
  const read = fs.readSync(fd, head, 0, TAIL_BYTES, offset - 1);
  const newline = head.subarray(0, read).indexOf(0x0a);
  // The newline that ends the line before `offset` (at `offset - 1` when `offset` starts a line).
  return newline === -1 ? offset - 1 + read : offset + newline;
}

/**
 * The well-formed entries with seq > `after` from byte `offset` on, in file order, until `max`
 * are found (a torn or unreadable line is skipped).
 */
function entriesFrom(fd: number, offset: number, after: number, max: number): AuditEntry[] {
  const out: AuditEntry[] = [];
  forEachLine(fd, offset, (line) => {
    try {
      const parsed = auditEntrySchema.safeParse(JSON.parse(line));
      if (parsed.success && parsed.data.seq > after) out.push(parsed.data);
    } catch {
      // A torn line from a crash mid-append; the rest of the log stands.
    }
    return out.length < max;
  });
  return out;
}
