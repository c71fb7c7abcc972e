/**
 * ACP's `$/cancel_request` (protocol "Cancellation"): a client withdraws one of its own requests by
 * id. For `session/prompt` the hub takes a prompt that still waits in the queue out of it — answered
 * once, `stopReason: "cancelled"`, never sent to the agent, the queue everyone sees without it — and
 * leaves a prompt already running alone (`session/cancel` stops turns). Ids are per connection:
 * another client naming the same id withdraws nothing. Real sockets, the real simulator child.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.4'] });
});
afterAll(async () => {
  await hub?.close();
});

const text = (t: string) => [{ type: 'text', text: t }];
type TurnState = { sessionId: string; state: string; queue: Array<{ preview?: string }> };

/** The last `_zcode/turn_state` of `sessionId` `c` has seen. */
const lastState = (c: AcpWsClient, sessionId: string) =>
  c
    .notifications<TurnState>('_zcode/turn_state')
    .filter((p) => p.sessionId === sessionId)
    .at(-1);

describe('$/cancel_request for a session/prompt', () => {
  it('withdraws the prompt while it waits: answered cancelled once, never run, the queue without it; not by another client', async () => {
    const a = await hub.initializedClient({ name: 'prompter' });
    const b = await hub.initializedClient({ name: 'watcher' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await b.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });

    const first = a.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: text('slow please') });
    await b.waitFor(() => (lastState(b, sessionId)?.state === 'running' ? true : undefined), 20_000, 'the turn running');
    a.sendJson({ jsonrpc: '2.0', id: 'queued-1', method: 'session/prompt', params: { sessionId, prompt: text('withdraw me') } });
    await b.waitFor(() => (lastState(b, sessionId)?.queue.length === 1 ? true : undefined), 20_000, 'the prompt queued');

    // Another connection's id space: b's cancel of "queued-1" is not a's request.
    b.notify('$/cancel_request', { requestId: 'queued-1' });
    // A malformed one is ignored too.
    a.notify('$/cancel_request', { requestId: { nested: true } });
    await b.request('session/list', {});
    await a.request('session/list', {});
    expect(lastState(b, sessionId)?.queue.map((q) => q.preview)).toEqual(['withdraw me']);
    expect(a.messages.some((m) => m.id === 'queued-1')).toBe(false);

    a.notify('$/cancel_request', { requestId: 'queued-1' });
    const answer = await a.waitFor(() => a.messages.find((m) => m.id === 'queued-1' && m.method === undefined), 20_000, 'the answer');
    expect(answer).toMatchObject({ result: { stopReason: 'cancelled' } });
    await b.waitFor(() => (lastState(b, sessionId)?.queue.length === 0 ? true : undefined), 20_000, 'the queue without it');

    // The turn in front runs on to its end; the withdrawn prompt never ran, and is answered once.
    expect((await first).stopReason).toBe('end_turn');
    a.notify('$/cancel_request', { requestId: 'queued-1' });
    await a.request('session/list', {});
    expect(a.messages.filter((m) => m.id === 'queued-1')).toHaveLength(1);
    const echoed = b
      .journaled<{ update: { sessionUpdate: string; content?: { text?: string } } }>()
      .filter((u) => u.update.sessionUpdate === 'user_message_chunk')
      .map((u) => u.update.content?.text);
    expect(echoed).toEqual(['slow please']);

    // Audited as the prompter's, with the prompt it withdrew.
    const audit = (await (await hub.api('/api/audit?limit=500')).json()) as {
      entries: Array<{ action: string; sessionId?: string; detail?: { withdrawn?: boolean } }>;
    };
    expect(audit.entries.filter((e) => e.sessionId === sessionId && e.action === 'cancel' && e.detail?.withdrawn)).toHaveLength(1);
  });

  it('leaves a prompt already running alone: it ends with its turn', async () => {
    const a = await hub.initializedClient({ name: 'prompter' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    a.sendJson({ jsonrpc: '2.0', id: 7, method: 'session/prompt', params: { sessionId, prompt: text('hello there') } });
    await a.waitFor(() => (lastState(a, sessionId)?.state === 'running' ? true : undefined), 20_000, 'the turn running');
    a.notify('$/cancel_request', { requestId: 7 });
    const answer = await a.waitFor(() => a.messages.find((m) => m.id === 7 && m.method === undefined), 30_000, 'the answer');
    expect(answer).toMatchObject({ result: { stopReason: 'end_turn' } });
  });
});
