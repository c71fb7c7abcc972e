/**
 * A chat loaded earlier but not on screen, whose reload after a reconnect a second drop cut off
 * (HubClient.onOpen): the next handshake does not load it again, and going back to it loads it
 * then, from what it held — nothing stale stays, nothing is lost. A real HubClient against a
 * scripted hub on a real socket: the test decides when each answer comes, no timing.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { heldClient, LISTED, SID, type Held } from '../helpers/held-reconnect.js';
import { until } from '../helpers/until.js';

let h: Held;
beforeEach(async () => {
  h = await heldClient();
});
afterEach(async () => {
  await h.close();
});

const texts = () =>
  store.get().chats[SID]?.items.flatMap((it) => (it.kind === 'user' || it.kind === 'agent' ? [`${it.kind}: ${it.text}`] : []));
const loads = () => h.hub.frames.filter((f) => f.method === 'session/load');
const chunk = (kind: 'user' | 'agent', text: string) => ({
  sessionId: SID,
  update: { sessionUpdate: `${kind}_message_chunk`, content: { type: 'text', text } },
});

it('a chat off screen whose reload a drop cut off is loaded when the user goes back to it, from what it held', async () => {
  // Loaded once (seq 2 of epoch e1, one message), then the reconnect's reload of it is held…
  await h.reconnectHeld(() => h.notify('session/update', chunk('user', 'asked before')));
  // …while the user has gone back to the list, and a second drop cuts that reload off.
  h.client.setShownSessions(() => []);
  const init = await h.dropAgain();
  h.answer(init, { protocolVersion: 1 });
  h.answer(await h.hub.request('session/list', 2), LISTED);
  await until(() => (h.client.conn.status === 'online' ? true : undefined), 'online');
  // This handshake did not load it (not on screen), and the chat still holds what it had: not wiped.
  expect(loads()).toHaveLength(2);
  expect(h.client.isAttached(SID)).toBe(false);
  expect(texts()).toEqual(['user: asked before']);
  // Going back to it (ChatView's useAttachedSession: a chat not attached is attached) resumes
  // from what it held, and what was missed meanwhile comes with it.
  const back = h.client.attach(SID);
  const reload = await h.hub.request('session/load', 2);
  expect(reload.params).toMatchObject({ sessionId: SID, _meta: { zcode: { afterSeq: 2, epoch: 'e1' } } });
  h.notify('session/update', { ...chunk('agent', 'answered while away'), _meta: { zcode: { seq: 3, epoch: 'e1', replay: true } } });
  h.answer(reload, { _meta: { zcode: { seq: 3, epoch: 'e1', replayMeta: { recovered: true, replayed: 1, hasMore: false } } } });
  await back;
  expect(texts()).toEqual(['user: asked before', 'agent: answered while away']);
  expect(h.client.isAttached(SID)).toBe(true);
  expect(store.get().chats[SID]?.seq).toBe(3);
});
