import type { FileHandle } from 'node:fs/promises';
import { HubError } from '../errors.js';

/**
 * A text line window of a file (zcode-acp-remote's File viewer, its ADR 0005): lines are counted
 * by `\n` (a `\r` before it is dropped), skipped lines are only counted, never kept, so memory is
 * bounded by the window whatever the file size. A window larger than `maxBytes` is refused (413)
 * rather than cut, so the viewer never shows a line that is not the file's.
 */
export interface LineWindow {
  /** The first line served: `line`, or one past the last line when the file is shorter. */
  firstLine: number;
  lines: string[];
}

const CHUNK_BYTES = 64 * 1024;

/** Reads lines `line`…`line + limit - 1` (1-based) from `handle`. */
export async function readLineWindow(handle: FileHandle, window: { line: number; limit: number; maxBytes: number }): Promise<LineWindow> {
  const { line, limit, maxBytes } = window;
  const lines: string[] = [];
  const buf = Buffer.alloc(CHUNK_BYTES);
  let current = 1;
  let parts: Buffer[] = [];
  let kept = 0;
  let position = 0;
  /** Bytes of the current line seen (kept or not): a last line without `\n` still counts. */
  let open = false;
  const keep = (piece: Buffer): void => {
    kept += piece.length;
    if (kept > maxBytes) throw new HubError('HUB_ERR_PAYLOAD_TOO_LARGE', `Line window larger than ${maxBytes} bytes`, { limit: maxBytes });
    parts.push(Buffer.from(piece));
  };
  const endLine = (): void => {
    let text = Buffer.concat(parts).toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    lines.push(text);
    parts = [];
  };
  for (;;) {
    const { bytesRead } = await handle.read(buf, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let start = 0;
    while (start < bytesRead) {
      const nl = buf.indexOf(0x0a, start);
      const end = nl === -1 || nl >= bytesRead ? bytesRead : nl;
      if (current >= line) keep(buf.subarray(start, end));
      if (end === bytesRead) {
        open = true;
        start = bytesRead;
        break;
      }
      if (current >= line) endLine();
      open = false;
      current += 1;
      start = end + 1;
      if (lines.length >= limit) return { firstLine: line, lines };
    }
  }
  // The last line has no newline after it; a file ending in `\n` has no extra empty line.
  if (open) {
    if (current >= line) endLine();
    current += 1;
  }
  return { firstLine: lines.length > 0 ? line : Math.min(line, current), lines };
}
