/**
 * A keyed store's file as an append-only log of JSON lines (ARCHITECTURE.md §9.1): the store
 * notes each key it changes and each flush appends one line per noted key; a key's later line
 * overrides its earlier ones, and the file is replaced whole from the live entries only when it
 * holds more than twice as many lines as there are entries (plus {@link REWRITE_SLACK_LINES}). A change costs its own line, not the whole store:
 * the author book at its cap (20,000 entries, 4 MB) was written whole after every prompt and
 * answer, holding the event loop 32–34 ms each time (BENCHMARKS.md, twenty-third session).
 *
 * Appends are `writeSync` of the lines on a descriptor kept open (a page-cache append; no fsync:
 * a kill loses nothing written, a power loss may lose the last appends). The rewrite is
 * `writeFileAtomic` (fsync, rename, fsync of the directory); the descriptor is reopened after it.
 * A torn last line (a kill mid-append) is cut when the file is read, so the next append is not
 * glued to it; after an append that failed (a full disk) the next write replaces the file from the
 * live entries, which also holds what that append lost. A line that does not parse is skipped.
 * Only a regular file is read or appended to: anything else under the name throws
 * {@link NotRegularFileError}.
 */
import fs from 'node:fs';
import { openRegularFile, OWN_FILE_FLAGS, regularFileSize, writeAll, writeFileAtomic } from './secure-file.js';

/** Lines a log may hold beyond twice its live entries before it is rewritten (a small store is not rewritten every few changes). */
export const REWRITE_SLACK_LINES = 256;

export class EntryLog<V> {
  private fd: number | undefined;
  /** Lines in the file (whole ones), as read or written by this process. */
  private lineCount = 0;
  /** An append failed part-way (a full disk): the file may end in a torn line, so the next write replaces it. */
  private torn = false;
  /**
   * Keys changed since the last write, the last changed last: each is one line of the next append,
   * so the log's order stays the store's (what a restart keeps at the store's bound).
   */
  private readonly changed = new Set<string>();

  /** `lineOf`: the JSON line of an entry (its key and value, as the store reads them back). */
  constructor(
    readonly file: string,
    private readonly lineOf: (key: string, value: V) => unknown,
  ) {}

  /** Lines in the file now. */
  get lines(): number {
    return this.lineCount;
  }

  /**
   * The file's lines, parsed, oldest first; undefined when there is no file. A line that does not
   * parse is skipped; a torn last line is cut off the file.
   */
  read(): unknown[] | undefined {
    let fd: number;
    try {
      fd = openRegularFile(this.file, fs.constants.O_RDWR);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let raw: Buffer;
    try {
      raw = fs.readFileSync(fd);
      const whole = raw.lastIndexOf(0x0a) + 1;
      if (whole < raw.length) fs.ftruncateSync(fd, whole);
      raw = raw.subarray(0, whole);
    } finally {
      fs.closeSync(fd);
    }
    const values: unknown[] = [];
    let lines = 0;
    for (const line of raw.toString('utf8').split('\n')) {
      if (line === '') continue;
      lines += 1;
      try {
        values.push(JSON.parse(line));
      } catch {
        // A line that is not JSON (written by hand, or by something else) is skipped, not fatal.
      }
    }
    this.lineCount = lines;
    return values;
  }

  /** `key`'s entry changed: its line goes in the next {@link flush}, after the keys changed before it. */
  note(key: string): void {
    this.changed.delete(key);
    this.changed.add(key);
  }

  /**
   * Appends the lines of the keys changed since the last write (one no longer in `entries`, evicted
   * meanwhile, has none: the store's reader keeps its newest entries), one write; or, when the
   * file would then hold more than twice `entries.size` lines plus {@link REWRITE_SLACK_LINES},
   * replaces it with `entries` instead.
   */
  flush(entries: ReadonlyMap<string, V>): void {
    if (this.changed.size === 0) return;
    const values: unknown[] = [];
    for (const key of this.changed) {
      const value = entries.get(key);
      if (value !== undefined) values.push(this.lineOf(key, value));
    }
    this.changed.clear();
    if (values.length === 0) return;
    if (this.torn || this.lineCount + values.length > 2 * entries.size + REWRITE_SLACK_LINES) {
      this.rewrite(entries);
      return;
    }
    const bytes = Buffer.from(linesOf(values));
    this.fd ??= openRegularFile(this.file, OWN_FILE_FLAGS.append, { mode: 0o600 });
    try {
      writeAll(this.fd, bytes);
    } catch (err) {
      // Part of the lines may be on disk: the next line would be glued to the fragment and lost with it.
      this.torn = true;
      throw err;
    }
    this.lineCount += values.length;
  }

  /** Replaces the file with `entries`, one line each, in their order (atomically, 0600); later appends go to the new file. */
  rewrite(entries: ReadonlyMap<string, V>): void {
    this.changed.clear();
    const values = [...entries].map(([key, value]) => this.lineOf(key, value));
    this.close();
    writeFileAtomic(this.file, linesOf(values));
    this.lineCount = values.length;
    this.torn = false;
  }

  /** Closes the file (a later append opens it again); a descriptor that cannot be closed is dropped all the same. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      fs.closeSync(fd);
    } catch {
      // Nothing is left to write through it: the file is replaced or reopened by name.
    }
  }
}

function linesOf(values: readonly unknown[]): string {
  let text = '';
  for (const v of values) text += `${JSON.stringify(v)}\n`;
  return text;
}

/**
 * Removes the whole file an earlier version kept a store in, once its log exists (a store moved
 * into its log keeps nothing there). Only a regular file goes: anything else under the old name is
 * left as it is, and `warn` hears why.
 */
export function removeLegacyFile(legacyFile: string, logFile: string, warn: (message: string) => void): void {
  try {
    if (regularFileSize(legacyFile) === undefined || regularFileSize(logFile) === undefined) return;
    fs.rmSync(legacyFile);
  } catch (err) {
    warn(`${legacyFile} (an earlier version's store, moved into ${logFile}) could not be removed: ${(err as Error).message}`);
  }
}
