/**
 * What the hub remembers about sessions that the app-server does not keep:
 * the archive flag set from a client, a preview of the last message, and the last context usage
 * (`usage_update`: a replay after a hub restart ends with it, so the context meter is not empty
 * until the next turn). The app-server has an
 * `archivedAt` field (APP-SERVER.md §3.5) but no command to set it, so the hub's own flag is
 * kept in `<state-dir>/session-marks.ndjson` (0600, an append-only log: fs/entry-log.ts, one line
 * per changed mark) and overrides the app's. Bounded by `LIMITS.sessionMarksMax`: past it the
 * marks touched longest ago go first. Marks an earlier version kept whole in `session-marks.json`
 * are read once and moved into the log.
 */
import path from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import { EntryLog, removeLegacyFile } from '../../fs/entry-log.js';
import { NotRegularFileError, readFileIfExists } from '../../fs/secure-file.js';

/** The last message of a session as a list shows it. */
export interface SessionPreview {
  role: 'user' | 'agent';
  text: string;
}

const markSchema = z.object({
  archived: z.boolean().optional(),
  preview: z.object({ role: z.enum(['user', 'agent']), text: z.string().max(4096) }).optional(),
  /** The last `usage_update` sent (its `_meta` dropped when it would make it larger than `USAGE_MAX_CHARS`). */
  usage: z.looseObject({ sessionUpdate: z.literal('usage_update'), used: z.number(), size: z.number() }).optional(),
  /** When this mark last changed (ms): the eviction order. */
  at: z.number(),
});
type Mark = z.infer<typeof markSchema>;
const sessionIdSchema = z.string().max(256);
/** A line of the log: a session's mark as last changed. */
const lineSchema = z.object({ s: sessionIdSchema, m: markSchema });
/** An earlier version's whole file. */
const legacyFileSchema = z.object({ marks: z.record(sessionIdSchema, markSchema) });

/** A kept usage is a few numbers; one whose `_meta` grew past this is kept without it. */
const USAGE_MAX_CHARS = 4096;

/** A block that ends a sentence or a clause: the next one can follow it after a plain space. */
const ENDS_CLAUSE = /[.!?:;,…。！？：；，]$/;
/** A line that starts a Markdown block of its own: a heading, quote, list item or code fence. */
const BLOCK_START = /^\s{0,3}(#{1,6}\s|>|[-*+]\s|\d+[.)]\s|```)/;
const HEADING = /^\s{0,3}#{1,6}\s/;

/**
 * Plain text for a one-line preview: Markdown's markers dropped (headings, bullets, emphasis,
 * code fences, link targets), its blocks joined — with " · " after one that ends without
 * punctuation (a heading, a list item), so "## Answer" and the paragraph under it do not read as
 * one sentence; lines inside a paragraph run on — runs of spaces folded, cut to `max` with an
 * ellipsis.
 */
export function previewText(text: string, max: number): string {
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = (): void => {
    if (current.length > 0) blocks.push(current.join(' '));
    current = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '' || BLOCK_START.test(line)) flush();
    if (/^\s{0,3}```/.test(line)) continue;
    if (line.trim() !== '') current.push(line);
    if (HEADING.test(line)) flush();
  }
  flush();
  const plain = blocks
    .map((b) =>
      b
        .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/, '')
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/\*\*|__|[*`~]/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((b) => b !== '');
  const flat = plain.reduce((out, b) => (out === '' ? b : `${out}${ENDS_CLAUSE.test(out) ? ' ' : ' · '}${b}`), '');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Archive flags and last-message previews by session id. */
export class SessionMarks {
  private readonly marks = new Map<string, Mark>();
  private log: EntryLog<Mark> | undefined;

  constructor(
    stateDir: string | undefined,
    private readonly limits: { max: number; previewChars: number },
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    if (stateDir === undefined) return;
    const file = path.join(stateDir, 'session-marks.ndjson');
    this.log = new EntryLog<Mark>(file, (s, m) => ({ s, m }));
    const legacy = path.join(stateDir, 'session-marks.json');
    // Oldest first: a session written again moves to the end, so the map's order is the eviction order.
    const { marks, moved } = this.read(legacy);
    for (const [id, mark] of marks) {
      this.marks.delete(id);
      this.marks.set(id, mark);
    }
    this.trim();
    if (moved) this.moveLegacy(legacy);
    removeLegacyFile(legacy, file, warn);
  }

  /** The log's marks, oldest first; with no log yet, an earlier version's whole file's (`moved`: to be written into a new log). */
  private read(legacy: string): { marks: Array<[string, Mark]>; moved: boolean } {
    const log = this.log;
    if (log === undefined) return { marks: [], moved: false };
    let lines: unknown[] | undefined;
    try {
      lines = log.read();
    } catch (err) {
      if (!(err instanceof NotRegularFileError)) throw err;
      // Marks are a cache: the hub runs without them, kept in memory only, and leaves the thing alone.
      this.warn(`${err.message}; session marks are kept in memory only`);
      this.log = undefined;
      return { marks: [], moved: false };
    }
    if (lines === undefined) {
      const marks = this.readLegacy(legacy);
      return { marks, moved: marks.length > 0 };
    }
    const marks = lines.flatMap((raw) => {
      const line = lineSchema.safeParse(raw);
      return line.success ? [[line.data.s, line.data.m] as [string, Mark]] : [];
    });
    return { marks, moved: false };
  }

  /** Writes the marks read from an earlier version's whole file into the new log (the old file goes once the log exists). */
  private moveLegacy(legacy: string): void {
    try {
      this.log?.rewrite(this.marks);
    } catch (err) {
      this.warn(`the session marks of ${legacy} could not be moved into ${this.log?.file}: ${(err as Error).message}`);
    }
  }

  /** An earlier version's whole-file marks, oldest first; none when it is missing, unreadable or not a regular file. */
  private readLegacy(file: string): Array<[string, Mark]> {
    try {
      const text = readFileIfExists(file);
      const parsed = text === undefined ? undefined : legacyFileSchema.safeParse(JSON.parse(text));
      return parsed?.success ? Object.entries(parsed.data.marks).sort((a, b) => a[1].at - b[1].at) : [];
    } catch (err) {
      if (err instanceof NotRegularFileError) this.warn(`${err.message}; the marks an earlier version kept there are not read`);
      return [];
    }
  }

  /** Explicit archive flag, if a client ever set one. */
  archived(sessionId: string): boolean | undefined {
    return this.marks.get(sessionId)?.archived;
  }

  /** The last message seen, if any. */
  preview(sessionId: string): SessionPreview | undefined {
    return this.marks.get(sessionId)?.preview;
  }

  /** Sets the archive flag and writes the file now. */
  setArchived(sessionId: string, archived: boolean, now = Date.now()): void {
    this.put(sessionId, { ...this.marks.get(sessionId), archived, at: now });
    this.flush();
  }

  /** Records the last message (kept in memory; `flush()` writes it, e.g. at the end of a turn). */
  notePreview(sessionId: string, role: SessionPreview['role'], text: string, now = Date.now()): boolean {
    const cut = previewText(text, this.limits.previewChars);
    if (cut === '') return false;
    const prev = this.marks.get(sessionId);
    if (prev?.preview?.role === role && prev.preview.text === cut) return false;
    this.put(sessionId, { ...prev, preview: { role, text: cut }, at: now });
    return true;
  }

  /** The last context usage sent, if one was. */
  usage(sessionId: string): SessionUpdate | undefined {
    return this.marks.get(sessionId)?.usage as SessionUpdate | undefined;
  }

  /** Records the last `usage_update` (kept in memory; written with the turn's end, as the preview). */
  noteUsage(sessionId: string, update: SessionUpdate, now = Date.now()): void {
    if (update.sessionUpdate !== 'usage_update') return;
    const { _meta, ...bare } = update;
    const full = JSON.stringify(update).length <= USAGE_MAX_CHARS;
    const parsed = markSchema.shape.usage.safeParse(full ? update : bare);
    if (!parsed.success) return;
    this.put(sessionId, { ...this.marks.get(sessionId), usage: parsed.data, at: now });
  }

  /** Forgets deleted sessions: the file is rewritten without them at once. */
  forget(sessionIds: ReadonlySet<string>): void {
    let forgot = false;
    for (const id of sessionIds) forgot = this.marks.delete(id) || forgot;
    if (forgot) this.log?.rewrite(this.marks);
  }

  /** The sessions with a mark. */
  sessionIds(): string[] {
    return [...this.marks.keys()];
  }

  /** Appends the marks changed since the last write. */
  flush(): void {
    this.log?.flush(this.marks);
  }

  /** Closes the log's file once the hub stops (after its last {@link flush}); later changes are kept in memory only. */
  close(): void {
    this.log?.close();
    this.log = undefined;
  }

  /** Marks kept (for tests of the bound). */
  get size(): number {
    return this.marks.size;
  }

  private put(sessionId: string, mark: Mark): void {
    this.marks.delete(sessionId);
    this.marks.set(sessionId, mark);
    this.log?.note(sessionId);
    this.trim();
  }

  private trim(): void {
    while (this.marks.size > this.limits.max) {
      const oldest = this.marks.keys().next().value;
      if (oldest === undefined) break;
      this.marks.delete(oldest);
    }
  }
}
