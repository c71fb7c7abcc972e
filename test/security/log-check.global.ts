import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Vitest global setup for SEC-05 (add to vitest.config.ts `globalSetup`). Gives the run one
 * fresh log directory (ZCODE_HUB_TEST_LOG_DIR, inherited by the forked workers) and, when every
 * suite is done, greps every captured log for every secret the suites registered and for query
 * strings. Any hit fails the run.
 */
export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-test-logs-'));
  process.env.ZCODE_HUB_TEST_LOG_DIR = dir;
  return () => {
    const secretsFile = path.join(dir, 'secrets.txt');
    const secrets = fs.existsSync(secretsFile) ? [...new Set(fs.readFileSync(secretsFile, 'utf8').split('\n').filter(Boolean))] : [];
    const leaks: string[] = [];
    let files = 0;
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.log'))) {
      files++;
      for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
        if (!line) continue;
        for (const s of secrets) if (line.includes(s)) leaks.push(`${name}: secret ${s.slice(0, 6)}…`);
        if (/"url":"[^"]*\?/.test(line)) leaks.push(`${name}: query string in a logged url`);
      }
    }
    if (leaks.length > 0)
      throw new Error(`[SEC-05] ${leaks.length} log leak(s) across ${files} captured logs:\n${leaks.slice(0, 20).join('\n')}`);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
