import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chooseEntry } from '../../bin/entry.js';
import { simulatorSpawnSpec } from '../../src/simulator/launcher.js';
import { repoRoot } from './daemon-process.js';

/** Longest the baseline waits for one answer of its simulator child. */
const REQUEST_TIMEOUT_MS = 30_000;
/** What the hub answers `session/requestRuntimePreferences` with (APP-SERVER.md §6.1). */
const PREFERENCES = { nativeSearchEnhancementsEnabled: true, memoryEnabled: false, askUserQuestionAutoResolutionEnabled: false };

/** One parsed line of the child's stdout (the baseline reads only the keys it needs). */
export interface ChildLine {
  id?: number | string;
  method?: string;
  params?: { sessionId?: string; type?: string; reason?: string; payload?: { kind?: string; delta?: string; assistantMessageId?: string } };
  result?: unknown;
  error?: { message?: string };
}

/**
 * The bare baseline's event source: the same simulator child the hub runs (same entry, `dist/`
 * when the hub runs from `dist/`), on the same kind of stdio pipe, driven with the least the
 * protocol needs — create a session, subscribe, send one prompt per stream. The baseline server
 * reads its stdout as the hub does (newline-delimited JSON, one `JSON.parse` per line), so both
 * sides pay for the same producer and the same pipe (same process layout).
 */
export class SimPipe {
  private nextId = 1;
  private buffered: Buffer[] = [];
  private readonly pending = new Map<
    number | string,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  /** Every line that is not an answer (events, state updates) goes here. */
  onLine: (line: ChildLine) => void = () => undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly home: string,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    child.stdin!.on('error', () => undefined);
  }

  /** Spawns the simulator with the bench stream switches the hub's child gets. */
  static start(simArgs: string[]): SimPipe {
    const fromDist = chooseEntry(repoRoot).kind === 'dist';
    const spec = fromDist
      ? { command: process.execPath, args: [path.join(repoRoot, 'dist', 'simulator', 'main.js')] }
      : simulatorSpawnSpec();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-bench-baseline-sim-'));
    const child = spawn(
      spec.command,
      [...spec.args, '--scenario', 'default', '--data-dir', path.join(dir, 'sim-data'), '--log-level', 'warn', ...simArgs],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
        env: { PATH: process.env.PATH ?? '', HOME: dir, ZCODE_DATA_BASE_DIR: dir },
      },
    );
    return new SimPipe(child, dir);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Creates and subscribes one session; returns its id. */
  async openSession(): Promise<string> {
    await this.request('runtime/capabilities', {});
    const ws = path.join(this.home, 'ws');
    fs.mkdirSync(ws, { recursive: true });
    const snap = (await this.request('session/create', { workspace: { workspacePath: ws, workspaceKey: ws } })) as {
      session?: { sessionId?: string };
    };
    const sessionId = snap.session?.sessionId;
    if (typeof sessionId !== 'string') throw new Error('simulator: session/create answered without a session id');
    await this.request('session/subscribe', { sessionId, deliveryKind: 'web-remote-replayable' });
    return sessionId;
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`simulator: no answer to ${method} in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.write({ id, method, params });
    });
  }

  /** Ends stdin (the simulator exits on EOF), then kills it by pid if it lingers. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
      this.child.stdin!.end();
      const t = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(t);
    }
    fs.rmSync(this.home, { recursive: true, force: true });
  }

  private write(message: unknown): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(0x0a, start);
    while (nl !== -1) {
      const piece = chunk.subarray(start, nl);
      const line = this.buffered.length === 0 ? piece : Buffer.concat([...this.buffered, piece]);
      this.buffered = [];
      if (line.length > 0) this.onText(line.toString('utf8'));
      start = nl + 1;
      nl = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.buffered.push(chunk.subarray(start));
  }

  private onText(text: string): void {
    let m: ChildLine;
    try {
      m = JSON.parse(text) as ChildLine;
    } catch {
      return;
    }
    if (m.method === undefined && m.id !== undefined) {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.error) p.reject(new Error(`simulator: ${m.error.message ?? 'error'}`));
      else p.resolve(m.result);
      return;
    }
    if (m.method !== undefined && m.id !== undefined) {
      // A reverse request: runtime preferences get the hub's answer, anything else "not found".
      if (m.method === 'session/requestRuntimePreferences') this.write({ id: m.id, result: PREFERENCES });
      else this.write({ id: m.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    this.onLine(m);
  }
}
