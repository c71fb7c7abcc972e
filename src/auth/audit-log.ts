import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, openRegularFile, OWN_FILE_FLAGS, writeAll } from '../fs/secure-file.js';
import { AuditIndex, forEachLine } from './audit-index.js';
import { SCOPES, type Identity } from './identity.js';
import { LIMITS } from '../limits.js';

/** File name of the audit log in the state dir: append-only JSONL, mode 0600 (ARCHITECTURE.md §7). */
export const AUDIT_FILE = 'audit.jsonl';
/** Where the log goes when it passes its bound (`LIMITS.auditLogMaxBytes`), replacing the one there before. */
export const AUDIT_ROTATED_FILE = `${AUDIT_FILE}.1`;

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

/** One file of the log, and where its entries start once a page has needed that. */
interface Part {
  file: string;
  index: AuditIndex | undefined;
  /** The file the index was built from: a rotation by another writer (the token CLI) gives the name a new one. */
  ino: number | undefined;
}

export interface AuditLogOptions {
  onError?: (err: unknown) => void;
  now?: () => number;
  /** `LIMITS.auditLogMaxBytes`: past it the log moves to {@link AUDIT_ROTATED_FILE} and starts afresh. */
  maxBytes?: number;
  /** After a rotation: the last seq now only in the older file (the next rotation drops them). */
  onRotate?: (lastSeq: number) => void;
}

/**
 * The audit log: who (person, token name + id), what, when, on which session. Appends are synchronous
 * single writes of one line, so concurrent acts never interleave within a line. Bounded on disk: a
 * log that would pass `maxBytes` becomes {@link AUDIT_ROTATED_FILE} (replacing the older one) and a
 * new log starts, its seqs continuing; pages read both, so at most about twice the bound is kept
 * and the oldest entries go first.
 */
export class AuditLog {
  readonly file: string;
  readonly rotatedFile: string;
  private seq = 0;
  /** The log's size after this log's last append (or at start): another size means another writer appended. */
  private written = 0;
  private current: Part;
  private older: Part;
  /** The last seq in the older file (0: none): a page past it does not open the file. */
  private olderLast = 0;
  private readonly now: () => number;
  private readonly maxBytes: number;
  /** Bound `record`, ready to pass as the domain's `AuditSink`. */
  readonly sink: AuditSink;

  constructor(
    stateDir: string,
    private readonly opts: AuditLogOptions = {},
  ) {
    ensurePrivateDir(stateDir);
    this.file = path.join(stateDir, AUDIT_FILE);
    this.rotatedFile = path.join(stateDir, AUDIT_ROTATED_FILE);
    this.current = { file: this.file, index: undefined, ino: undefined };
    this.older = { file: this.rotatedFile, index: undefined, ino: undefined };
    this.now = opts.now ?? Date.now;
    this.maxBytes = opts.maxBytes ?? LIMITS.auditLogMaxBytes;
    // Never through a link, a FIFO or a directory under its name: a security record is refused, not guessed at.
    const fd = openRegularFile(this.file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, { mode: 0o600 });
    try {
      // A crash mid-append leaves a torn last line; the next entry starts on a line of its own,
      // or it would be glued to the fragment and skipped with it. The fragment stays: nothing is cut from an audit log.
      const size = fs.fstatSync(fd).size;
      const last = Buffer.alloc(1);
      if (size > 0 && fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) fs.writeSync(fd, '\n');
      ({ ino: this.current.ino, size: this.written } = fs.fstatSync(fd));
      this.seq = lastSeq(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(this.file, 0o600);
    this.olderLast = this.lastOfOlder();
    // Just rotated: the seqs go on from the older file's.
    if (this.seq === 0) this.seq = this.olderLast;
    this.sink = (entry) => this.record(entry);
  }

  /** Appends one entry; failures go to `onError`, never to the caller. */
  record(input: AuditInput): void {
    try {
      const st = fs.lstatSync(this.file, { throwIfNoEntry: false });
      this.catchUp(st);
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
      const line = Buffer.from(`${JSON.stringify(entry)}\n`);
      this.rotateIfFull(st?.size ?? 0, line.length);
      const fd = openRegularFile(this.file, OWN_FILE_FLAGS.append, { mode: 0o600 });
      try {
        const { size: offset, ino } = fs.fstatSync(fd);
        this.current.ino ??= ino;
        writeAll(fd, line);
        this.written = offset + line.length;
        this.current.index?.note(entry.seq, offset);
      } finally {
        fs.closeSync(fd);
      }
      this.seq = entry.seq;
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  /**
   * Another writer (the token CLI) appended or rotated since this log's last append: the seqs go
   * on from the last one written, so no two entries share one.
   */
  private catchUp(st: fs.Stats | undefined): void {
    if (st === undefined || (st.ino === this.current.ino && st.size === this.written)) return;
    this.noticeRotation();
    let last = 0;
    try {
      const fd = openRegularFile(this.file, fs.constants.O_RDONLY);
      try {
        last = lastSeq(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // Not a regular file: the append refuses it and says so.
    }
    this.seq = Math.max(this.seq, last, this.olderLast);
  }

  /**
   * Moves a log of `size` bytes that `bytes` more would take past the bound to the rotated name (a
   * rename: the older file there goes, whatever it was) so the next append starts a new one. A log
   * of one entry is never rotated, however large: every file holds at least one. A rename that
   * fails is told and the entry still appended: an act is never lost to the bound.
   */
  private rotateIfFull(size: number, bytes: number): void {
    if (size === 0 || size + bytes <= this.maxBytes) return;
    try {
      fs.renameSync(this.file, this.rotatedFile);
    } catch (err) {
      this.opts.onError?.(err);
      return;
    }
    // The same file under its new name: its index and inode go with it.
    this.older = { ...this.current, file: this.rotatedFile };
    this.olderLast = this.seq;
    this.current = { file: this.file, index: this.current.index ? new AuditIndex() : undefined, ino: undefined };
    this.opts.onRotate?.(this.seq);
  }

  /**
   * Another writer (the token CLI, with the same bound) may have rotated the log: its name then
   * holds a file this log has not indexed, and the older name the file it had. Both are read afresh.
   */
  private noticeRotation(): void {
    const ino = fs.lstatSync(this.file, { throwIfNoEntry: false })?.ino;
    if (ino === undefined || this.current.ino === undefined || ino === this.current.ino) return;
    this.current = { file: this.file, index: undefined, ino };
    this.older = { file: this.rotatedFile, index: undefined, ino: undefined };
    this.olderLast = this.lastOfOlder();
  }

  /** The older file's last seq, 0 when there is none (or it is no regular file). */
  private lastOfOlder(): number {
    try {
      const fd = openRegularFile(this.rotatedFile, fs.constants.O_RDONLY);
      try {
        return lastSeq(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return 0;
    }
  }

  /** A page of entries with `seq > after`, oldest first; `next` is the cursor of the following page. */
  page(after: number, limit: number): { entries: AuditEntry[]; next?: number } {
    this.noticeRotation();
    // One more than the page: whether another page follows.
    const found = after < this.olderLast ? this.readPart(this.older, after, limit + 1) : [];
    if (found.length <= limit) found.push(...this.readPart(this.current, after, limit + 1 - found.length));
    const entries = found.slice(0, limit);
    const last = entries.at(-1);
    return found.length > limit && last ? { entries, next: last.seq } : { entries };
  }

  /** Up to `max` entries of one file with seq > `after`, read from its index's start point. */
  private readPart(part: Part, after: number, max: number): AuditEntry[] {
    let fd: number;
    try {
      fd = openRegularFile(part.file, fs.constants.O_RDONLY);
    } catch (err) {
      // Removed under the running hub: nothing to show until the next entry creates it again.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    try {
      const { ino } = fs.fstatSync(fd);
      if (ino !== part.ino) part.index = undefined;
      part.ino = ino;
      // Once, at the first page an admin asks for, not at every start: the log only grows.
      part.index ??= AuditIndex.build(fd);
      return entriesFrom(fd, part.index.startFor(after), after, max);
    } finally {
      fs.closeSync(fd);
    }
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
