import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { nowMs } from './load-socket.js';
import { DAEMON_NODE_FLAGS } from '../../src/daemon/node-flags.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The checkout whose daemon the bench starts: this one, or `BENCH_DAEMON_ROOT` (another checkout
 * with its own built `dist/`, e.g. an older commit), so before/after comparisons run the same
 * harness against both builds.
 */
export const daemonRoot = process.env.BENCH_DAEMON_ROOT ? path.resolve(process.env.BENCH_DAEMON_ROOT) : repoRoot;

/** `BENCH_DAEMON_LIMITS`: a JSON object of limits every benchmark daemon gets (experiments only). */
function envLimits(): Record<string, number> {
  const text = process.env.BENCH_DAEMON_LIMITS;
  if (!text) return {};
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('BENCH_DAEMON_LIMITS must be a JSON object');
  return value as Record<string, number>;
}

const hubFileSchema = z.object({ pid: z.number().int(), port: z.number().int(), url: z.string() });
const healthSchema = z.looseObject({ backend: z.looseObject({ state: z.string() }).optional() });

export interface DaemonOptions {
  /** Simulator flags passed through `--sim-arg=` (e.g. `--event-rate`, `500`). */
  simArgs?: string[];
  /** Node flags for the daemon process (`--cpu-prof` …). */
  nodeArgs?: string[];
  /** Named limits written to a `--config` file (only where a scenario says why). */
  limits?: Record<string, number>;
  logLevel?: string;
  /** Called with the daemon's temp root before it starts (B-LONG writes the simulator's sessions under `<root>/state/sim`). */
  seed?: (root: string) => void;
  /** The checkout whose daemon this is (default {@link daemonRoot}): B-COST-TEAM's hub against hub. */
  checkout?: string;
}

/** How a bench daemon is started: its temp root, its `zcode-hub` arguments and its environment. */
export interface HubLaunch {
  root: string;
  args: string[];
  env: Record<string, string>;
}

/** Longest a daemon may take to write hub.json before the bench gives up. */
const START_TIMEOUT_MS = 30_000;

/** Lines of a daemon's log quoted when it did not start (its temp dir, log included, is removed). */
const LOG_TAIL_LINES = 20;

/** Resident set size of a process in bytes, from /proc/<pid>/status (VmRSS). */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

/**
 * The daemon under test as its own process: `node bin/zcode-hub.js start --backend sim --port 0`
 * with a temp state dir, workspace, provider file and HOME (never the real home). The port and
 * the admin token come from the state dir, as a real client would find them (ARCHITECTURE.md §9).
 */
export class DaemonProcess {
  port = 0;
  pid = 0;
  adminToken = '';
  /** Machine-clock time the process was spawned. */
  spawnedAt = 0;
  readonly logFile: string;
  private exited: Promise<number | null>;

  private constructor(
    readonly root: string,
    private readonly child: ChildProcess,
  ) {
    this.logFile = path.join(root, 'daemon.log');
    this.exited = new Promise((r) => child.once('exit', (code) => r(code)));
  }

  get stateDir(): string {
    return path.join(this.root, 'state');
  }

  get workspace(): string {
    return path.join(this.root, 'workspace');
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/acp`;
  }

  get httpUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Spawns the daemon; resolves once hub.json names its port (not yet waiting for health). */
  static async spawn(opts: DaemonOptions = {}): Promise<DaemonProcess> {
    const hub = DaemonProcess.prepare(opts);
    const args = [
      ...DAEMON_NODE_FLAGS,
      ...(opts.nodeArgs ?? []),
      // Experiments with the daemon's own V8 flags (e.g. `--max-semi-space-size=2`): only the
      // daemon gets them, not the load client or the simulator child.
      ...(process.env.BENCH_DAEMON_NODE_ARGS ?? '').split(' ').filter(Boolean),
      path.join(opts.checkout ?? daemonRoot, 'bin', 'zcode-hub.js'),
      ...hub.args,
    ];
    const log = fs.openSync(path.join(hub.root, 'daemon.log'), 'w');
    const spawnedAt = nowMs();
    const child = spawn(process.execPath, args, {
      cwd: opts.checkout ?? daemonRoot,
      stdio: ['ignore', log, log],
      env: { ...process.env, ...hub.env },
    });
    fs.closeSync(log);
    const d = new DaemonProcess(hub.root, child);
    d.spawnedAt = spawnedAt;
    try {
      await d.waitForHubFile();
    } catch (err) {
      throw await d.abandon(err as Error);
    }
    return d;
  }

  /**
   * A daemon that never started: stopped, its temp dir removed (each failed start used to leave one
   * in the temp dir), and `err` answered with the end of its log, which went with the dir.
   */
  private async abandon(err: Error): Promise<Error> {
    let tail = '';
    try {
      tail = fs.readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-LOG_TAIL_LINES).join('\n');
    } catch {
      // No log to quote.
    }
    await this.stop({ graceMs: 1_000 });
    return new Error(`${err.message}; its log ended:\n${tail}`);
  }

  /**
   * A daemon's temp root (state dir, workspace; seeded), the `zcode-hub` arguments that start it
   * there and the environment it runs in (HOME is the root, never the real home): what
   * {@link spawn} runs as its own process, and what a process that hosts a hub runs in itself
   * ({@link adopt}).
   */
  static prepare(opts: DaemonOptions = {}): HubLaunch {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-bench-'));
    fs.mkdirSync(path.join(root, 'workspace'));
    opts.seed?.(root);
    const args = [
      'start',
      '--host',
      '127.0.0.1',
      '--backend',
      'sim',
      '--port',
      '0',
      '--state-dir',
      path.join(root, 'state'),
      '--workspace',
      path.join(root, 'workspace'),
      '--provider-file',
      path.join(root, 'provider_config.json'),
      '--log-level',
      opts.logLevel ?? 'info',
      ...(opts.simArgs ?? []).map((a) => `--sim-arg=${a}`),
    ];
    // Experiments with the daemon's limits (e.g. `{"heartbeatIntervalMs":600000}`) on top of the scenario's.
    const limits = { ...opts.limits, ...envLimits() };
    if (Object.keys(limits).length > 0) {
      const file = path.join(root, 'config.json');
      fs.writeFileSync(file, JSON.stringify({ limits }));
      args.push('--config', file);
    }
    return { root, args, env: { HOME: root, ZCODE_DATA_BASE_DIR: root } };
  }

  /**
   * The daemon a `host` process started in itself from {@link prepare}'s launch (B-COST-TEAM's
   * hosted mode: the hub inside the fair baseline's process). Resolves once hub.json names its
   * port; {@link stop} stops the host.
   */
  static async adopt(root: string, host: ChildProcess): Promise<DaemonProcess> {
    const d = new DaemonProcess(root, host);
    await d.waitForHubFile();
    return d;
  }

  private async waitForHubFile(): Promise<void> {
    const file = path.join(this.stateDir, 'hub.json');
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`daemon exited (${this.child.exitCode})`);
      try {
        const hub = hubFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
        this.port = hub.port;
        this.pid = hub.pid;
        this.adminToken = fs.readFileSync(path.join(this.stateDir, 'admin.token'), 'utf8').trim();
        return;
      } catch {
        // Not written yet (or mid-write): poll again.
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    throw new Error(`daemon wrote no hub.json in ${START_TIMEOUT_MS} ms`);
  }

  /** Polls `GET /api/health` until 200 (and, with `ready`, until the backend says ready); returns the machine time. */
  async waitHealthy(ready = false, timeoutMs = START_TIMEOUT_MS): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${this.httpUrl}/api/health`, { headers: { accept: 'application/json' } });
        const at = nowMs();
        if (res.status === 200) {
          const body = healthSchema.safeParse(await res.json());
          if (!ready || body.data?.backend?.state === 'ready') return at;
        } else await res.arrayBuffer();
      } catch {
        // Listening but not answering yet.
      }
      await new Promise((r) => setTimeout(r, ready ? 20 : 2));
    }
    throw new Error(`daemon not healthy in ${timeoutMs} ms; log: ${this.logFile}`);
  }

  /** Device tokens for `count` clients: minted through `POST /api/tokens` when the route exists, else the admin token. */
  async tokens(count: number, perToken: number): Promise<{ tokens: string[]; minted: boolean }> {
    const needed = Math.ceil(count / perToken);
    const minted: string[] = [];
    for (let i = 0; i < needed; i++) {
      const res = await fetch(`${this.httpUrl}/api/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scope: 'operate', name: `bench-${i}` }),
      });
      const body = z.object({ token: z.string() }).safeParse(await res.json().catch(() => undefined));
      if (!res.ok || !body.success) return { tokens: [this.adminToken], minted: false };
      minted.push(body.data.token);
    }
    return { tokens: minted, minted: true };
  }

  /** One scrape of `GET /metrics` (Prometheus text), as the admin. */
  async metrics(): Promise<string> {
    const res = await fetch(`${this.httpUrl}/metrics`, { headers: { authorization: `Bearer ${this.adminToken}` } });
    if (!res.ok) throw new Error(`GET /metrics: ${res.status}`);
    return res.text();
  }

  /**
   * Forces two full GCs in a daemon started with bench/lib/gc-preload.cjs and answers its RSS and
   * heap right after (the preload writes `process.memoryUsage()` to `<root>/gc-report.json`).
   */
  async memoryAfterGc(): Promise<{ rss: number; heapUsed: number }> {
    const file = path.join(this.root, 'gc-report.json');
    fs.rmSync(file, { force: true });
    process.kill(this.pid, 'SIGUSR2');
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      try {
        return z.object({ rss: z.number(), heapUsed: z.number() }).parse(JSON.parse(fs.readFileSync(file, 'utf8')));
      } catch {
        // Not written yet (or mid-write): poll again.
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the daemon wrote no gc-report.json (started without gc-preload.cjs?)');
  }

  /** The daemon's resident set size now. */
  rss(): number {
    return rssBytes(this.pid);
  }

  /** True while the daemon process runs. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Stops the daemon by its pid (SIGTERM, then SIGKILL after `graceMs`) and removes its temp dir unless `keep`. */
  async stop(opts: { keep?: boolean; graceMs?: number } = {}): Promise<number | null> {
    if (this.running) this.child.kill('SIGTERM');
    const t = setTimeout(() => {
      if (this.running) this.child.kill('SIGKILL');
    }, opts.graceMs ?? 10_000);
    const code = await this.exited;
    clearTimeout(t);
    if (!opts.keep) fs.rmSync(this.root, { recursive: true, force: true });
    return code;
  }

  /** Log lines (pino JSON) of the daemon so far. */
  logLines(): Array<Record<string, unknown>> {
    const out: Array<Record<string, unknown>> = [];
    for (const line of fs.readFileSync(this.logFile, 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue; // a line being written right now
      }
      const parsed = z.record(z.string(), z.unknown()).safeParse(value);
      if (parsed.success) out.push(parsed.data);
    }
    return out;
  }
}
