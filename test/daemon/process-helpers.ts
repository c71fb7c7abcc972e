import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readHubFile } from '../../src/daemon/state-files.js';
import { until } from '../helpers/until.js';

/** Runs `zcode-hub` as a user would: real processes, a temp HOME and state dir. */

/**
 * What one process a test starts may take, start to answer, on a loaded machine: at load 25 on
 * 2 cores a `zcode-hub` process took 5–15 s of wall. A test's budget is this times the processes
 * it starts ({@link budget}), so a test that starts a daemon, its child and two CLI commands is not
 * held to the budget of one; each wait for one of them gets its own share.
 */
export const PROCESS_MS = 30_000;
/** A daemon started with {@link start} is two processes: the daemon and its simulator child. */
export const DAEMON = 2;
/** The timeout of a test that starts `processes` processes (count a daemon as {@link DAEMON}). */
export const budget = (processes: number): number => processes * PROCESS_MS;

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');
const started: ChildProcess[] = [];
const env = (home: string) => ({ ...process.env, HOME: home, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'info' });
const dirs: string[] = [];

export function tempHome(): { home: string; stateDir: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-daemon-'));
  dirs.push(home);
  return { home, stateDir: path.join(home, 'state') };
}

export function start(
  home: string,
  stateDir: string,
  extra: string[] = [],
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    [
      bin,
      'start',
      '--backend',
      'sim',
      '--port',
      '0',
      '--state-dir',
      stateDir,
      '--workspace',
      home,
      '--provider-file',
      path.join(home, 'p.json'),
      ...extra,
    ],
    {
      env: env(home),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

export { until };

export async function ready(stateDir: string, timeoutMs = budget(DAEMON)): Promise<{ pid: number; url: string; backendPid: number }> {
  return until(
    async () => {
      const hub = readHubFile(stateDir);
      if (!hub) return undefined;
      const token = fs.readFileSync(path.join(stateDir, 'admin.token'), 'utf8').trim();
      try {
        const status = (await (await fetch(`${hub.url}/api/status`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          backend: { state: string; pid?: number };
        };
        return status.backend.state === 'ready' && status.backend.pid
          ? { pid: hub.pid, url: hub.url, backendPid: status.backend.pid }
          : undefined;
      } catch {
        return undefined;
      }
    },
    'the daemon to be ready',
    timeoutMs,
  );
}

/** Kills whatever a test started and left running. */
export function killStarted(): void {
  for (const c of started.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** Runs a CLI sub-command to completion; one that starts children of its own (`doctor --probe`) says how many processes in all. */
export function cli(home: string, args: string[], processes = 1): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { env: env(home), encoding: 'utf8', timeout: budget(processes) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
