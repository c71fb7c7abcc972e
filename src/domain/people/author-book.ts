/**
 * Who sent each prompt and who answered each interaction, remembered for
 * replay: the agent's history knows neither. Prompts are keyed by the agent's user message id
 * (`turn.started.messageId`, APP-SERVER.md §5.5.1), answers by the tool call they were about.
 * The one other fact of a tool call the hub alone knows is kept here too, keyed the same way: that
 * a Write replaced a file that existed (`_meta.zcode.overwrites`, write-target.ts — looked up
 * when it was asked for; by the time of a replay the file has the new content, so it cannot be
 * looked up again). Bounded (`authorsMax`, oldest forgotten first) and kept in
 * `<state-dir>/authors.json` (0600, atomic), written at most every `turnRecordFlushMs` after a
 * change and at close, so authors (person, device, token, client: src/domain/people/author.ts — or
 * the rule or grant that decided) and those marks survive a hub restart. A deleted session's
 * entries are forgotten and the file rewritten at once (`forgetSessions`).
 */
import { z } from 'zod';
import { readFileIfExists, writeFileAtomic } from '../../fs/secure-file.js';
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
const fileSchema = z.object({ version: z.literal(1), entries: z.array(z.unknown()) });

export interface AuthorBookOptions {
  /** Where the book lives; none keeps it in memory only. */
  file?: string;
  max: number;
  flushMs: number;
  logger: Logger;
}

/** Bounded map (sessionId, message or tool call) → author (or the overwrite mark), persisted. */
export class AuthorBook {
  /** Insertion order is age: the first key is the oldest. */
  private readonly entries = new Map<string, AuthorName | typeof OVERWRITES>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly o: AuthorBookOptions) {
    if (o.file) this.load(o.file);
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
    this.save();
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
    if (!this.o.file || this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save();
    }, this.o.flushMs);
    this.timer.unref?.();
  }

  private save(): void {
    if (!this.o.file) return;
    const entries = [...this.entries].map(([k, v]) => {
      const [kind, s, id] = k.split('\u0000') as [Kind, string, string];
      return v === OVERWRITES ? { k: kind, s, id } : { k: kind, s, id, ...v };
    });
    try {
      writeFileAtomic(this.o.file, JSON.stringify({ version: 1, entries }));
    } catch (err) {
      this.o.logger.warn({ err }, 'the author book could not be written');
    }
  }

  private load(file: string): void {
    try {
      const text = readFileIfExists(file);
      if (text === undefined) return;
      const parsed = fileSchema.parse(JSON.parse(text));
      // The newest are last: keep the last `max`.
      for (const raw of parsed.entries.slice(-this.o.max)) {
        const e = entrySchema.safeParse(raw);
        if (e.success) this.entries.set(key(e.data.k, e.data.s, e.data.id), recorded(e.data));
        const mark = e.success ? undefined : overwriteSchema.safeParse(raw);
        if (mark?.success) this.entries.set(key('overwrite', mark.data.s, mark.data.id), OVERWRITES);
      }
    } catch (err) {
      this.o.logger.warn({ err }, 'the author book is unreadable; starting empty');
    }
  }
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
