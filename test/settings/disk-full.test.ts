/**
 * A full disk (or a file-size cap) under the hub's atomic writers: a write that cannot finish
 * leaves the old file as it was and no temp file beside it, whether the write came up short or
 * failed outright (EFBIG here; ENOSPC takes the same path). The cap is real: the writer runs in
 * a child under `ulimit -f`, so the kernel refuses the bytes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const WRITER = fileURLToPath(new URL('./fixtures/full-disk-writer.ts', import.meta.url));
/** The file-size cap, in KiB (`ulimit -f`); large enough for node and tsx to start under it. */
const CAP_KIB = 256;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function writeCapped(writer: 'secure' | 'settings', file: string, bytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const script = `ulimit -f ${CAP_KIB}; exec "$0" --import tsx "$@"`;
    execFile(
      'bash',
      ['-c', script, process.execPath, WRITER, writer, file, String(bytes)],
      { env: { ...process.env, TSX_DISABLE_CACHE: '1' } },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.trim())),
    );
  });
}

describe.each(['secure', 'settings'] as const)('%s writer under a file-size cap', (writer) => {
  it('a write over the cap fails, the old file stays whole, and no temp file is left', async () => {
    dir = mkdtempSync(join(tmpdir(), 'zcode-hub-disk-full-'));
    const file = join(dir, 'provider_config.json');
    writeFileSync(file, '{"old":true}\n', { mode: 0o600 });
    const outcome = await writeCapped(writer, file, (CAP_KIB + 64) * 1024);
    expect(outcome).toBe('error EFBIG');
    expect(readFileSync(file, 'utf8')).toBe('{"old":true}\n');
    expect(readdirSync(dir)).toEqual(['provider_config.json']);
  });

  it('a write under the cap still succeeds (the cap is what failed the other one)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'zcode-hub-disk-full-'));
    const file = join(dir, 'provider_config.json');
    expect(await writeCapped(writer, file, 1024)).toBe('ok');
    expect(readFileSync(file).length).toBe(1024);
    expect(readdirSync(dir)).toEqual(['provider_config.json']);
  });
});
