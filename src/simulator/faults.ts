import type { Writable } from 'node:stream';
import type { SimOptions } from './options.js';

/** How deep `--junk-lines` nests its deep line: far past any reader's bound (the hub's is 128). */
const JUNK_DEPTH = 5_000;

/**
 * Non-protocol stdout lines of `--junk-lines`: text, invalid UTF-8, JSON that is no envelope
 * (CHD-03), and an event nested {@link JUNK_DEPTH} deep, which a reader must not parse into
 * itself (SEC-13).
 */
const JUNK: (string | Buffer)[] = [
  'this line is not JSON\n',
  Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x0a]),
  '{"hello":"not an envelope"}\n',
  '[1,2,3]\n',
  `{"method":"session/event","params":{"sessionId":"deep","event":${'['.repeat(JUNK_DEPTH)}${']'.repeat(JUNK_DEPTH)}}}\n`,
];

/**
 * The stdout writer: one JSON message per line (§1.2). With `--junk-lines` a junk line is
 * interleaved before every second protocol line, each of {@link JUNK} in turn.
 */
export function createWriter(out: Writable, options: SimOptions): (message: object) => void {
  let n = 0;
  return (message) => {
    if (options.junkLines && n++ % 2 === 0) out.write(JUNK[(n >> 1) % JUNK.length] ?? '');
    out.write(`${JSON.stringify(message)}\n`);
  };
}

/** `--oversize-line BYTES`: one huge line without a newline, written in 1 MiB chunks (CHD-03). */
export function writeOversizeLine(out: Writable, bytes: number): void {
  const chunk = 'x'.repeat(1024 * 1024);
  out.write('{"oversize":"');
  let left = bytes;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    out.write(n === chunk.length ? chunk : chunk.slice(0, n));
    left -= n;
  }
}

/** `--flood-stderr`: continuous stderr lines (a host that stops draining stderr blocks us, §1.1). */
export function startStderrFlood(err: Writable): NodeJS.Timeout {
  let n = 0;
  return setInterval(() => {
    for (let i = 0; i < 50; i++) err.write(`[zcode-sim flood] diagnostic line ${++n} ${'.'.repeat(60)}\n`);
  }, 10);
}
