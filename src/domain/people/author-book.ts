/**
 * Who sent each prompt and who answered each interaction, remembered for
 * replay: the agent's history knows neither. Prompts are keyed by the agent's user message id
 * (`turn.started.messageId`, APP-SERVER.md §5.5.1), answers by the tool call they were about.
 * The one other fact of a tool call the hub alone knows is kept here too, keyed the same way: that
 * a Write replaced a file that existed (`_meta.zcode.overwrites`, write-target.ts — looked up
 * when it was asked for; by the time of a replay the file has the new content, so it cannot be
 * looked up again). Bounded (`authorsMax`, oldest forgotten first) and kept in
 * `<state-dir>/authors.ndjson` (0600, an append-only log: fs/entry-log.ts), the entries changed
 * since the last write appended at most every `turnRecordFlushMs` after a change and at close, so
 * authors (person, device, token, client: src/domain/people/author.ts — or the rule or grant that
 * decided) and those marks survive a hub restart. A deleted session's entries are forgotten and
 * the file rewritten at once without them (`forgetSessions`). A book an earlier version kept whole
 * in `authors.json` is read once and moved into the log.
 */
import { z } from 'zod';
import { EntryLog, removeLegacyFile } from '../../fs/entry-log.js';
import { readFileIfExists } from '../../fs/secure-file.js';
import type { Logger } from '../../logger.js';
import type { Author } from './author.js';

/**
 * An author as recorded (`_meta.zcode.promptedBy` / `answeredBy`, src/domain/people/author.ts). One
 * recorded before people existed has only `name` (and `clientId`).
 */
export type AuthorName = Pick<Author, 'clientId' | 'name'> &
  Partial<Omit<Author, 'clientId' | 'name'>> & {
    /** The rule, or the "always allow" grant, that settled the request instead of a person. */
    rule?: string;
    grant?: string;
  };

type Kind = 'prompt' | 'answer' | 'overwrite';

/** What an `overwrite` entry holds: the mark alone, no author. */
const OVERWRITES = true;

const overwriteSchema = z.object({ k: z.literal('overwrite'), s: z.string(), id: z.string() });
const entrySchema = z.object({
  k: z.enum(['prompt', 'answer']),
  s: z.string(),
  id: z.string(),
  name: z.string(),
  clientId: z.string().optional(),
  person: z.string().optional(),
  device: z.string().optional(),
  tokenId: z.string().optional(),
  client: z.string().optional(),
  rule: z.string().optional(),
  grant: z.string().optional(),
});
/** An earlier version's whole-file book. */
const legacyFileSchema = z.object({ version: z.literal(1), entries: z.array(z.unknown()) });

export interface AuthorBookOptions {
  /** Where the book's log lives; none keeps it in memory only. */
  file?: string;
  /** An earlier version's whole-file book (`authors.json`): read when there is no log yet, then moved into it. */
  legacyFile?: string;
  max: number;
  flushMs: number;
  logger: Logger;
}

/** Bounded map (sessionId, message or tool call) → author (or the overwrite mark), persisted. */
export class AuthorBook {
  /** Insertion order is age: the first key is the oldest. */
  private readonly entries = new Map<string, AuthorName | typeof OVERWRITES>();
  private readonly log: EntryLog<AuthorName | typeof OVERWRITES> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly o: AuthorBookOptions) {
    this.log = o.file === undefined ? undefined : new EntryLog(o.file, line);
    if (this.log) this.load(this.log);
  }

  /** Who sent the prompt that became the agent's user message `messageId`. */
  promptOf(sessionId: string, messageId: string): AuthorName | undefined {
    return this.author(key('prompt', sessionId, messageId));
  }

  /** Who answered the interaction about tool call `toolCallId`. */
  answerOf(sessionId: string, toolCallId: string): AuthorName | undefined {
    return this.author(key('answer', sessionId, toolCallId));
  }

  /** True when tool call `toolCallId` was a Write that replaced a file that existed. */
  overwrites(sessionId: string, toolCallId: string): boolean {
    return this.entries.get(key('overwrite', sessionId, toolCallId)) === OVERWRITES;
  }

  /** Remembers the author of a prompt. */
  setPrompt(sessionId: string, messageId: string, by: AuthorName): void {
    this.set(key('prompt', sessionId, messageId), recorded(by));
  }

  /** Remembers who answered an interaction. */
  setAnswer(sessionId: string, toolCallId: string, by: AuthorName): void {
    this.set(key('answer', sessionId, toolCallId), recorded(by));
  }

  /** Remembers that tool call `toolCallId` replaced a file that existed. */
  setOverwrites(sessionId: string, toolCallId: string): void {
    this.set(key('overwrite', sessionId, toolCallId), OVERWRITES);
  }

  /**
   * Forgets everything kept about deleted sessions, and rewrites the file at once (not after the
   * flush delay) so their people are gone from disk when the delete is answered.
   */
  forgetSessions(sessionIds: ReadonlySet<string>): void {
    let forgot = false;
    for (const k of [...this.entries.keys()]) {
      if (!sessionIds.has(sessionOf(k))) continue;
      this.entries.delete(k);
      forgot = true;
    }
    if (!forgot || this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.write((log) => log.rewrite(this.entries));
  }

  /** The sessions something is remembered about. */
  sessionIds(): Set<string> {
    return new Set([...this.entries.keys()].map(sessionOf));
  }

  /** How many authors and marks are remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** Writes pending changes now; no writes after. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.save();
    }
    this.log?.close();
  }

  private author(k: string): AuthorName | undefined {
    const v = this.entries.get(k);
    return v === OVERWRITES ? undefined : v;
  }

  private set(k: string, v: AuthorName | typeof OVERWRITES): void {
    this.entries.delete(k);
    this.entries.set(k, v);
    while (this.entries.size > this.o.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    if (!this.log || this.closed) return;
    this.log.note(k);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save();
    }, this.o.flushMs);
    this.timer.unref?.();
  }

  /** Appends the entries changed since the last write. */
  private save(): void {
    this.write((log) => log.flush(this.entries));
  }

  /** A write to the log; its failure is logged, never thrown into a turn (what it did not write is in the next rewrite). */
  private write(op: (log: EntryLog<AuthorName | typeof OVERWRITES>) => void): void {
    if (!this.log) return;
    try {
      op(this.log);
    } catch (err) {
      this.o.logger.warn({ err }, 'the author book could not be written');
    }
  }

  private load(log: EntryLog<AuthorName | typeof OVERWRITES>): void {
    try {
      const logged = log.read();
      const lines = logged ?? this.legacyLines();
      // Later lines are newer: a key written again moves to the end, and the last `max` are kept.
      for (const raw of lines ?? []) {
        const e = entrySchema.safeParse(raw);
        const mark = e.success ? undefined : overwriteSchema.safeParse(raw);
        const k = e.success ? key(e.data.k, e.data.s, e.data.id) : mark?.success ? key('overwrite', mark.data.s, mark.data.id) : undefined;
        if (k === undefined) continue;
        this.entries.delete(k);
        this.entries.set(k, e.success ? recorded(e.data) : OVERWRITES);
      }
      for (const k of this.entries.keys()) {
        if (this.entries.size <= this.o.max) break;
        this.entries.delete(k);
      }
      if (logged === undefined && lines !== undefined) log.rewrite(this.entries);
    } catch (err) {
      this.o.logger.warn({ err }, 'the author book is unreadable; starting empty');
    }
    // Moved into the log (now or by an earlier start a kill stopped before it removed the old file).
    if (this.o.legacyFile !== undefined) removeLegacyFile(this.o.legacyFile, log.file, (message) => this.o.logger.warn(message));
  }

  /** An earlier version's whole-file book, as lines; undefined when there is none. */
  private legacyLines(): unknown[] | undefined {
    if (this.o.legacyFile === undefined) return undefined;
    const text = readFileIfExists(this.o.legacyFile);
    return text === undefined ? undefined : legacyFileSchema.parse(JSON.parse(text)).entries;
  }
}

/** The log line of an entry. */
function line(k: string, v: AuthorName | typeof OVERWRITES): unknown {
  const [kind, s, id] = k.split('\u0000') as [Kind, string, string];
  return v === OVERWRITES ? { k: kind, s, id } : { k: kind, s, id, ...v };
}

/** The author fields of `by` (and nothing else: a stray key never reaches the file or a client). */
function recorded(by: AuthorName): AuthorName {
  const out: AuthorName = { name: by.name };
  for (const k of ['clientId', 'person', 'device', 'tokenId', 'client', 'rule', 'grant'] as const) if (by[k] !== undefined) out[k] = by[k];
  return out;
}

function key(kind: Kind, sessionId: string, id: string): string {
  return `${kind}\u0000${sessionId}\u0000${id}`;
}

function sessionOf(k: string): string {
  return k.split('\u0000')[1] ?? '';
}
