/**
 * Test helper: spawns the simulator as a real child process (through its launcher) and speaks
 * raw ndjson. Reusable by any suite: requests, notifications, reverse requests, raw lines.
 *
 *   const sim = await SimClient.start({ args: ['--reannounce-scale', '0.01'] });
 *   const snap = await sim.createSession();            // answers requestRuntimePreferences
 *   await sim.call('session/subscribe', {...});
 *   await sim.waitFor((m) => m.method === 'session/event' && …);
 *   await sim.close();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simulatorSpawnSpec } from '../../src/simulator/launcher.js';

export type Json = Record<string, any>;
export type Message = Json;
/** Answers a reverse request: return `{result}` or `{error}`, or `undefined` to leave it unanswered. */
export type ReverseHandler = (
  msg: Message,
) => { result: unknown } | { error: { code: number; message: string; data?: unknown } } | undefined;

export interface StartOptions {
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** Reuse a home/data dir (restart tests); a fresh temp dir otherwise. */
  home?: string;
  /** Default: answer runtime preferences with the §6.1 recommended answer, everything else -32601. */
  onReverse?: ReverseHandler;
  /** Start without waiting for the ready probe (fault tests that exit at once). */
  noProbe?: boolean;
}

export const RECOMMENDED_PREFERENCES = {
  nativeSearchEnhancementsEnabled: true,
  memoryEnabled: false,
  askUserQuestionAutoResolutionEnabled: false,
};

export const defaultReverse: ReverseHandler = (m) =>
  m.method === 'session/requestRuntimePreferences'
    ? { result: RECOMMENDED_PREFERENCES }
    : { error: { code: -32601, message: 'Method not found' } };

export class SimClient {
  readonly messages: Message[] = [];
  readonly rawLines: string[] = [];
  stderr = '';
  exitCode: number | null | undefined;
  private nextId = 1;
  private buffer = '';
  private readonly waiters = new Set<{ pred: (m: Message) => boolean; resolve: (m: Message) => void }>();
  private readonly exited: Promise<number | null>;
  onReverse: ReverseHandler;

  private constructor(
    readonly child: ChildProcess,
    readonly home: string,
    onReverse: ReverseHandler,
  ) {
    this.onReverse = onReverse;
    child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    // Writes racing a dead child (crash / kill tests) fail with EPIPE; that is expected here.
    child.stdin!.on('error', () => undefined);
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-200_000);
    });
    this.exited = new Promise((resolve) =>
      child.on('exit', (code) => {
        this.exitCode = code;
        resolve(code);
      }),
    );
  }

  /** Spawns the simulator with temp HOME / ZCODE_DATA_BASE_DIR / --data-dir. */
  static async start(options: StartOptions = {}): Promise<SimClient> {
    const home = options.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-sim-'));
    const spec = simulatorSpawnSpec(['--data-dir', path.join(home, 'sim-data'), '--log-level', 'warn', ...(options.args ?? [])]);
    const child = spawn(spec.command, spec.args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env['PATH'] ?? '', HOME: home, ZCODE_DATA_BASE_DIR: home, ...options.env },
    });
    const c = new SimClient(child, home, options.onReverse ?? defaultReverse);
    if (!options.noProbe) await c.call('runtime/capabilities', {});
    return c;
  }

  private onData(chunk: Buffer): void {
    this.buffer += chunk.toString('latin1');
    let nl = this.buffer.indexOf('\n');
    while (nl !== -1) {
      const raw = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      nl = this.buffer.indexOf('\n');
      const line = Buffer.from(raw, 'latin1').toString('utf8').trim();
      if (line === '') continue;
      this.rawLines.push(line);
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      if (!msg || typeof msg !== 'object' || Array.isArray(msg)) continue;
      this.dispatch(msg as Message);
    }
  }

  private dispatch(m: Message): void {
    this.messages.push(m);
    if (typeof m.method === 'string' && m.id !== undefined) {
      const answer = this.onReverse(m);
      if (answer) this.send({ id: m.id, ...answer });
    }
    for (const w of [...this.waiters]) {
      if (w.pred(m)) {
        this.waiters.delete(w);
        w.resolve(m);
      }
    }
  }

  /** Bytes of stdout received but not yet terminated by a newline. */
  get pendingBytes(): number {
    return this.buffer.length;
  }

  send(message: object): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  sendRaw(text: string | Buffer): void {
    this.child.stdin!.write(text);
  }

  /** Sends a request and resolves with the whole response message (`result` or `error`). */
  request(method: string, params?: unknown, id: string | number = this.nextId++): Promise<Message> {
    const p = this.waitFor(
      (m) => m.id === id && m.method === undefined && ('result' in m || 'error' in m),
      20_000,
      `response to ${method}`,
    );
    this.send(params === undefined ? { id, method } : { id, method, params });
    return p;
  }

  /** Sends a request and returns its result; throws on an error response. */
  async call(method: string, params?: unknown): Promise<any> {
    const r = await this.request(method, params);
    if (r.error) throw Object.assign(new Error(`${method}: ${r.error.message}`), { rpc: r.error });
    return r.result;
  }

  /** Resolves with the first message (already received or future) that matches. */
  waitFor(pred: (m: Message) => boolean, timeoutMs = 20_000, what = 'message', fromIndex = 0): Promise<Message> {
    const hit = this.messages.slice(fromIndex).find(pred);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const w = { pred, resolve: (m: Message) => (clearTimeout(t), resolve(m)) };
      const t = setTimeout(() => {
        this.waiters.delete(w);
        reject(new Error(`timed out waiting for ${what}; stderr tail: ${this.stderr.slice(-500)}`));
      }, timeoutMs);
      this.waiters.add(w);
    });
  }

  /** Waits for a future message only (ignores what was already received). */
  next(pred: (m: Message) => boolean, timeoutMs = 20_000, what = 'message'): Promise<Message> {
    return this.waitFor(pred, timeoutMs, what, this.messages.length);
  }

  /** Session events of one session, in arrival order. */
  events(sessionId: string, type?: string): Json[] {
    return this.messages
      .filter((m) => m.method === 'session/event' && m.params.sessionId === sessionId && (type === undefined || m.params.type === type))
      .map((m) => m.params);
  }

  /** `state.updated` notification with a reason. */
  waitState(sessionId: string, reason: string, fromIndex = 0): Promise<Message> {
    return this.waitFor(
      (m) => m.method === 'state.updated' && m.params.sessionId === sessionId && m.params.reason === reason,
      20_000,
      `state.updated ${reason}`,
      fromIndex,
    );
  }

  /** Creates a session in a temp workspace and returns the snapshot. */
  async createSession(params: Json = {}): Promise<any> {
    const ws = params.workspace ?? { workspacePath: path.join(this.home, 'ws'), workspaceKey: path.join(this.home, 'ws') };
    return this.call('session/create', { workspace: ws, ...params });
  }

  /** Create + subscribe; returns the session id. */
  async openSession(params: Json = {}, deliveryKind = 'web-remote-replayable'): Promise<string> {
    const snap = await this.createSession(params);
    const sessionId: string = snap.session.sessionId;
    await this.call('session/subscribe', { sessionId, deliveryKind });
    return sessionId;
  }

  /** Sends a prompt and waits for the matching `prompt_completed` / `prompt_failed`. */
  async prompt(sessionId: string, content: string): Promise<Message> {
    const from = this.messages.length;
    await this.call('session/send', { sessionId, content });
    return this.waitFor(
      (m) =>
        m.method === 'state.updated' &&
        m.params.sessionId === sessionId &&
        (m.params.reason === 'prompt_completed' || m.params.reason === 'prompt_failed'),
      30_000,
      'prompt end',
      from,
    );
  }

  signal(sig: NodeJS.Signals): void {
    this.child.kill(sig);
  }

  waitExit(timeoutMs = 10_000): Promise<number | null> {
    return Promise.race([
      this.exited,
      new Promise<number | null>((_, reject) => setTimeout(() => reject(new Error('child did not exit')), timeoutMs)),
    ]);
  }

  /** Ends stdin, waits for exit, kills if needed; removes the temp home unless kept. */
  async close(keepHome = false): Promise<void> {
    if (this.exitCode === undefined) {
      this.child.stdin!.end();
      try {
        await this.waitExit(5_000);
      } catch {
        this.child.kill('SIGKILL');
        await this.exited;
      }
    }
    if (!keepHome) fs.rmSync(this.home, { recursive: true, force: true });
  }
}
