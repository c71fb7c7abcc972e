/**
 * Background tasks' kept output on disk (task-outputs.ts), so a hub restart does not lose what
 * late joiners and reloads are shown. One file per session,
 * `<state-dir>/task-outputs/<idFileName(sessionId)>.json` (fs/id-file-name.ts, mode 0600):
 * `{version: 1, sessionId, tasks}`, the session's kept tasks, replaced whole and atomically
 * (temp file, rename). Output streams in many small chunks, so a change only marks its session:
 * the files of marked sessions are written at most every `taskOutputFlushMs`, asynchronously, at
 * most one write per file in flight (later changes wait for the next interval). Read back once per session when the hub first learns it; removed with
 * the session. A file an earlier version left under its old name (`base64url(sessionId)`, no id
 * inside) is moved to the current name at start, its id written into it; a current file of the
 * same session wins over it.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { idFileName, isIdFileName, legacyIdOf } from '../../fs/id-file-name.js';
import { ensurePrivateDir, readFileIfExists, regularFileSize, tempFileOf, writeFileAtomic } from '../../fs/secure-file.js';
import type { Logger } from '../../logger.js';
import type { KeptTask, TaskOutputs } from './task-outputs.js';

/** What a session keeps (task-outputs.ts), as this store reads and restores it. */
type KeptOutputs = Pick<TaskOutputs, 'snapshot' | 'restore'>;

export interface TaskOutputFileLimits {
  /** Characters kept per task: a file cannot hold more than `maxTasks` times this (times 6, JSON escapes). */
  maxChars: number;
  maxTasks: number;
  flushMs: number;
}

const keptSchema = z.object({
  toolCallId: z.string(),
  output: z.string(),
  trimmed: z.boolean(),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed']).optional(),
  task: z.record(z.string(), z.unknown()),
});
const fileSchema = z.object({ version: z.literal(1), sessionId: z.string().optional(), tasks: z.array(z.unknown()) });

const EXT = '.json';

/** Room per file beyond the output itself (ids, statuses, task facts). */
const OVERHEAD_BYTES = 64 * 1024;

/** The state-dir files of kept task output, written in batches. */
export class TaskOutputFiles {
  /** Sessions changed since their last write, with what they keep. */
  private readonly dirty = new Map<string, Pick<KeptOutputs, 'snapshot'>>();
  /** Per-file chain of writes, so a write and a later removal happen in order. */
  private readonly chains = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly limits: TaskOutputFileLimits,
    private readonly logger: Logger,
  ) {
    // Temp files of a run that died mid-write are swept at start (fs/stale-temp-files.ts).
    ensurePrivateDir(dir);
    for (const name of fs.readdirSync(dir)) {
      const sessionId = legacyIdOf(name, EXT);
      if (sessionId !== undefined) this.moveLegacy(path.join(dir, name), sessionId);
    }
  }

  /**
   * An earlier version's file (named `base64url(sessionId)`) under the current name with its id
   * inside; dropped when a current file of the session exists or it is over the bound, left as
   * it is when unreadable.
   */
  private moveLegacy(file: string, sessionId: string): void {
    const target = this.fileOf(sessionId);
    try {
      const size = regularFileSize(file);
      if (size === undefined) return;
      if (fs.existsSync(target) || size > this.maxBytes()) {
        fs.rmSync(file, { force: true });
        return;
      }
      const parsed = fileSchema.parse(JSON.parse(readFileIfExists(file) ?? ''));
      writeFileAtomic(target, JSON.stringify({ ...parsed, sessionId }));
      fs.rmSync(file, { force: true });
      this.logger.info({ from: file, to: target }, 'a task output file was moved to its current name');
    } catch (err) {
      this.logger.warn({ err, file }, 'a task output file of an earlier version could not be moved; left as it is');
    }
  }

  /** Gives `outputs` (a session the hub just learnt) what a previous run kept for it; rewritten, as restoring ends running tasks. */
  restore(sessionId: string, outputs: KeptOutputs): void {
    const kept = this.load(sessionId);
    if (kept.length === 0) return;
    outputs.restore(kept);
    this.changed(sessionId, outputs);
  }

  /** The tasks a previous run kept for `sessionId`: none when absent, unreadable (left as it is) or too big (removed). */
  load(sessionId: string): KeptTask[] {
    const file = this.fileOf(sessionId);
    try {
      // Only a regular file is read or removed: a link under its name is not followed, a FIFO not opened.
      const size = regularFileSize(file);
      if (size === undefined) return [];
      if (size > this.maxBytes()) {
        fs.rmSync(file, { force: true });
        this.logger.warn({ file, size }, 'a task output file over its bound was removed');
        return [];
      }
      const text = readFileIfExists(file);
      if (text === undefined) return [];
      const parsed = fileSchema.parse(JSON.parse(text));
      if (parsed.sessionId !== sessionId) return [];
      const tasks: KeptTask[] = [];
      for (const raw of parsed.tasks.slice(-this.limits.maxTasks)) {
        const t = keptSchema.safeParse(raw);
        if (t.success) tasks.push({ ...t.data, status: t.data.status });
      }
      return tasks;
    } catch (err) {
      this.logger.warn({ err, file }, 'an unreadable task output file was skipped');
      return [];
    }
  }

  /** `sessionId`'s kept output changed: written at the next flush, as `outputs` holds it then. */
  changed(sessionId: string, outputs: Pick<KeptOutputs, 'snapshot'>): void {
    if (this.closed) return;
    this.dirty.set(sessionId, outputs);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.limits.flushMs);
    this.timer.unref?.();
  }

  /** The session was deleted: its file goes (after any write in flight), and no later write brings it back. */
  drop(sessionId: string): void {
    this.dirty.delete(sessionId);
    const file = this.fileOf(sessionId);
    this.enqueue(file, () => fsp.rm(file, { force: true }));
  }

  /**
   * The sessions that have a file: the id inside each, when it gives the file's name back (any
   * other file is not ours, and one that does not read is skipped: both are left alone).
   */
  storedSessionIds(): string[] {
    const ids: string[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!isIdFileName(name, EXT)) continue;
      const file = path.join(this.dir, name);
      try {
        if ((regularFileSize(file) ?? Infinity) > this.maxBytes()) continue;
        const id = fileSchema.parse(JSON.parse(readFileIfExists(file) ?? '')).sessionId;
        if (id !== undefined && this.fileOf(id) === file) ids.push(id);
      } catch {
        // Unreadable: `load` says so when its session is learnt.
      }
    }
    return ids;
  }

  /** Resolves once every write started so far has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }

  /** At shutdown: lets writes in flight finish, then writes what is pending; nothing is written after. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // A write in flight renamed after the last one would put older output back.
    await this.settled();
    for (const [sessionId, outputs] of this.dirty) {
      try {
        writeFileAtomic(this.fileOf(sessionId), serialize(sessionId, outputs.snapshot()));
      } catch (err) {
        this.logger.warn({ err, sessionId }, 'task output could not be written');
      }
    }
    this.dirty.clear();
  }

  /** Starts one write per changed session whose file has no write in flight; the others wait for the next interval. */
  private flush(): void {
    for (const [sessionId, outputs] of [...this.dirty]) {
      const file = this.fileOf(sessionId);
      if (this.chains.has(file)) continue;
      this.dirty.delete(sessionId);
      const text = serialize(sessionId, outputs.snapshot());
      this.enqueue(file, () => writeAtomic(file, text));
    }
    if (this.dirty.size > 0) this.schedule();
  }

  private enqueue(file: string, op: () => Promise<unknown>): void {
    const prev = this.chains.get(file) ?? Promise.resolve();
    const next = prev
      .then(op)
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err, file }, 'task output could not be written'),
      )
      .finally(() => {
        if (this.chains.get(file) === next) this.chains.delete(file);
      });
    this.chains.set(file, next);
  }

  private maxBytes(): number {
    return this.limits.maxTasks * this.limits.maxChars * 6 + OVERHEAD_BYTES;
  }

  private fileOf(sessionId: string): string {
    return path.join(this.dir, idFileName(sessionId, EXT));
  }
}

function serialize(sessionId: string, tasks: KeptTask[]): string {
  return JSON.stringify({ version: 1, sessionId, tasks });
}

/** Temp file beside the target (0600), then rename: a crash leaves the old file or the new one, never a torn one. */
async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = tempFileOf(file);
  try {
    await fsp.writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
    await fsp.rename(tmp, file);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
}
