import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as oldAcp from '@zed-industries/agent-client-protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';

/**
 * An older editor: Zed's `@zed-industries/agent-client-protocol` 0.4.5 (the SDK before the
 * rename), driven over the `zcode-hub acp` stdio bridge as an editor runs it. Its schema knows
 * only the first eight update kinds and types `rawInput`/`rawOutput` as objects; every message it
 * cannot parse it reports with `console.error` and a -32602 error. A prompt, a tool turn with a
 * permission, a failed turn and a `session/load` must give it none, while a current client on
 * the same session is sent the newer kinds (docs/CLIENT-PROTOCOL.md "Older clients and newer
 * update kinds").
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');

let hub: HubHarness;
let bridge: ChildProcess;
let conn: oldAcp.ClientSideConnection;
let current: AcpWsClient;
const updates: oldAcp.SessionNotification[] = [];
const folded: Array<{ method: string; params: Record<string, unknown> }> = [];
/** Everything the old SDK reported through console.error (its way of reporting a rejected message). */
const errors: unknown[][] = [];

function rejected(): unknown[][] {
  return errors.filter((args) => JSON.stringify(args, (_k, v: unknown) => (v instanceof Error ? v.message : v)).includes('-32602'));
}

beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.1'] });
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
  bridge = spawn(process.execPath, [bin, 'acp', '--state-dir', hub.stateDir], {
    env: { ...process.env, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stream = oldAcp.ndJsonStream(
    Writable.toWeb(bridge.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(bridge.stdout!) as ReadableStream<Uint8Array>,
  );
  conn = new oldAcp.ClientSideConnection(
    () => ({
      async sessionUpdate(params) {
        updates.push(params);
      },
      async requestPermission(params) {
        const allow = params.options.find((o) => o.kind === 'allow_once') ?? params.options[0]!;
        return { outcome: { outcome: 'selected', optionId: allow.optionId } };
      },
      async writeTextFile() {
        return {};
      },
      async readTextFile() {
        return { content: '' };
      },
      async extNotification(method, params) {
        folded.push({ method, params });
      },
    }),
    stream,
  );
  current = await hub.initializedClient({ name: 'current' });
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  bridge?.kill('SIGTERM');
  await hub?.close();
});

describe("Zed's older ACP SDK over the stdio bridge", () => {
  let sessionId: string;

  it('initializes the way the old SDK does (protocol 1, no clientInfo) and runs a prompt', async () => {
    const init = await conn.initialize({
      protocolVersion: oldAcp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    });
    expect(init.protocolVersion).toBe(1);
    sessionId = (await conn.newSession({ cwd: hub.workspace, mcpServers: [] })).sessionId;
    await current.request('session/resume', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const res = await conn.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello there' }] });
    expect(res.stopReason).toBe('end_turn');
    expect(updates.some((u) => u.update.sessionUpdate === 'agent_message_chunk')).toBe(true);
    expect(rejected()).toEqual([]);
  });

  it('runs a tool turn with a permission and a failed turn without a single -32602', async () => {
    const res = await conn.prompt({ sessionId, prompt: [{ type: 'text', text: 'run the tests, permission needed' }] });
    expect(res.stopReason).toBe('end_turn');
    const done = updates.find((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed');
    expect(done?.update).toMatchObject({ rawOutput: { success: true } });
    await expect(conn.prompt({ sessionId, prompt: [{ type: 'text', text: 'this one should fail' }] })).rejects.toMatchObject({
      code: -32016,
    });
    expect(rejected()).toEqual([]);
  });

  it('questions, edits, todos and sub-agents reach it without a single -32602', async () => {
    for (const text of ['a question for you', 'edit the readme', 'make a todo list', 'ask a subagent']) {
      const res = await conn.prompt({ sessionId, prompt: [{ type: 'text', text }] });
      expect(res.stopReason).toBe('end_turn');
    }
    expect(updates.some((u) => u.update.sessionUpdate === 'plan')).toBe(true);
    expect(rejected()).toEqual([]);
  });

  it('session/load replays the conversation to it without a single -32602', async () => {
    const before = updates.length;
    await conn.loadSession({ sessionId, cwd: hub.workspace, mcpServers: [] });
    const replayed = updates.slice(before);
    expect(replayed.some((u) => u.update.sessionUpdate === 'user_message_chunk')).toBe(true);
    expect(replayed.some((u) => u.update.sessionUpdate === 'tool_call')).toBe(true);
    expect(rejected()).toEqual([]);
  });

  it('the newer kinds a current client gets reach the old one folded into _zcode/session_update', async () => {
    const kinds = (list: Array<{ update: { sessionUpdate: string } }>) => new Set(list.map((u) => u.update.sessionUpdate));
    const currentKinds = kinds(
      current
        .notifications<{ sessionId: string; update: { sessionUpdate: string } }>('session/update')
        .filter((u) => u.sessionId === sessionId),
    );
    expect(currentKinds.has('usage_update')).toBe(true);
    expect(currentKinds.has('session_info_update')).toBe(true);
    const oldKinds = kinds(updates);
    expect(oldKinds.has('usage_update' as never)).toBe(false);
    const foldedKinds = kinds(
      folded.filter((f) => f.method === 'zcode/session_update').map((f) => f.params as { update: { sessionUpdate: string } }),
    );
    expect(foldedKinds.has('usage_update')).toBe(true);
    expect(foldedKinds.has('session_info_update')).toBe(true);
    expect(errors.filter((args) => String(args[0]).startsWith('Error handling'))).toEqual([]);
  });
});
