/**
 * A versioned list file in the state directory: `{"version": n, "<key>": [entries]}`,
 * pretty-printed with two spaces and a final newline, written with mode 0600 and atomically
 * (`writeFileAtomic`: a crash leaves the old list or the new one, never a torn file).
 *
 * The peers, the added public URLs and the machines are each one such file; their rules
 * (limits, flags, per-device lists) stay with them, the reading and writing is here once.
 * A file that does not parse is reported and read as empty, so a hand edit gone wrong never
 * stops the hub from starting; an entry that parses but no longer normalises is dropped alone.
 */
import { z } from 'zod';
import { readFileIfExists, writeFileAtomic } from './secure-file.js';

export interface ListFileFormat<T> {
  /** The array's key in the file (`peers`, `urls`, `machines`). */
  key: string;
  /** The version written; `versions` must read it. */
  version: number;
  /**
   * One entry schema per version this file has had, each yielding today's entry: an older
   * one upgrades with a `.transform`. A file of any other version is unreadable.
   */
  versions: Readonly<Record<number, z.ZodType<T>>>;
  /** Applied to each entry read; throwing drops that entry (e.g. an origin that no longer parses). */
  normalise?: (entry: T) => T;
}

export class ListFile<T> {
  private readonly schema: z.ZodType<{ entries: T[] }>;

  /** `file` undefined = nothing is read or written (an in-memory list). */
  constructor(
    readonly file: string | undefined,
    private readonly format: ListFileFormat<T>,
  ) {
    const versions = Object.entries(format.versions).map(([v, entry]) =>
      z.object({ version: z.literal(Number(v)), [format.key]: z.array(entry) }),
    );
    if (!(format.version in format.versions)) throw new Error(`ListFile ${format.key}: version ${format.version} has no schema`);
    const [first, ...rest] = versions;
    const doc = rest.length === 0 ? first! : z.union([first!, ...rest]);
    this.schema = doc.transform((d) => ({ entries: (d as Record<string, unknown>)[format.key] as T[] }));
  }

  /**
   * The entries on disk, oldest first: [] when there is no file; [] and `onBadFile` when it is
   * not JSON or not of a known version. A read error other than "missing" is thrown.
   */
  read(onBadFile: (message: string) => void = () => undefined): T[] {
    const text = this.file ? readFileIfExists(this.file) : undefined;
    if (text === undefined) return [];
    let entries: T[];
    try {
      entries = this.schema.parse(JSON.parse(text)).entries;
    } catch (err) {
      onBadFile(`ignoring unreadable ${this.file}: ${(err as Error).message}`);
      return [];
    }
    const normalise = this.format.normalise;
    if (!normalise) return entries;
    return entries.flatMap((e) => {
      try {
        return [normalise(e)];
      } catch {
        return [];
      }
    });
  }

  /** Replaces the file's entries (atomic, 0600); nothing happens without a file. */
  write(entries: readonly T[]): void {
    if (!this.file) return;
    writeFileAtomic(this.file, `${JSON.stringify({ version: this.format.version, [this.format.key]: entries }, null, 2)}\n`);
  }
}
