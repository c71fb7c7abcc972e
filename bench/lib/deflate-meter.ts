import { createRequire } from 'node:module';
import path from 'node:path';
import type PerMessageDeflateClass from 'ws/lib/permessage-deflate.js';

// ws does not export its PerMessageDeflate (package "exports"); it is loaded by its file path,
// from the ws the hub itself runs.
const require = createRequire(import.meta.url);
const PerMessageDeflate = require(
  path.join(path.dirname(require.resolve('ws')), 'lib', 'permessage-deflate.js'),
) as typeof PerMessageDeflateClass;
type PerMessageDeflate = PerMessageDeflateClass;

/**
 * What permessage-deflate (RFC 7692) would cost and save on the hub's frames, measured with the
 * compressor `ws` itself would use on the server side (its PerMessageDeflate, negotiated as a
 * browser offers it), over frames captured from a real daemon. The hub does not negotiate the
 * extension (src/gateway/ws-text-frame.ts); this measures whether it should.
 */
export interface DeflateSetting {
  name: string;
  /** Off: the frames as the hub sends them today. */
  enabled: boolean;
  /** `server_no_context_takeover`: each message compressed alone (the same bytes for every client). */
  noContextTakeover?: boolean;
  /** Messages shorter than this go uncompressed (ws's default is 1024). */
  threshold?: number;
  /** A smaller compressor (`server_max_window_bits` and zlib's memLevel): less memory per connection. */
  small?: boolean;
}

/** The small compressor: a 1 KiB window (2^10) and zlib memLevel 4 instead of 32 KiB and 8. */
const SMALL = { serverMaxWindowBits: 10, zlibDeflateOptions: { memLevel: 4 } };

export const DEFLATE_SETTINGS: readonly DeflateSetting[] = [
  { name: 'off', enabled: false },
  { name: 'context takeover, threshold 0', enabled: true, noContextTakeover: false, threshold: 0 },
  { name: 'context takeover, threshold 1024', enabled: true, noContextTakeover: false, threshold: 1024 },
  { name: 'context takeover, threshold 0, small window', enabled: true, noContextTakeover: false, threshold: 0, small: true },
  { name: 'no context takeover, threshold 0', enabled: true, noContextTakeover: true, threshold: 0 },
  { name: 'no context takeover, threshold 1024', enabled: true, noContextTakeover: true, threshold: 1024 },
];

/** Header bytes of an unmasked server frame of `len` payload bytes (RFC 6455 §5.2). */
const headerBytes = (len: number) => (len < 126 ? 2 : len < 0x10000 ? 4 : 10);

/** One connection's compressor, negotiated as a server answering Chromium's offer (`client_max_window_bits`). */
function serverDeflate(s: DeflateSetting): PerMessageDeflate {
  const pmd = new PerMessageDeflate({
    isServer: true,
    serverNoContextTakeover: s.noContextTakeover ?? false,
    threshold: s.threshold ?? 1024,
    ...(s.small ? SMALL : {}),
  });
  pmd.accept([{ client_max_window_bits: [true] }]);
  return pmd;
}

function compress(pmd: PerMessageDeflate, data: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => pmd.compress(data, true, (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out))));
}

export interface DeflateResult {
  setting: string;
  /** Frame bytes on the wire (headers included) for the whole sequence. */
  wireBytes: number;
  /** Compression time of the sequence on one connection, in µs per frame (0 when off). */
  cpuUsPerFrame: number;
}

/** The wire bytes and compression time of `frames` sent in order on one connection under `s`. */
export async function meterSequence(frames: readonly Buffer[], s: DeflateSetting): Promise<DeflateResult> {
  if (!s.enabled) return { setting: s.name, wireBytes: frames.reduce((n, f) => n + headerBytes(f.length) + f.length, 0), cpuUsPerFrame: 0 };
  const pmd = serverDeflate(s);
  const threshold = s.threshold ?? 1024;
  let wire = 0;
  let busy = 0;
  for (const f of frames) {
    if (f.length < threshold) {
      wire += headerBytes(f.length) + f.length;
      continue;
    }
    // ws compresses on the zlib thread pool; the wall time of one awaited call is what the
    // event loop and the pool spend on it while nothing else runs (the bench runs nothing else).
    const t0 = performance.now();
    const out = await compress(pmd, f);
    busy += performance.now() - t0;
    wire += headerBytes(out.length) + out.length;
  }
  pmd.cleanup();
  return { setting: s.name, wireBytes: wire, cpuUsPerFrame: (busy * 1000) / frames.length };
}

/**
 * Memory one connection's compressor keeps between messages with context takeover: the RSS
 * growth of `count` connections that each compressed `sample`, divided by `count`, in KiB.
 */
export async function contextMemoryKiB(sample: Buffer, count: number, small = false): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().rss;
  const held: PerMessageDeflate[] = [];
  for (let i = 0; i < count; i++) {
    const pmd = serverDeflate({ name: 'takeover', enabled: true, noContextTakeover: false, threshold: 0, small });
    await compress(pmd, sample);
    held.push(pmd);
  }
  gc?.();
  const after = process.memoryUsage().rss;
  for (const p of held) p.cleanup();
  return (after - before) / count / 1024;
}
