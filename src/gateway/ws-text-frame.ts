/**
 * Broadcast frames' WebSocket bytes, built once (RFC 6455 §5.2): FIN + text opcode, no mask
 * (server to client), the payload length in 7, 16 or 64 bits, then the payload. `ws` builds a
 * header, an options object and a two-buffer list for every client of every broadcast and writes
 * them as two chunks; the hub builds a frame's bytes once for all its clients
 * ({@link wsTextFrame}), and a client's whole turn of frames as one buffer ({@link wsTextFrames},
 * shared by every client that was sent the same frames: write-batch.ts) — the same bytes on the wire.
 *
 * Only valid while no extension transforms frames: the hub never enables permessage-deflate
 * (ws's server default), so `ws` itself writes the same unmasked frame synchronously. It stays
 * off because it does not pay for the hub's small frames: ws's default threshold compresses 3 % of
 * them, and compressing all of them costs each client its own encoding per update and about
 * 200 KiB of compressor per connection to save ~160 ms of a 2 s phone open on slow-4G
 * (BENCHMARKS.md, B-DEFLATE).
 */
import type { Frame } from '../domain/delivery/frame.js';

const FIN_TEXT = 0x81;

/** The complete server text frame of `frame` (kept on the frame: `Frame.wire`). */
export function wsTextFrame(frame: Frame): Buffer {
  if (frame.wire !== undefined) return frame.wire;
  const payload = frame.bytes;
  const wire = Buffer.allocUnsafe(headerLength(payload.length) + payload.length);
  put(wire, 0, payload);
  frame.wire = wire;
  return wire;
}

/** The server text frames of `frames`, back to back in one buffer (what one write of a client's turn sends). */
export function wsTextFrames(frames: readonly Frame[]): Buffer {
  let total = 0;
  for (const f of frames) total += headerLength(f.bytes.length) + f.bytes.length;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const f of frames) at = put(out, at, f.bytes);
  return out;
}

function headerLength(len: number): number {
  return len < 126 ? 2 : len < 0x10000 ? 4 : 10;
}

/** Writes one frame (header, then `payload`) into `out` at `at`; returns where the next one starts. */
function put(out: Buffer, at: number, payload: Buffer): number {
  const len = payload.length;
  out[at] = FIN_TEXT;
  const header = headerLength(len);
  if (header === 2) out[at + 1] = len;
  else if (header === 4) {
    out[at + 1] = 126;
    out.writeUInt16BE(len, at + 2);
  } else {
    out[at + 1] = 127;
    out.writeUInt32BE(Math.floor(len / 0x1_0000_0000), at + 2);
    out.writeUInt32BE(len % 0x1_0000_0000, at + 6);
  }
  payload.copy(out, at + header);
  return at + header + len;
}
