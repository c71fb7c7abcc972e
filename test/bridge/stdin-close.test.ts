import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAdminToken } from '../../src/auth/admin-token.js';
import { statePaths } from '../../src/config/state-paths.js';
import { readHubFile } from '../../src/daemon/state-files.js';
import { processAlive } from '../../src/fs/process-alive.js';
import { ready } from '../daemon/process-helpers.js';
import { AcpWsClient, type HubRequest } from '../helpers/acp-ws-client.js';
import { until } from '../helpers/until.js';

/**
 * `zcode-hub acp` ends when the editor closes its stdin — connected, still starting, or
 * reconnecting — or its stdout, with code 0, and leaves the daemon and the turns it runs alone. Real processes:
 * the bridge and the daemon each in their own, the editor's side written as ACP lines on stdin.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-stdin-close-'));
const stateDir = path.join(tmp, 'state');
const workspace = path.join(tmp, 'workspace');
fs.mkdirSync(workspace, { recursive: true });
fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
const env = { ...process.env, HOME: tmp, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'warn' };
const flags = ['--backend', 'sim', '--port', '0', '--workspace', workspace, '--provider-file', path.join(tmp, 'provider.json')];
/** The lock an editor starting the daemon holds (src/bridge/daemon-launcher.ts): held here, no bridge can start one. */
const startLock = path.join(stateDir, 'acp-start.lock');
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  const hub = readHubFile(stateDir);
  if (hub && processAlive(hub.pid)) process.kill(hub.pid, 'SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Bridge {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  send(message: Record<string, unknown>): void;
}

function startBridge(): Bridge {
  const child = spawn(process.execPath, [bin, 'acp', '--state-dir', stateDir, ...flags], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    send: (message) => child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
  };
}

/** The JSON-RPC result the bridge wrote for request `id`. */
function resultOf(b: Bridge, id: number): Record<string, unknown> | undefined {
  for (const line of b.stdout().split('\n')) {
    if (line.trim() === '') continue;
    const msg = JSON.parse(line) as { id?: unknown; method?: string; result?: Record<string, unknown> };
    if (msg.id === id && msg.method === undefined) return msg.result ?? {};
  }
  return undefined;
}

describe('the stdio bridge ends when its stdin closes', () => {
  it('while it waits for a daemon another editor is starting: exit 0, not "cannot reach the daemon" once the wait runs out', async () => {
    fs.writeFileSync(startLock, `${process.pid}\n`, { mode: 0o600 });
    try {
      const bridge = startBridge();
      bridge.child.stdin!.end();
      expect(await bridge.exited).toEqual({ code: 0, signal: null });
      expect(bridge.stderr()).not.toContain('cannot reach the daemon');
    } finally {
      fs.rmSync(startLock, { force: true });
    }
  }, 60_000);

  it('while connected with a turn waiting on a permission: exit 0, the daemon and the turn live on', async () => {
    const daemon = spawn(process.execPath, [bin, 'start', '--state-dir', stateDir, ...flags], { env, stdio: 'ignore' });
    children.push(daemon);
    const { pid } = await ready(stateDir);
    const bridge = startBridge();
    bridge.send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
    await until(() => resultOf(bridge, 1), 'initialize through the bridge');
    bridge.send({ id: 2, method: 'session/new', params: { cwd: workspace, mcpServers: [] } });
    const { sessionId } = (await until(() => resultOf(bridge, 2), 'session/new')) as { sessionId: string };

    const token = readAdminToken(stateDir) as string;
    const teammate = await AcpWsClient.connect(`${readHubFile(stateDir)!.url.replace(/^http/, 'ws')}/acp`, { token });
    try {
      await teammate.initialize({ name: 'teammate' });
      await teammate.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
      bridge.send({
        id: 3,
        method: 'session/prompt',
        params: { sessionId, prompt: [{ type: 'text', text: 'run the tests, permission needed' }] },
      });
      const ask = await teammate.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
      await until(() => (bridge.stdout().includes('"session/request_permission"') ? true : undefined), 'the editor asked too');

      bridge.child.stdin!.end();
      expect(await bridge.exited).toEqual({ code: 0, signal: null });
      expect(processAlive(pid)).toBe(true);
      // The turn the editor started still waits for its answer, and finishes once the teammate gives it.
      const allow = (ask.params.options as Array<{ optionId: string; kind: string }>).find((o) => o.kind === 'allow_once');
      teammate.answer((ask as HubRequest).id, { outcome: { outcome: 'selected', optionId: allow!.optionId } });
      // The tool it asked about runs (its card completes) and the turn ends normally.
      await until(
        () =>
          teammate
            .journaled<{ sessionId: string; update: { sessionUpdate: string; toolCallId?: string; status?: string } }>()
            .find((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed'),
        'the tool to run',
      );
      const ended = await until(() => {
        const states = teammate
          .notifications<{ sessionId: string; state: string }>('_zcode/turn_state')
          .filter((n) => n.sessionId === sessionId);
        const ran = states.findIndex((n) => n.state === 'running');
        return ran >= 0 && states.at(-1)?.state === 'idle' ? true : undefined;
      }, 'the turn to end');
      expect(ended).toBe(true);
    } finally {
      await teammate.close();
    }
  }, 90_000);

  it("when the editor closes the bridge's stdout instead: exit 0 at its next line, no EPIPE crash, the daemon lives on", async () => {
    const { pid } = readHubFile(stateDir)!;
    const bridge = startBridge();
    bridge.send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
    await until(() => resultOf(bridge, 1), 'initialize through the bridge');
    // The editor stops reading: the bridge's next write to stdout fails with EPIPE.
    bridge.child.stdout!.destroy();
    bridge.send({ id: 2, method: 'session/list', params: {} });
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
    expect(bridge.stderr()).not.toContain('Error: write EPIPE');
    expect(bridge.stderr()).not.toContain('Unhandled');
    expect(processAlive(pid)).toBe(true);
  }, 60_000);

  it('while reconnecting to a daemon that went away: exit 0 at once, not after the wait for a new daemon', async () => {
    const bridge = startBridge();
    bridge.send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
    await until(() => resultOf(bridge, 1), 'initialize through the bridge');
    // Another editor is starting the daemon: the bridge can only wait for it (up to 20 s per try).
    fs.writeFileSync(startLock, `${process.pid}\n`, { mode: 0o600 });
    try {
      // The daemon goes away together with its hub.json, so the bridge's first reconnect finds no
      // daemon and, the start lock being held, waits for the other editor's.
      const { pid } = readHubFile(stateDir)!;
      fs.rmSync(statePaths(stateDir).hubFile);
      process.kill(pid, 'SIGKILL');
      await until(() => (bridge.stderr().includes('reconnecting') ? true : undefined), 'the bridge to notice');
      bridge.child.stdin!.end();
      // Well inside the 20 s the bridge would otherwise wait for a daemon before looking at stdin again.
      const exit = await until(() => (bridge.child.exitCode === null ? undefined : bridge.child.exitCode), 'the bridge to exit', 10_000);
      expect(exit).toBe(0);
    } finally {
      fs.rmSync(startLock, { force: true });
    }
  }, 60_000);
});
