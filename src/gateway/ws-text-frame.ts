/**
 * A broadcast frame's WebSocket bytes, built once (RFC 6455 §5.2): FIN + text opcode, no mask
 * (server to client), the payload length in 7, 16 or 64 bits, then the payload. `ws` builds a
 * header, an options object and a two-buffer list for every client of every broadcast and writes
 * them as two chunks; a broadcast to a hundred clients now builds one buffer, and each client's
 * corked socket takes it as one chunk — the same bytes on the wire (BENCHMARKS.md).
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
  return (frame.wire ??= build(frame));
}

function build(frame: Frame): Buffer {
  const payload = frame.bytes;
  const len = payload.length;
  const header = len < 126 ? 2 : len < 0x10000 ? 4 : 10;
  const wire = Buffer.allocUnsafe(header + len);
  wire[0] = FIN_TEXT;
  if (header === 2) wire[1] = len;
  else if (header === 4) {
    wire[1] = 126;
    wire.writeUInt16BE(len, 2);
  } else {
    wire[1] = 127;
    wire.writeUInt32BE(Math.floor(len / 0x1_0000_0000), 2);
    wire.writeUInt32BE(len % 0x1_0000_0000, 6);
  }
  payload.copy(wire, header);
  return wire;
}
