/**
 * What the journals of a busy hub hold: `--sessions` journals (src/domain/sessions/journal.ts)
 * each filled with `--updates` streamed text updates of about 400 bytes (the default fills every
 * journal to its count cap, LIMITS.journalMaxUpdates), then the JS heap and the memory outside it
 * they added (both after two full collections), and what one more full collection costs with them
 * held. The frames' own bytes are outside the heap either way (frame-store.ts); what this measures
 * is what the journal keeps per update besides them.
 *
 *   node --expose-gc --import tsx bench/journal-heap.ts [--sessions 20] [--updates 20000] [--root <checkout>]
 *
 * `--root` reads the journal of another checkout (its src/, through tsx), for before/after in turn.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { LIMITS } from '../src/limits.js';
import { positiveInt, round } from './lib/scenario.js';

const { values: opts } = parseArgs({
  options: {
    sessions: { type: 'string', default: '20' },
    updates: { type: 'string', default: String(LIMITS.journalMaxUpdates) },
    root: { type: 'string', default: path.resolve(import.meta.dirname, '..') },
  },
});
const sessions = positiveInt(opts.sessions, 'sessions');
const updates = positiveInt(opts.updates, 'updates');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

interface JournalLike {
  append(build: (seq: number, epoch: string) => unknown): unknown;
}
const src = (file: string): string => pathToFileURL(path.join(opts.root, 'src', file)).href;
const { Journal } = (await import(src('domain/sessions/journal.ts'))) as {
  Journal: new (limits: { maxUpdates: number; maxBytes: number }, epoch: string) => JournalLike;
};
const { Frame } = (await import(src('domain/delivery/frame.ts'))) as { Frame: new (text: string) => unknown };

const text = 'x'.repeat(300);
const mib = (bytes: number): number => round(bytes / 1_048_576, 1);

gc();
gc();
const before = process.memoryUsage();
const held: JournalLike[] = [];
for (let s = 0; s < sessions; s++) {
  const journal = new Journal({ maxUpdates: LIMITS.journalMaxUpdates, maxBytes: LIMITS.journalMaxBytes }, 'e1');
  const sessionId = `ses_${s}`;
  for (let i = 0; i < updates; i++)
    journal.append(
      (seq, epoch) =>
        new Frame(
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'session/update',
            params: {
              sessionId,
              update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
              _meta: { zcode: { seq, epoch } },
            },
          }),
        ),
    );
  held.push(journal);
}
gc();
gc();
const after = process.memoryUsage();
const started = process.hrtime.bigint();
gc();
const fullGcMs = Number(process.hrtime.bigint() - started) / 1e6;
const journaled = sessions * updates;
process.stdout.write(
  `${JSON.stringify(
    {
      root: opts.root,
      sessions: held.length,
      updatesPerSession: updates,
      heapMiB: mib(after.heapUsed - before.heapUsed),
      heapBytesPerUpdate: Math.round((after.heapUsed - before.heapUsed) / journaled),
      outsideHeapMiB: mib(after.arrayBuffers - before.arrayBuffers),
      fullGcMs: round(fullGcMs, 1),
    },
    null,
    2,
  )}\n`,
);
