/**
 * The web app's notification dispatch (web/src/hub/hub-events.ts): each method reaches its own
 * handler and lands in the app's store; what the table does not name, and params that are not
 * an object, change nothing and throw nothing. The HubClient is real but never started (no
 * socket): these handlers only read its bookkeeping.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { applySessionUpdate, emptyChat } from '../../web/src/hub/chat-reducer.js';
import { HubClient } from '../../web/src/hub/hub-client.js';
import { handleNotification } from '../../web/src/hub/hub-events.js';
import { api } from '../../web/src/net/rest.js';

const SID = 'sess_1';
let client: HubClient;

beforeEach(() => {
  client = new HubClient('ws://127.0.0.1:9/acp');
  store.update((s) => ({ ...s, chats: { [SID]: emptyChat(SID) }, presence: {}, interactions: {}, toasts: [], backend: undefined }));
});

const update = {
  sessionId: SID,
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hello' } },
  _meta: { zcode: { seq: 1, epoch: 'e1' } },
};

describe('hub notifications, one handler per method', () => {
  it('applies a session/update to the chat it names', () => {
    handleNotification(client, 'session/update', update);
    expect(store.get().chats[SID]).toEqual(applySessionUpdate(emptyChat(SID), update));
  });

  it('holds a session update and a turn state back while that session attaches, in arrival order', () => {
    client.attaching.set(SID, []);
    const turn = { sessionId: SID, state: 'running', queue: [] };
    handleNotification(client, '_zcode/own_update', update);
    handleNotification(client, '_zcode/turn_state', turn);
    expect(client.attaching.get(SID)).toEqual([
      { method: '_zcode/own_update', params: update },
      { method: '_zcode/turn_state', params: turn },
    ]);
    expect(store.get().chats[SID]).toEqual(emptyChat(SID));
  });

  it('sets presence, backend state and an opened interaction from their notifications', () => {
    handleNotification(client, '_zcode/presence', {
      sessionId: SID,
      clients: [{ clientId: 'c1', name: 'Ana · phone', scope: 'operate', profile: 'web', role: 'controller' }, { name: 'no id' }],
    });
    handleNotification(client, '_zcode/backend_state', { state: 'restarting', epoch: 'e2', restarts: 1, nextRetryMs: 500 });
    handleNotification(client, '_zcode/interaction_opened', {
      sessionId: SID,
      interaction: { interactionId: 'ix1', sessionId: SID, kind: 'permission', title: 'Run ls' },
    });
    const s = store.get();
    expect(s.presence[SID]).toEqual([{ clientId: 'c1', name: 'Ana · phone', scope: 'operate' }]);
    expect(s.backend).toEqual({ state: 'restarting', nextRetryMs: 500 });
    expect(s.interactions['ix1']).toMatchObject({ interactionId: 'ix1', sessionId: SID, title: 'Run ls' });
  });

  it('drops a resolved interaction and says who answered it; a refused answer says why', () => {
    handleNotification(client, '_zcode/interaction_opened', { sessionId: SID, interaction: { interactionId: 'ix1', sessionId: SID } });
    handleNotification(client, '_zcode/interaction_resolved', {
      sessionId: SID,
      interactionId: 'ix1',
      state: 'resolved',
      resolvedBy: { name: 'Ben · laptop' },
    });
    expect(store.get().interactions['ix1']).toBeUndefined();
    handleNotification(client, '_zcode/answer_refused', {
      sessionId: SID,
      interactionId: 'ix2',
      reason: 'already_voted',
      code: 'HUB_ERR_CONFLICT',
      message: 'you voted already',
      details: {},
    });
    expect(store.get().toasts.map((t) => t.text)).toEqual(['Answered by Ben · laptop', 'Your answer was not counted: you voted already']);
  });

  it('a machine’s backend state is that machine’s: the home hub’s stays as it was', () => {
    store.update((s) => ({
      ...s,
      backend: { state: 'ready' },
      machines: {
        hubB: { hubId: 'hubB', name: 'desktop', url: 'http://127.0.0.1:9', scope: 'operate', status: 'online', backend: 'starting' },
      },
    }));
    const onB = new HubClient('ws://127.0.0.1:9/acp', { hubId: 'hubB', api });
    handleNotification(onB, '_zcode/backend_state', { state: 'ready', epoch: 'e1', restarts: 0 });
    expect([store.get().machines['hubB']?.backend, store.get().backend]).toEqual(['ready', { state: 'ready' }]);
    handleNotification(onB, '_zcode/backend_state', { state: 'restarting', epoch: 'e1', restarts: 1, nextRetryMs: 500 });
    expect([store.get().machines['hubB']?.backend, store.get().backend]).toEqual(['restarting', { state: 'ready' }]);
  });

  it('lists each device once: an old connection still held beside its new one shows as one, told by the verified token', () => {
    const ana = { person: 'ana', device: 'phone', name: 'Ana · phone', scope: 'operate', tokenId: 't-ana' };
    handleNotification(client, '_zcode/presence', {
      sessionId: SID,
      clients: [
        { ...ana, clientId: 'c-old' },
        // Bob's client calls itself Ana's phone: a self-given name never makes two devices one.
        { clientId: 'c-bob', name: 'Bob · laptop', client: 'Ana · phone', scope: 'operate', tokenId: 't-bob' },
        { ...ana, clientId: 'c-new' },
        // An older hub's entries, without a token: each connection stands alone.
        { clientId: 'c-x', name: 'Old' },
        { clientId: 'c-y', name: 'Old' },
      ],
    });
    expect(store.get().presence[SID]).toEqual([
      { clientId: 'c-new', name: 'Ana · phone', scope: 'operate' },
      { clientId: 'c-bob', name: 'Bob · laptop · Ana · phone', scope: 'operate' },
      { clientId: 'c-x', name: 'Old', scope: undefined },
      { clientId: 'c-y', name: 'Old', scope: undefined },
    ]);
  });

  it('drops a deleted session from the list, its chat, its presence and its interactions; other sessions keep theirs', () => {
    handleNotification(client, '_zcode/session_state', { sessionId: SID, state: 'idle', attachedClients: 1, pendingInteractions: 1 });
    handleNotification(client, '_zcode/session_state', { sessionId: 'other', state: 'idle', attachedClients: 0, pendingInteractions: 1 });
    handleNotification(client, '_zcode/presence', { sessionId: SID, clients: [{ clientId: 'c1', name: 'Ana · phone' }] });
    for (const [id, sid] of [
      ['ix1', SID],
      ['ix2', 'other'],
    ] as const)
      handleNotification(client, '_zcode/interaction_opened', { sessionId: sid, interaction: { interactionId: id, sessionId: sid } });
    expect(Object.keys(store.get().sessions)).toEqual(expect.arrayContaining([SID, 'other']));
    handleNotification(client, '_zcode/session_deleted', { sessionId: SID, deletedBy: { name: 'Ben · laptop' } });
    const s = store.get();
    expect(s.sessions[SID]).toBeUndefined();
    expect(s.chats[SID]).toBeUndefined();
    expect(s.presence[SID]).toBeUndefined();
    expect(Object.keys(s.interactions)).toEqual(['ix2']);
    expect(s.sessions['other']).toBeDefined();
  });

  it('ignores a method it does not know and params that are not an object, without throwing', () => {
    const before = store.get();
    for (const [method, params] of [
      ['_zcode/some_future_notice', { sessionId: SID }],
      ['session/update', 'not an object'],
      ['session/update', null],
      ['_zcode/presence', [1, 2]],
      ['_zcode/turn_state', { state: 'running' }],
      ['toString', {}],
      ['__proto__', {}],
    ] as const)
      expect(() => handleNotification(client, method, params)).not.toThrow();
    expect(store.get()).toBe(before);
  });
});
