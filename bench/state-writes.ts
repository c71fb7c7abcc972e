/**
 * What the hub's per-session stores cost the event loop to write as a hub's history grows: the
 * author book (src/domain/people/author-book.ts, written after every prompt, answer and replacing
 * Write) and the session marks (src/domain/sessions/session-marks.ts, written at every turn's end),
 * each filled to `--full` entries (default: their caps, LIMITS.authorsMax and sessionMarksMax)
 * against the same store holding `--small` (a short history), in a temp dir on this machine's disk.
 *
 * Per store and size (JSON on stdout): the median and the largest time of one change's write
 * (`--reps` changes, each written on its own: a prompt's author, a turn end's preview), the
 * median of the rewrite a session's deletion makes, the file's size; then the full/small ratio of
 * the change's write — the growth every client waits on while the event loop writes.
 *
 *   node --import tsx bench/state-writes.ts [--full-authors 20000] [--full-marks 2000] [--small 10] \
 *     [--reps 40] [--root <checkout>]
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-state-writes-'));
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-state-writes-'));
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
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
