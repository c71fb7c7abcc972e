import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { replySchema, reportSchema, type Command, type LoadReport } from './ipc-schema.js';

const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** A bundle of bench/load-client.ts to run instead of the source through tsx (the unit suites build one: test/helpers/bundle.global.ts). */
export const LOAD_ENTRY_ENV = 'ZCODE_HUB_BENCH_LOAD_ENTRY';

/**
 * The runner's handle on a load-client process (bench/load-client.ts): typed commands over IPC,
 * each with its own deadline so a stuck client process can never hang the bench.
 */
export class LoadDriver {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private exited = false;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (raw: unknown) => {
      const reply = replySchema.safeParse(raw);
      if (!reply.success) return;
      const w = this.waiting.get(reply.data.id);
      if (!w) return;
      this.waiting.delete(reply.data.id);
      if (reply.data.ok) w.resolve(reply.data.value);
      else w.reject(new Error(`load client: ${reply.data.error ?? 'failed'}`));
    });
    child.on('exit', () => {
      this.exited = true;
      for (const w of this.waiting.values()) w.reject(new Error('load client exited'));
      this.waiting.clear();
    });
  }

  /** Spawns the load process and waits for its ready message. */
  static async start(): Promise<LoadDriver> {
    const bundled = process.env[LOAD_ENTRY_ENV];
    const child = fork(bundled ?? path.join(benchDir, 'load-client.ts'), [], {
      execArgv: [...(process.env.BENCH_LOAD_NODE_ARGS ?? '').split(' ').filter(Boolean), ...(bundled ? [] : ['--import', 'tsx'])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('load client did not start in 30 s')), 30_000);
      child.once('message', () => {
        clearTimeout(t);
        resolve();
      });
      child.once('exit', (code) => reject(new Error(`load client exited early (${code})`)));
    });
    return new LoadDriver(child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends a command; rejects after `timeoutMs`. */
  send(command: Command, timeoutMs = 120_000): Promise<unknown> {
    if (this.exited) return Promise.reject(new Error('load client exited'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`load client: ${command.op} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (v) => {
          clearTimeout(t);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(t);
          reject(e);
        },
      });
      this.child.send({ id, command });
    });
  }

  /** Sends a command and parses its answer with `schema`. */
  async call<S extends z.ZodType>(schema: S, command: Command, timeoutMs?: number): Promise<z.infer<S>> {
    return schema.parse(await this.send(command, timeoutMs));
  }

  /** The aggregate report of a set of clients. */
  report(clients: 'all' | number[] = 'all'): Promise<LoadReport> {
    return this.call(reportSchema, { op: 'report', clients });
  }

  /** Ends the process (asks first, then kills it by pid after a grace period). */
  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
    void this.send({ op: 'exit' }, 5_000).catch(() => undefined);
    const t = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(t);
  }
}
