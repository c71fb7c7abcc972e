/**
 * A frame as a turn record takes it: journaled in a real journal (src/domain/sessions/journal.ts),
 * whose entry the record copies from at its flush.
 */
import { Frame } from '../../src/domain/delivery/frame.js';
import { Journal, type JournalEntry } from '../../src/domain/sessions/journal.js';

const journal = new Journal({ maxUpdates: 100_000, maxBytes: 1024 * 1024 * 1024 }, 'test');

/** `text` journaled; the entry holds its UTF-8 bytes. */
export function stored(text: string): JournalEntry {
  return journal.append(() => new Frame(text)).entry;
}
