/**
 * A turn that ends other than normally leaves no tool call pending, over real sockets and the real
 * simulator child: the turn's Bash call waits on its permission when the turn is cut (the child
 * killed) or stopped, and nothing will ever answer that request. Every client attached then, and
 * one that loads the session later, sees the card closed `failed` — before the turn's end marker.
 * An editor's ACP SDK client loading such a session gets only what the SDK's own zod schemas accept.
 */
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { UNFINISHED_TOOL_MESSAGE } from '../../src/acp/open-tool-calls.js';
import { WalkPeer } from '../support/conformance-walk.js';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';

let hub: HubHarness | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

const updateSchema = z.looseObject({
  sessionId: z.string(),
  update: z.looseObject({
    sessionUpdate: z.string(),
    toolCallId: z.string().optional(),
    status: z.string().nullish(),
    _meta: z.unknown().optional(),
  }),
});
const askSchema = z.looseObject({ toolCall: z.looseObject({ toolCallId: z.string() }) });

/** What `c` saw of the session: each tool card's last status, and where the end marker came. */
function seen(c: AcpWsClient, sessionId: string) {
  const updates = c
    .notifications('session/update')
    .map((p) => updateSchema.parse(p))
    .filter((p) => p.sessionId === sessionId)
    .map((p) => p.update);
  const status: Record<string, string | undefined> = {};
  const closedAt: Record<string, number> = {};
  updates.forEach((u, i) => {
    if ((u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') || u.toolCallId === undefined) return;
    if (u.status) status[u.toolCallId] = u.status;
    if (u.status === 'failed') closedAt[u.toolCallId] = i;
  });
  const markerAt = updates.findIndex((u) => JSON.stringify(u._meta ?? {}).includes('"turnEnded"'));
  return { status, closedAt, markerAt };
}

/** The tool cards `c` shows as not finished. */
function stillOpen(c: AcpWsClient, sessionId: string): string[] {
  return Object.entries(seen(c, sessionId).status).flatMap(([id, s]) => (s === 'pending' || s === 'in_progress' ? [id] : []));
}

async function askedBash(h: HubHarness): Promise<{ a: AcpWsClient; b: AcpWsClient; sessionId: string; bashId: string }> {
  const a = await h.initializedClient({ name: 'prompter' });
  const b = await h.initializedClient({ name: 'watcher' });
  const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: h.workspace, mcpServers: [] });
  await b.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] });
  void a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'tour please' }] }).catch(() => undefined);
  const ask = await b.waitFor((msgs) => msgs.find((m) => m.method === 'session/request_permission'), 60_000, 'the permission');
  return { a, b, sessionId, bashId: askSchema.parse(ask.params).toolCall.toolCallId };
}

describe('a turn that ends other than normally leaves no tool call pending', () => {
  it('the child dies while a permission is asked: live clients and a late joiner see the Bash card failed, then the interrupted marker', async () => {
    hub = await startHub();
    const h = hub;
    const { a, b, sessionId, bashId } = await askedBash(h);
    expect(seen(b, sessionId).status[bashId]).not.toBe('failed');
    process.kill(h.daemon.backend.status().pid as number, 'SIGKILL');
    for (const c of [a, b]) {
      const view = await c.waitFor(() => {
        const v = seen(c, sessionId);
        return v.markerAt >= 0 ? v : undefined;
      });
      expect(view.status[bashId]).toBe('failed');
      expect(view.closedAt[bashId]).toBeLessThan(view.markerAt);
    }
    await until(() => h.daemon.backend.status().state === 'ready' || undefined, 'the next child ready');
    const late = await h.initializedClient({ name: 'late' });
    await late.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] });
    const replay = seen(late, sessionId);
    expect(replay.status[bashId]).toBe('failed');
    expect(replay.markerAt).toBeGreaterThan(replay.closedAt[bashId] ?? Infinity);

    // An editor over the SDK's own WebSocket stream: the close and the marker are ACP by its schemas.
    const stream = createWebSocketStream(h.wsUrl, { WebSocket: WebSocket as never, headers: { authorization: `Bearer ${h.adminToken}` } });
    const editor = new WalkPeer('editor', stream);
    try {
      await editor.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'editor', version: '1' } });
      await editor.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] });
      const closing = editor.updates(sessionId).filter((u) => u['toolCallId'] === bashId && u['status'] === 'failed');
      expect(closing).toEqual([expect.objectContaining({ _meta: { zcode: { unfinished: { message: UNFINISHED_TOOL_MESSAGE } } } })]);
      expect(editor.violations()).toEqual([]);
    } finally {
      await editor.close();
    }
  });

  it('a stop while the permission is asked: no client keeps the Bash card open', async () => {
    hub = await startHub();
    const h = hub;
    const { a, b, sessionId, bashId } = await askedBash(h);
    const before = b.notifications('_zcode/turn_state').length;
    a.notify('session/cancel', { sessionId });
    await b.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.state === 'idle',
      undefined,
      before,
    );
    for (const c of [a, b]) {
      expect(seen(c, sessionId).status[bashId]).toBe('failed');
      expect(stillOpen(c, sessionId)).toEqual([]);
    }
    const late = await h.initializedClient({ name: 'late' });
    await late.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] });
    // The agent's history of a stopped turn may keep the call or drop it; it never shows it open.
    expect(stillOpen(late, sessionId)).toEqual([]);
  });
});
