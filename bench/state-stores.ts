/**
 * What the hub's own stores cost the event loop as a hub's history grows, each filled to a long
 * history against the same store holding `--small` entries (a short one), in a temp dir on this
 * machine's disk: the author book (src/domain/people/author-book.ts, written after every prompt,
 * answer and replacing Write) and the session marks (src/domain/sessions/session-marks.ts, written
 * at every turn's end), full at their caps (LIMITS.authorsMax and sessionMarksMax); and the audit
 * log (src/auth/audit-log.ts), which has no cap, at `--full-audit` entries (100,000 by default, a
 * few months of a busy team).
 *
 * Per store and size (JSON on stdout): the median and the largest time of one change's write
 * (`--reps` changes, each written on its own: a prompt's author, a turn end's preview), the
 * median of the rewrite a session's deletion makes, the file's size; then the full/small ratio of
 * the change's write — the growth every client waits on while the event loop writes. For the
 * audit log: its start (the log opened and read for the last seq; median of 3), the first page
 * after it (which indexes the log), then a page (`GET /api/audit`'s read, `auditPageMax` entries)
 * from its start and from its end, medians of `--reps`, and their ratio (a page from the end of a
 * long log used to read the whole file).
 *
 *   node --import tsx bench/state-stores.ts [--full-authors 20000] [--full-marks 2000] \
 *     [--full-audit 100000] [--small 10] [--reps 40] [--root <checkout>]
 *
 * `--root` reads the stores of another checkout (its src/, through tsx), for before/after in turn.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { LIMITS } from '../src/limits.js';
import { median, positiveInt, round } from './lib/scenario.js';

const { values: opts } = parseArgs({
  options: {
    'full-authors': { type: 'string', default: String(LIMITS.authorsMax) },
    'full-marks': { type: 'string', default: String(LIMITS.sessionMarksMax) },
    'full-audit': { type: 'string', default: '100000' },
    small: { type: 'string', default: '10' },
    reps: { type: 'string', default: '40' },
    root: { type: 'string', default: path.resolve(import.meta.dirname, '..') },
  },
});
const reps = positiveInt(opts.reps, 'reps');
const small = positiveInt(opts.small, 'small');

const src = (file: string): string => pathToFileURL(path.join(opts.root, 'src', file)).href;
interface Book {
  setPrompt(sessionId: string, messageId: string, by: { name: string; [k: string]: string }): void;
  forgetSessions(ids: ReadonlySet<string>): void;
  close(): void;
}
interface Marks {
  notePreview(sessionId: string, role: 'user' | 'agent', text: string): boolean;
  noteUsage(sessionId: string, update: unknown): void;
  flush(): void;
  forget(ids: ReadonlySet<string>): void;
}
const { AuthorBook } = (await import(src('domain/people/author-book.ts'))) as {
  AuthorBook: new (o: { file: string; max: number; flushMs: number; logger: unknown }) => Book;
};
const { SessionMarks } = (await import(src('domain/sessions/session-marks.ts'))) as {
  SessionMarks: new (stateDir: string, limits: { max: number; previewChars: number }) => Marks;
};
const { AuditLog } = (await import(src('auth/audit-log.ts'))) as {
  AuditLog: new (stateDir: string) => { page(after: number, limit: number): { entries: unknown[] } };
};

const silent = { warn: () => undefined, info: () => undefined };
const ms = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e6;
const timed = (op: () => void): number => {
  const t = process.hrtime.bigint();
  op();
  return ms(t);
};
const sessionOf = (i: number): string => `0190f1a2-${(i % 1000).toString(16).padStart(4, '0')}-7000-8000-123456789abc`;
const author = {
  name: 'Ana Example',
  clientId: 'c_5f2b0c1e9d',
  person: 'ana',
  device: 'Ana phone',
  tokenId: 'tok_8d1e2f3a4b5c',
  client: 'zcode-web',
};
const answer =
  'The cart total was off because the discount ran before the tax, so the rounding happened twice; it now runs after it and the test covers both orders.';

interface Figures {
  entries: number;
  changeMs: number;
  changeMaxMs: number;
  deleteMs: number;
  fileKiB: number;
}

/** An author book of `entries`, then `reps` prompts each written on its own, then deletions. */
function authors(entries: number): Figures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-state-stores-'));
  const file = path.join(dir, 'authors.store');
  try {
    const book = new AuthorBook({ file, max: entries, flushMs: 3_600_000, logger: silent });
    const save = (): void => (book as unknown as { save(): void }).save();
    for (let i = 0; i < entries; i++) book.setPrompt(sessionOf(i), `msg_${i}`, author);
    save();
    const change: number[] = [];
    for (let r = 0; r < reps; r++) change.push(timed(() => (book.setPrompt(sessionOf(r), `next_${r}`, author), save())));
    const fileKiB = round(fs.statSync(file).size / 1024, 0);
    // Sessions the book still holds (the last changed): each deletion rewrites it.
    const deletes = [1, 2, 3].map((k) => timed(() => book.forgetSessions(new Set([sessionOf(reps - k)]))));
    book.close();
    return { entries, changeMs: median(change), changeMaxMs: Math.max(...change), deleteMs: median(deletes), fileKiB };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Session marks of `entries` sessions (preview and usage each), then `reps` turn ends each written on its own, then deletions. */
function marks(entries: number): Figures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-state-stores-'));
  try {
    const m = new SessionMarks(dir, { max: entries, previewChars: LIMITS.sessionPreviewChars });
    for (let i = 0; i < entries; i++) {
      const id = `ses_${i}`;
      m.notePreview(id, 'agent', `${answer} (${i})`);
      m.noteUsage(id, { sessionUpdate: 'usage_update', used: 12_000 + i, size: 200_000, cost: { amount: 0.12, currency: 'USD' } });
    }
    m.flush();
    const change: number[] = [];
    for (let r = 0; r < reps; r++) change.push(timed(() => (m.notePreview(`ses_${r % entries}`, 'agent', `${answer} [${r}]`), m.flush())));
    const fileKiB = round(fs.readdirSync(dir).reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0) / 1024, 0);
    const deletes = [1, 2, 3].map((k) => timed(() => m.forget(new Set([`ses_${(reps - k) % entries}`]))));
    return { entries, changeMs: median(change), changeMaxMs: Math.max(...change), deleteMs: median(deletes), fileKiB };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface AuditFigures {
  entries: number;
  fileMiB: number;
  startMs: number;
  /** The first page after the start (it reads the whole log once to index it). */
  coldPageMs: number;
  firstPageMs: number;
  lastPageMs: number;
}

/** An audit log of `entries` acts (prompts and answers, as the hub writes them), opened, then paged from both ends. */
function audit(entries: number): AuditFigures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-state-stores-'));
  try {
    const file = path.join(dir, 'audit.jsonl');
    const fd = fs.openSync(file, 'w', 0o600);
    const who = { tokenId: author.tokenId, name: author.name, person: author.person, client: author.client, scope: 'operate' };
    for (let from = 1; from <= entries; from += 10_000) {
      let text = '';
      for (let seq = from; seq < Math.min(from + 10_000, entries + 1); seq++) {
        const detail = seq % 2 ? { promptId: `p_${seq}`, queuedBehind: 0 } : { toolCallId: `call_${seq}`, optionId: 'allow_once' };
        text += `${JSON.stringify({ seq, at: 1_796_558_408_551 + seq, who, action: seq % 2 ? 'prompt' : 'answer', sessionId: sessionOf(seq), detail })}\n`;
      }
      fs.writeSync(fd, text);
    }
    fs.closeSync(fd);
    const starts: number[] = [];
    let log: InstanceType<typeof AuditLog> | undefined;
    for (let r = 0; r < 3; r++) starts.push(timed(() => (log = new AuditLog(dir))));
    const opened = log!;
    const coldPageMs = timed(() => opened.page(0, LIMITS.auditPageMax));
    const first: number[] = [];
    const last: number[] = [];
    for (let r = 0; r < reps; r++) {
      first.push(timed(() => opened.page(r, LIMITS.auditPageMax)));
      last.push(timed(() => opened.page(Math.max(0, entries - LIMITS.auditPageMax - r), LIMITS.auditPageMax)));
    }
    return {
      entries,
      fileMiB: round(fs.statSync(file).size / 1_048_576, 1),
      startMs: round(median(starts), 2),
      coldPageMs: round(coldPageMs, 2),
      firstPageMs: round(median(first), 3),
      lastPageMs: round(median(last), 3),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const rounded = (f: Figures): Figures => ({
  entries: f.entries,
  changeMs: round(f.changeMs, 3),
  changeMaxMs: round(f.changeMaxMs, 3),
  deleteMs: round(f.deleteMs, 3),
  fileKiB: f.fileKiB,
});
const out: Record<string, unknown> = { root: opts.root, reps, dir: os.tmpdir() };
for (const [name, measure, full] of [
  ['authors', authors, positiveInt(opts['full-authors'], 'full-authors')],
  ['marks', marks, positiveInt(opts['full-marks'], 'full-marks')],
] as const) {
  const short = measure(small);
  const long = measure(full);
  out[name] = { small: rounded(short), full: rounded(long), changeFullOverSmall: round(long.changeMs / short.changeMs, 2) };
}
const [shortAudit, longAudit] = [audit(small), audit(positiveInt(opts['full-audit'], 'full-audit'))];
// A full page from its end against one from its start: a page costs the same wherever it is.
out['audit'] = { small: shortAudit, full: longAudit, lastOverFirstPage: round(longAudit.lastPageMs / longAudit.firstPageMs, 2) };
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
