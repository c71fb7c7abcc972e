/**
 * A hub that stops closes every WebSocket with 1001 "hub shutting down" (docs/CLIENT-PROTOCOL.md,
 * close codes), so a client can tell a stop from a dropped link: the WebSocket plugin's own close
 * of its sockets, which runs first and carries no code (1005), must not come before it.
 */
import { describe, expect, it } from 'vitest';
import { startHub } from '../helpers/hub-harness.js';

describe('a hub that stops', () => {
  it('closes each WebSocket with 1001 and its reason, whether or not the client initialized', async () => {
    const hub = await startHub();
    const initialized = await hub.initializedClient({ name: 'editor' });
    const bare = await hub.client();
    try {
      await hub.daemon.close();
      for (const c of [initialized, bare]) expect(await c.closed).toEqual({ code: 1001, reason: 'hub shutting down' });
    } finally {
      await hub.close();
    }
  });
});
