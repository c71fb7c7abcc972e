/**
 * Running-turn records on disk: what the clients were sent of a session's live
 * tail (turn.ts `LiveTail` — the turn the agent has not stored yet, or one a restart cut off),
 * so that after a hub restart a joiner still gets the partial answer, then the interrupted marker.
 *
 * One file per session, `<state-dir>/turns/<idFileName(sessionId)>.ndjson` (fs/id-file-name.ts),
 * mode 0600: a header line `{"t":"open","startedAt","sessionId"}`, then the journaled frames exactly as sent, plus `{"t":"run"}` /
 * `{"t":"idle"}` lines when the turn starts or ends. Frames are buffered and appended at most every
 * `turnRecordFlushMs` (one write per interval, never one per token), by one timer for all the
 * records, so ten streaming sessions wake the hub ten times a second, not a hundred. A flush writes
 * on the event loop (`writeSync`, a page-cache append of what the interval buffered) while the
 * record's file is open and nothing of it is queued; through the thread pool, each write cost a
 * worker's wake-up, its completion's wake-up of the loop and four more system calls — a third of a
 * write per streamed event (BENCHMARKS.md, fifteenth session). The file's open, a write while it
 * opens, its close and its deletion stay queued in order, one in flight per file.
 * A record's file stays open while the record takes lines (one open and one close
 * per turn, not one of each per write: with ten sessions streaming, opening and closing the file
 * for every append was 4 % of the hub's busy time, BENCHMARKS.md tenth session). A record past
 * `turnRecordMaxBytes` is deleted: history and the marker remain. A record an earlier version
 * left under its old name (`base64url(sessionId)`) is moved to the current name at `loadAll`,
 * its id written into a new header; a current record of the same session wins over it.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import { idFileName, isIdFileName, legacyIdOf } from '../../fs/id-file-name.js';
import { ensurePrivateDir, OWN_FILE_FLAGS, regularFileSize, writeAll, writeFileAtomic } from '../../fs/secure-file.js';
import type { Logger } from '../../logger.js';

/** A record read back at start: the updates of a tail, and whether its turn was still running. */
export interface RestoredTurn {
  startedAt: number;
  updates: Array<{ update: SessionUpdate; meta: Record<string, unknown> }>;
  /** The last turn line said `run`: the hub stopped while the turn ran. */
  running: boolean;
  /** Size of the record on disk. */
  bytes: number;
}

export interface TurnRecordLimits {
  turnRecordMaxBytes: number;
  turnRecordFlushMs: number;
}

interface OpenRecord {
  file: string;
  bytes: number;
  pending: string[];
  /** Deleted (closed, or over the limit): further lines are ignored until the next open. */
  dead: boolean;
  /** The file, open for writing from the record's first write to its deletion or the hub's stop. */
  fd: number | undefined;
}

const openFile = promisify(fs.open);
const writeFile = promisify(fs.write);
const closeFile = promisify(fs.close);

const EXT = '.ndjson';

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

/** Per-session append-only records of live tails. */
export class TurnRecords {
  private readonly records = new Map<string, OpenRecord>();
  /** Per-file chain of writes, so appends and the final unlink happen in order. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Records with lines buffered since the last flush, and the one timer that flushes them all. */
  private readonly dirty = new Set<OpenRecord>();
  private tick: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly limits: TurnRecordLimits,
    private readonly logger: Logger,
  ) {
    ensurePrivateDir(dir);
  }

  /**
   * Reads every record left by the previous run (synchronously, once at start). Unreadable lines
   * are skipped, a torn last line is cut from the file; a file over the limit is deleted unread. Returned by session id.
   */
  loadAll(): Map<string, RestoredTurn> {
    const out = new Map<string, RestoredTurn>();
    for (const name of fs.readdirSync(this.dir)) {
      const legacyId = legacyIdOf(name, EXT);
      if (legacyId === undefined && !isIdFileName(name, EXT)) continue;
      const file = path.join(this.dir, name);
      try {
        // Only a regular file is read, cut or removed: a link under a record's name is not followed.
        const bytes = regularFileSize(file);
        if (bytes === undefined) continue;
        if (bytes > this.limits.turnRecordMaxBytes) {
          fs.rmSync(file, { force: true });
          continue;
        }
        // A kill or power loss mid-append can leave a torn last line. It is cut here: a resumed
        // record appends, and its first line glued to the fragment would be lost with it.
        const raw = fs.readFileSync(file);
        const whole = raw.lastIndexOf(0x0a) + 1;
        if (whole < bytes) fs.truncateSync(file, whole);
        const text = raw.subarray(0, whole).toString('utf8');
        const restored = parseRecord(text);
        if (!restored) {
          fs.rmSync(file, { force: true });
          continue;
        }
        if (legacyId !== undefined) {
          const moved = this.moveLegacy(file, legacyId, restored.startedAt, text);
          if (moved !== undefined) out.set(legacyId, { ...restored, bytes: moved });
          continue;
        }
        const { sessionId, ...turn } = restored;
        // The id inside must give the name back: anything else is not a record of ours.
        if (sessionId === undefined || this.fileOf(sessionId) !== file) continue;
        out.set(sessionId, { ...turn, bytes: whole });
      } catch (err) {
        this.logger.warn({ err, file }, 'an unreadable turn record was skipped');
      }
    }
    return out;
  }

  /**
   * An earlier version's record (named `base64url(sessionId)`) under the current name, with a
   * header carrying its id; its size there, or undefined when a current record of the session
   * exists (the old one is dropped: the current one is read on its own).
   */
  private moveLegacy(file: string, sessionId: string, startedAt: number, text: string): number | undefined {
    const target = this.fileOf(sessionId);
    if (!fs.existsSync(target)) {
      const moved = `${JSON.stringify({ t: 'open', startedAt, sessionId })}\n${text}`;
      writeFileAtomic(target, moved);
      fs.rmSync(file, { force: true });
      this.logger.info({ from: file, to: target }, 'a turn record was moved to its current name');
      return Buffer.byteLength(moved);
    }
    fs.rmSync(file, { force: true });
    return undefined;
  }

  /** A live tail opened at `startedAt`: a new record (an existing restored one is continued instead). */
  open(sessionId: string, startedAt: number): void {
    if (this.closed) return;
    const live = this.records.get(sessionId);
    if (live && !live.dead) return;
    const file = this.fileOf(sessionId);
    const record: OpenRecord = { file, bytes: 0, pending: [], dead: false, fd: undefined };
    this.records.set(sessionId, record);
    // A fresh file: whatever an earlier (closed) record left is replaced.
    this.enqueue(file, () => this.openFd(record, 'w'));
    const header = JSON.stringify({ t: 'open', startedAt, sessionId });
    this.line(sessionId, header, Buffer.byteLength(header));
  }

  /** Continues a record restored at start (its `bytes` are already on disk). */
  resume(sessionId: string, bytes: number): void {
    if (this.closed) return;
    const record: OpenRecord = { file: this.fileOf(sessionId), bytes, pending: [], dead: false, fd: undefined };
    this.records.set(sessionId, record);
    this.enqueue(record.file, () => this.openFd(record, 'a'));
  }

  /** True while `sessionId` has a record taking lines. */
  recording(sessionId: string): boolean {
    const r = this.records.get(sessionId);
    return r !== undefined && !r.dead;
  }

  /** A journaled frame of the tail: its serialized text (one line) and UTF-8 length. */
  frame(sessionId: string, text: string, bytes: number): void {
    this.line(sessionId, text, bytes);
  }

  /** The tail's turn started (`run`) or ended (`idle`). */
  turn(sessionId: string, state: 'run' | 'idle'): void {
    this.line(sessionId, state === 'run' ? '{"t":"run"}' : '{"t":"idle"}');
  }

  /** The tail closed (history has it now, or the journal no longer does): the record is deleted. */
  drop(sessionId: string): void {
    const r = this.records.get(sessionId);
    if (!r) return;
    this.records.delete(sessionId);
    this.kill(r);
  }

  /** The session was deleted: its record goes, open or only left on disk by the previous run. */
  forget(sessionId: string): void {
    if (this.records.has(sessionId)) {
      this.drop(sessionId);
      return;
    }
    const file = this.fileOf(sessionId);
    this.enqueue(file, () => fsp.rm(file, { force: true }));
  }

  /**
   * Takes no more lines, lets the writes already queued finish (a batch a flush handed over is
   * on disk, not dropped by closing its file under it), writes what is still buffered and closes
   * the files.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.tick) clearTimeout(this.tick);
    this.tick = undefined;
    this.dirty.clear();
    await this.settled();
    for (const r of this.records.values()) {
      if (!r.dead && r.pending.length > 0) {
        try {
          // A record whose file did not open appends by name, never through a link planted there.
          r.fd ??= fs.openSync(r.file, OWN_FILE_FLAGS.append, 0o600);
          writeAll(r.fd, encodeLines(r.pending));
        } catch (err) {
          this.logger.warn({ err }, 'a turn record could not be written at shutdown');
        }
      }
      r.pending = [];
      this.closeFdSync(r);
    }
    this.records.clear();
  }

  /** Writes still in flight (tests wait on it). */
  async settled(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }

  /** `bytes`: the text's UTF-8 length (control lines are ASCII). */
  private line(sessionId: string, text: string, bytes = text.length): void {
    const r = this.records.get(sessionId);
    if (!r || r.dead || this.closed) return;
    r.bytes += bytes + 1;
    if (r.bytes > this.limits.turnRecordMaxBytes) {
      this.logger.info(
        { sessionId, limit: this.limits.turnRecordMaxBytes },
        'turn record over its limit; deleted (history and the interrupted marker remain after a restart)',
      );
      this.kill(r);
      return;
    }
    // The frame's own string: joined once per flush, never copied per update.
    r.pending.push(text);
    this.dirty.add(r);
    if (this.tick === undefined) {
      this.tick = setTimeout(this.flushAll, this.limits.turnRecordFlushMs);
      this.tick.unref?.();
    }
  }

  private readonly flushAll = (): void => {
    this.tick = undefined;
    for (const r of this.dirty) this.flush(r);
    this.dirty.clear();
  };

  private flush(r: OpenRecord): void {
    if (r.dead || r.pending.length === 0) return;
    const data = encodeLines(r.pending);
    r.pending = [];
    if (r.fd === undefined || this.chains.has(r.file)) {
      this.enqueue(r.file, () => this.append(r, data));
      return;
    }
    try {
      writeAll(r.fd, data);
    } catch (err) {
      this.logger.warn({ err }, 'a turn record could not be written');
    }
  }

  /** Opens the record's file (`w`: a fresh record, `a`: one restored at start); one deleted meanwhile is closed again. */
  private async openFd(r: OpenRecord, flags: 'w' | 'a'): Promise<void> {
    const fd = await openFile(r.file, flags === 'w' ? OWN_FILE_FLAGS.write : OWN_FILE_FLAGS.append, 0o600);
    r.fd = fd;
    // A stopping hub closes it itself, once the writes queued behind this open are done.
    if (r.dead) this.closeFdSync(r);
  }

  /** Appends `data` whole (a write may take part of it); a record whose file did not open appends by name. */
  private async append(r: OpenRecord, data: Buffer): Promise<void> {
    if (r.fd === undefined) {
      if (!r.dead) await fsp.appendFile(r.file, data, { mode: 0o600, flag: OWN_FILE_FLAGS.append });
      return;
    }
    for (let at = 0; at < data.length; ) {
      const fd: number | undefined = r.fd;
      if (fd === undefined) return;
      const { bytesWritten } = await writeFile(fd, data, at, data.length - at, null);
      at += bytesWritten;
    }
  }

  private closeFdSync(r: OpenRecord): void {
    if (r.fd === undefined) return;
    const fd = r.fd;
    r.fd = undefined;
    try {
      fs.closeSync(fd);
    } catch (err) {
      this.logger.warn({ err }, 'a turn record file could not be closed');
    }
  }

  private kill(r: OpenRecord): void {
    r.dead = true;
    this.dirty.delete(r);
    r.pending = [];
    this.enqueue(r.file, async () => {
      const fd = r.fd;
      r.fd = undefined;
      if (fd !== undefined) await closeFile(fd);
      await fsp.rm(r.file, { force: true });
    });
  }

  private enqueue(file: string, write: () => Promise<unknown>): void {
    const next = (this.chains.get(file) ?? Promise.resolve()).then(write).then(
      () => undefined,
      (err: unknown) => this.logger.warn({ err }, 'a turn record could not be written'),
    );
    this.chains.set(file, next);
    void next.then(() => {
      if (this.chains.get(file) === next) this.chains.delete(file);
    });
  }

  private fileOf(sessionId: string): string {
    return path.join(this.dir, idFileName(sessionId, EXT));
  }
}

/**
 * Pending lines as the bytes to append, each followed by a newline: written straight into one
 * buffer outside the JS heap. Joining them into one string first and encoding that cost about
 * 1 KB of heap per streamed event (BENCHMARKS.md, tenth session); handing the frames' own
 * encodings to the record instead kept each alive until the flush, past a scavenge or two.
 */
function encodeLines(lines: readonly string[]): Buffer {
  let size = 0;
  for (const line of lines) size += Buffer.byteLength(line, 'utf8') + 1;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const line of lines) {
    at += out.write(line, at, 'utf8');
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
