import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { chooseEntry } from '../../bin/entry.js';
import { DAEMON_NODE_FLAGS } from '../../src/daemon/node-flags.js';
import { daemonRoot, repoRoot, type HubLaunch } from './daemon-process.js';
import { HOSTED_HUB_ENV, type HostedHub } from './hosted-hub.js';

/** A bundle of bench/baseline-server.ts to run instead of the source through tsx (the unit suites build one: test/helpers/bundle.global.ts). */
export const BASELINE_ENTRY_ENV = 'ZCODE_HUB_BENCH_BASELINE_ENTRY';

/**
 * The CLI module a hosted hub runs: the one `zcode-hub` of the checkout under test would run
 * (bin/entry.js: the unit suites' bundle, dist/ when built and current, else the sources, which the
 * baseline's process imports through tsx).
 */
function hostedHubEntry(): string {
  return chooseEntry(daemonRoot).main;
}

const replySchema = z.object({ id: z.number().int(), ok: z.boolean(), value: z.unknown().optional() });
const streamedSchema = z.object({ sent: z.number().int(), lastSeq: z.number().int(), lastSeqs: z.array(z.number().int()) });

/** The runner's handle on bench/baseline-server.ts (a bare `ws` broadcaster in its own process). */
export class BaselineProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (v: unknown) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    /** The baseline's own simulator child (its event source). */
    readonly simPid: number,
  ) {
    child.on('message', (raw: unknown) => {
      const r = replySchema.safeParse(raw);
      if (!r.success) return;
      const w = this.waiting.get(r.data.id);
      this.waiting.delete(r.data.id);
      w?.(r.data.value);
    });
  }

  /**
   * Spawns the server and waits for its port. With `hub` (B-COST-TEAM's hosted mode) the server
   * also starts that hub in its own process (bench/baseline-server.ts), writing the process's
   * output to the hub's `daemon.log` as a spawned daemon does; {@link process} is then the hub's
   * process too.
   */
  static async start(opts: { hub?: HubLaunch } = {}): Promise<BaselineProcess> {
    // The same V8 flags as the daemon (src/daemon/node-flags.ts, plus a bench run's extra daemon
    // flags): the same process layout includes the same runtime settings.
    const bundled = process.env[BASELINE_ENTRY_ENV];
    const execArgv = [
      ...DAEMON_NODE_FLAGS,
      ...(process.env.BENCH_DAEMON_NODE_ARGS ?? '').split(' ').filter(Boolean),
      ...(bundled ? [] : ['--import', 'tsx']),
    ];
    const hub = opts.hub;
    const log = hub ? fs.openSync(path.join(hub.root, 'daemon.log'), 'w') : 'inherit';
    const child = fork(bundled ?? path.join(repoRoot, 'bench', 'baseline-server.ts'), [], {
      execArgv,
      stdio: ['ignore', log, log, 'ipc'],
      ...(hub
        ? {
            env: {
              ...process.env,
              ...hub.env,
              [HOSTED_HUB_ENV]: JSON.stringify({ entry: hostedHubEntry(), args: hub.args } satisfies HostedHub),
            },
          }
        : {}),
    });
    if (typeof log === 'number') fs.closeSync(log);
    const started = await new Promise<{ port: number; simPid: number }>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('baseline server did not start in 30 s')), 30_000);
      child.once('message', (raw: unknown) => {
        clearTimeout(t);
        resolve(z.object({ port: z.number().int().positive(), simPid: z.number().int() }).parse(replySchema.parse(raw).value));
      });
      child.once('exit', (code) => reject(new Error(`baseline server exited early (${code})`)));
    });
    return new BaselineProcess(child, started.port, started.simPid);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The server's process (with a hosted hub, the hub's too: DaemonProcess.adopt). */
  get process(): ChildProcess {
    return this.child;
  }

  /** The URL clients of session `k` connect to (session 0 when omitted). */
  wsUrl(session?: number): string {
    return `ws://127.0.0.1:${this.port}/${session === undefined ? '' : `?session=${session}`}`;
  }

  /**
   * Broadcasts `rate` frames/s of about `bytes` bytes for `durationMs` (one prompt to its
   * simulator) in each of `team.sessions` sessions (default 1), session k starting k × `team.phaseMs`
   * late (each in its slot of the shared grid when `team.grid` is 1 or 2); resolves when every prompt has ended.
   */
  stream(
    rate: number,
    bytes: number,
    durationMs: number,
    team: { sessions?: number; phaseMs?: number; grid?: number } = {},
  ): Promise<z.infer<typeof streamedSchema>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error('baseline stream did not finish')),
        durationMs + (team.sessions ?? 1) * (team.phaseMs ?? 0) + 60_000,
      );
      this.waiting.set(id, (v) => {
        clearTimeout(t);
        resolve(streamedSchema.parse(v));
      });
      this.child.send({ id, command: { op: 'stream', rate, bytes, durationMs, ...team } });
    });
  }

  /** Stops the server by pid. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.send({ id: this.nextId++, command: { op: 'exit' } });
    const t = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(t);
  }
}
