import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh temp dir (never the real home); removed by the returned cleanup. */
export function tempDir(prefix = 'zch-sec-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
