/**
 * Stop (`session/cancel`) from this device. Pressed while the link reconnects it waits for the
 * link like a prompt does (HubClient.whenOnline): a Stop dropped silently left the turn running
 * while the user believed it stopped. Once online, the reconnect's load has said how the turn
 * stands (`_zcode/turn_state` comes right before its answer): a turn that ended meanwhile, or a
 * newer turn started since, is not stopped blindly. Prompts of this device still waiting for the
 * link in that session are taken back at once (their text returns to the composer), as the hub
 * cancels a caller's queued prompts with its Stop (CLIENT-PROTOCOL `session/cancel`).
 */
import { WEB_LIMITS } from '../limits.js';
import { ConnectionLost } from '../net/rpc-connection.js';
import { store } from './app-state.js';
import type { HubClient } from './hub-client.js';
import { takeBackSession } from './waiting-prompts.js';

/** `sent`, or `ended`: the turn Stop was pressed for ended while the link came back. Rejects when it could not be sent (ConnectionLost, LinkGone). */
export async function stopTurn(client: HubClient, sessionId: string): Promise<'sent' | 'ended'> {
  const pressedFor = store.get().chats[sessionId]?.turn.turnId;
  const waited = client.conn.status !== 'online';
  takeBackSession(client.hubId, sessionId);
  await client.whenOnline(WEB_LIMITS.waitOnlineMs);
  const turn = store.get().chats[sessionId]?.turn;
  if (waited && (!turn || turn.state === 'idle' || turn.turnId !== pressedFor)) return 'ended';
  if (!client.conn.notify('session/cancel', { sessionId })) throw new ConnectionLost();
  return 'sent';
}
