/**
 * A request this device holds, answered on another device: the hub withdraws the copy
 * (`$/cancel_request`) and then tells every attached device who answered
 * (`_zcode/interaction_resolved`). The phone shows one toast, the one naming who — not "Answered
 * on another device" followed the same second by "Answered by …". A real HubClient against a
 * scripted hub on a real socket; every toast the store ever held is recorded.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { HubClient } from '../../web/src/hub/hub-client.js';
import { ScriptedHub, type Frame } from '../helpers/scripted-hub.js';
import { until } from '../helpers/until.js';
import { stubPageGlobals } from '../helpers/page-globals.js';

let hub: ScriptedHub;
let client: HubClient;
let shown: string[];
let off: () => void;

beforeEach(async () => {
  hub = new ScriptedHub();
  await until(() => (hub.server.address() ? true : undefined), 'the server listening');
  stubPageGlobals();
  store.update((s) => ({ ...s, chats: {}, sessions: {}, toasts: [], interactions: {} }));
  shown = [];
  off = store.subscribe(() => {
    for (const toast of store.get().toasts) if (!shown.includes(toast.text)) shown.push(toast.text);
  });
  client = new HubClient(hub.url);
});
afterEach(async () => {
  off();
  client.conn.stop();
  vi.unstubAllGlobals();
  await hub.close();
});

const answer = (req: Frame, result: unknown) => hub.send({ jsonrpc: '2.0', id: req.id, result });
const notify = (method: string, params: unknown) => hub.send({ jsonrpc: '2.0', method, params });

describe('a request answered on another device', () => {
  it('shows one toast, naming who answered', async () => {
    client.start();
    answer(await hub.request('initialize'), { protocolVersion: 1 });
    answer(await hub.request('session/list'), { sessions: [] });
    answer(await hub.request('_zcode/interactions/list'), { interactions: [] });
    await until(() => (client.conn.status === 'online' ? true : undefined), 'online');

    hub.send({
      jsonrpc: '2.0',
      id: 'perm-1',
      method: 'session/request_permission',
      params: {
        sessionId: 's1',
        toolCall: { toolCallId: 't1', title: 'Run ls' },
        options: [{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' }],
        _meta: { zcode: { interactionId: 'ix1' } },
      },
    });
    await until(() => store.get().interactions['ix1'], 'the request held');

    notify('$/cancel_request', { requestId: 'perm-1' });
    // The copy is dismissed back to the hub once it is withdrawn.
    await until(() => hub.frames.find((f) => f.id === 'perm-1'), 'the withdrawn copy dismissed');
    notify('_zcode/interaction_resolved', {
      sessionId: 's1',
      interactionId: 'ix1',
      state: 'resolved',
      outcome: 'allow',
      resolvedBy: { name: 'bob · Bob phone', device: 'Bob phone' },
    });
    await until(() => (shown.length > 0 ? true : undefined), 'a toast');
    // Everything the hub sent is read by now: one more round trip on the same socket.
    const listed = client.refreshSessions();
    answer(await hub.request('session/list', 1), { sessions: [] });
    await listed;

    expect(shown).toEqual(['Answered by bob · Bob phone']);
    expect(store.get().interactions['ix1']).toBeUndefined();
  });
});
