import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runToExit, type Exited } from '../helpers/run-to-exit.js';

/**
 * `npm run test:loaded -- FILE` (scripts/test-loaded.sh) runs FILE only in the suite it belongs
 * to: a unit file given to the browser config (or a browser file to the unit config) made that
 * run fail with "No test files found", so the documented one-file form always reported FAIL.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-loaded-'));
afterAll(() => fs.rmSync(logDir, { recursive: true, force: true }));

function loaded(args: string[]): Promise<Exited> {
  // No hogs: the script's routing is under test here, not the machine's load.
  return runToExit('bash', [path.join(root, 'scripts', 'test-loaded.sh'), ...args], {
    cwd: root,
    env: { ...process.env, HOGS: '0', BROWSER_RUNS: '1', UNIT_RUNS: '1', LOG_DIR: logDir },
  });
}

describe('npm run test:loaded with a file', () => {
  it('a unit test file runs in the unit suites only, and a -t pattern reaches that run', async () => {
    const r = await loaded(['test/doctor/checks.test.ts', '-t', 'flags a workspace root']);
    expect(r.stdout.trim().split('\n'), r.stderr).toEqual([
      expect.stringMatching(/^ok {4}unit\/integration suites, run 1 of 1 \(\d+ s\)$/),
    ]);
    expect(r.status).toBe(0);
    const log = fs.readFileSync(path.join(logDir, 'unit-1.log'), 'utf8');
    expect(log).toMatch(/Tests\s.*1 passed/);
    expect(fs.existsSync(path.join(logDir, 'browser-1.log'))).toBe(false);
  }, 120_000);
});
