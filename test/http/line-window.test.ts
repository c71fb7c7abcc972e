import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLineWindow } from '../../src/http/line-window.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'line-window-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function window(content: string, line: number, limit: number, maxBytes = 1 << 20): Promise<{ firstLine: number; lines: string[] }> {
  const file = path.join(dir, `f${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(file, content);
  const handle = await fsp.open(file, 'r');
  try {
    return await readLineWindow(handle, { line, limit, maxBytes });
  } finally {
    await handle.close();
  }
}

describe('readLineWindow', () => {
  it('counts lines across read chunks and keeps a last line without a newline', async () => {
    const long = 'x'.repeat(100_000);
    expect(await window(`a\n${long}\nb\nc`, 2, 3)).toEqual({ firstLine: 2, lines: [long, 'b', 'c'] });
    expect(await window('a\nb\n', 2, 5)).toEqual({ firstLine: 2, lines: ['b'] });
  });

  it('past the end: no lines, firstLine one past the last line (with or without a final newline)', async () => {
    expect(await window('a\nb\n', 7, 5)).toEqual({ firstLine: 3, lines: [] });
    expect(await window('a\nb', 7, 5)).toEqual({ firstLine: 3, lines: [] });
    expect(await window('', 1, 5)).toEqual({ firstLine: 1, lines: [] });
  });

  it('a window over maxBytes is refused (413), skipped lines never count', async () => {
    await expect(window(`${'y'.repeat(5_000)}\nshort\n`, 1, 2, 1_000)).rejects.toMatchObject({ code: 'HUB_ERR_PAYLOAD_TOO_LARGE' });
    expect(await window(`${'y'.repeat(5_000)}\nshort\n`, 2, 2, 1_000)).toEqual({ firstLine: 2, lines: ['short'] });
  });
});
