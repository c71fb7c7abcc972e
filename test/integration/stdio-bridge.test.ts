import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAdminToken } from '../../src/auth/admin-token.js';
import { readHubFile } from '../../src/daemon/state-files.js';
import { processAlive } from '../../src/fs/process-alive.js';
import { AcpWsClient } from '../helpers/acp-ws-client.js';
import { until } from '../helpers/until.js';

/**
 * `zcode-hub acp` as an editor runs it: a child process on stdio, driven by the official ACP
 * SDK client, against a daemon in its own process — which is then killed under it.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-bridge-'));
const stateDir = path.join(tmp, 'state');
const workspace = path.join(tmp, 'workspace');
fs.mkdirSync(workspace, { recursive: true });
const env = { ...process.env, HOME: tmp, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'warn' };
const startFlags = ['--backend', 'sim', '--port', '0', '--workspace', workspace, '--provider-file', path.join(tmp, 'provider.json')];

async function daemonReady(): Promise<{ pid: number; url: string }> {
  return until(async () => {
    const hub = readHubFile(stateDir);
    if (!hub || !processAlive(hub.pid)) return undefined;
    try {
      const res = await fetch(`${hub.url}/api/health`, { headers: { accept: 'application/json' } });
      const body = (await res.json()) as { backend: { state: string } };
      return body.backend.state === 'ready' ? { pid: hub.pid, url: hub.url } : undefined;
    } catch {
      return undefined;
    }
  }, 'the daemon');
}

let daemon: ChildProcess;
let bridge: ChildProcess;
const updates: SessionNotification[] = [];
const permissionAsks: RequestPermissionRequest[] = [];
let releasePermission: ((r: RequestPermissionResponse) => void) | undefined;
/** Set when the hub withdraws the editor's permission dialog (`$/cancel_request` aborts the handler). */
let permissionWithdrawn = false;
let agent: ReturnType<ReturnType<typeof client>['connect']>['agent'];
let stderr = '';

beforeAll(async () => {
  daemon = spawn(process.execPath, [bin, 'start', '--state-dir', stateDir, ...startFlags], { env, stdio: 'ignore' });
  await daemonReady();
  bridge = spawn(process.execPath, [bin, 'acp', '--state-dir', stateDir, ...startFlags], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  bridge.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const stream = ndJsonStream(
    Writable.toWeb(bridge.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(bridge.stdout!) as ReadableStream<Uint8Array>,
  );
  const app = client()
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', ({ params, signal }) => {
      permissionAsks.push(params);
      signal.addEventListener('abort', () => {
        permissionWithdrawn = true;
        releasePermission?.({ outcome: { outcome: 'cancelled' } });
      });
      // The editor's user does not answer: a teammate on another client does (below).
      return new Promise<RequestPermissionResponse>((resolve) => (releasePermission = resolve));
    });
  agent = app.connect(stream).agent;
}, 60_000);

afterAll(async () => {
  bridge?.kill('SIGTERM');
  const hub = readHubFile(stateDir);
  if (hub && processAlive(hub.pid)) process.kill(hub.pid, 'SIGTERM');
  if (daemon?.exitCode === null) daemon.kill('SIGTERM');
  await until(() => (readHubFile(stateDir) ? undefined : true), 'daemon exit', 15_000).catch(() => undefined);
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('zcode-hub acp (stdio bridge) driven by the official ACP SDK client', () => {
  let sessionId: string;

  /** Resolves once the agent streams text among the updates after the first `before`. */
  const streamingSince = (before: number) =>
    until(() => (updates.slice(before).some((u) => u.update.sessionUpdate === 'agent_message_chunk') ? true : undefined), 'streaming');

  /** Prompts until a prompt goes through: the bridge has a daemon again and has re-attached the session. */
  const promptOnceBack = (text: string) =>
    until(
      async () => {
        try {
          return await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
        } catch {
          return undefined;
        }
      },
      'a prompt after the restart',
      45_000,
    );

  it('initializes, creates a session and streams a prompt turn', async () => {
    const init = await agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: 'editor', version: '1' },
    });
    expect(init.agentCapabilities?.loadSession).toBe(true);
    sessionId = (await agent.request('session/new', { cwd: workspace, mcpServers: [] })).sessionId;
    const res = await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello through the bridge' }] });
    expect(res.stopReason).toBe('end_turn');
    expect(updates.some((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')).toBe(true);
  });

  it('a permission asked through the bridge is answered by a second client on the WebSocket; the editor sees it withdrawn', async () => {
    const hub = readHubFile(stateDir)!;
    const teammate = await AcpWsClient.connect(`${hub.url.replace(/^http/, 'ws')}/acp`, { token: readAdminToken(stateDir)! });
    try {
      await teammate.initialize({ name: 'teammate' });
      await teammate.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
      const turn = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run it, permission please' }] });
      const req = await teammate.waitForRequest('session/request_permission');
      await until(() => (permissionAsks.length === 1 ? true : undefined), 'the editor to be asked too');
      teammate.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
      expect((await turn).stopReason).toBe('end_turn');
      // The hub withdrew the editor's copy; the teammate's prompt echo reached the editor live.
      const resolved = await teammate.waitForNotification<{ interactionId: string; resolvedBy?: { name: string; client?: string } }>(
        '_zcode/interaction_resolved',
      );
      expect(resolved.resolvedBy).toMatchObject({ name: 'admin', person: 'admin', client: 'teammate' });
      await until(() => (permissionWithdrawn ? true : undefined), "the editor's dialog to be withdrawn");
    } finally {
      await teammate.close();
    }
  });

  it('[POL-06] approval rules hold through the bridge: a localOnly admin rule offers it to the editor, not to a proxied teammate', async () => {
    const hub = readHubFile(stateDir)!;
    const admin = readAdminToken(stateDir)!;
    const setRules = (rules: unknown[]) =>
      fetch(`${hub.url}/api/policy`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ rules }),
      });
    expect(
      (await setRules([{ id: 'here', match: { kind: 'execute' }, decide: 'ask', approvers: { scopes: ['admin'] }, localOnly: true }]))
        .status,
    ).toBe(200);
    // The same admin token, but through a proxy: not on this machine.
    const teammate = await AcpWsClient.connect(`${hub.url.replace(/^http/, 'ws')}/acp`, {
      token: admin,
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    try {
      await teammate.initialize({ name: 'via-tunnel' });
      await teammate.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
      const asked = permissionAsks.length;
      const turn = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'permission please' }] });
      const seen = await teammate.waitForNotification<{ interaction: { approval?: { waitingFor: string } } }>('_zcode/interaction_opened');
      expect(seen.interaction.approval?.waitingFor).toBe('waiting for an admin on this machine');
      await until(() => (permissionAsks.length === asked + 1 ? true : undefined), 'the editor (local, through the bridge) to be asked');
      releasePermission?.({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      expect((await turn).stopReason).toBe('end_turn');
      expect(teammate.requests('session/request_permission')).toHaveLength(0);
    } finally {
      await teammate.close();
      await setRules([]);
    }
  });

  it('session/cancel through the bridge stops a running turn', async () => {
    const before = updates.length;
    const turn = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'be slow' }] });
    await streamingSince(before);
    await agent.notify('session/cancel', { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
  });

  it('$/cancel_request through the bridge withdraws the editor’s queued prompt alone; the turn in front runs on', async () => {
    const hub = readHubFile(stateDir)!;
    const watcher = await AcpWsClient.connect(`${hub.url.replace(/^http/, 'ws')}/acp`, { token: readAdminToken(stateDir)! });
    try {
      await watcher.initialize({ name: 'watcher' });
      await watcher.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
      const before = updates.length;
      const turn = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'be slow' }] });
      await streamingSince(before);
      const withdraw = new AbortController();
      const queued = agent.request(
        'session/prompt',
        { sessionId, prompt: [{ type: 'text', text: 'queued in the editor' }] },
        { cancellationSignal: withdraw.signal },
      );
      await watcher.waitForNotification<{ sessionId: string; queue: unknown[] }>(
        '_zcode/turn_state',
        (p) => p.sessionId === sessionId && p.queue.length === 1,
      );
      withdraw.abort();
      expect((await queued).stopReason).toBe('cancelled');
      expect((await turn).stopReason).toBe('end_turn');
    } finally {
      await watcher.close();
    }
  });

  it('survives the daemon being killed: it brings a daemon back, re-attaches and the session keeps working', async () => {
    const first = readHubFile(stateDir)!;
    process.kill(first.pid, 'SIGKILL');
    // The bridge notices, starts a daemon itself (none runs), re-initializes and resumes the session.
    const second = await until(
      async () => {
        const d = await daemonReady().catch(() => undefined);
        return d && d.pid !== first.pid ? d : undefined;
      },
      'a new daemon',
      45_000,
    );
    expect(second.pid).not.toBe(first.pid);
    const res = await promptOnceBack('still there?');
    expect(res.stopReason).toBe('end_turn');
    expect(bridge.exitCode).toBeNull();
    expect(stderr).not.toMatch(/cannot reach the daemon/);
  }, 120_000);

  it('[REC-05] the daemon stopped mid-turn: the editor’s prompt is answered that the hub is shutting down, and the bridge carries on', async () => {
    const before = updates.length;
    const turn = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'be slow' }] }).then(
      () => 'ended',
      (e: unknown) => (e as Error).message,
    );
    await streamingSince(before);
    const running = readHubFile(stateDir)!;
    process.kill(running.pid, 'SIGTERM');
    expect(await turn).toMatch(/The hub is shutting down/);
    const res = await promptOnceBack('back again?');
    expect(res.stopReason).toBe('end_turn');
    expect(bridge.exitCode).toBeNull();
  }, 120_000);
});
