/**
 * Session-list notices are batched (LIMITS.sessionStateBatchMs): every connection's copies wait and
 * go out together, every change in order. Seen from a client that only lists: a session deleted
 * while its copies waited is never heard of again (its deletion notice went first, its copies are
 * dropped), and the next session's copies all arrive, its turn running before it ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import type { SessionStateParams } from '../../src/zcode-ext/schemas.js';

/** Long enough that a session's creation, one turn and its deletion fit in one batch on a loaded machine (0.3 s quiet, 1.2 s beside two CPU hogs). */
const BATCH_MS = 8_000;

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ limits: { sessionStateBatchMs: BATCH_MS } });
});
afterAll(async () => {
  await hub?.close();
});

/** The methods and session ids of what `client` received, in order. */
function heard(client: AcpWsClient): Array<{ method: string; sessionId: unknown; state?: unknown }> {
  return client.messages.flatMap((m) => {
    if (!('method' in m) || typeof m.method !== 'string') return [];
    const params = (m.params ?? {}) as { sessionId?: unknown; state?: unknown };
    return [{ method: m.method, sessionId: params.sessionId, state: params.state }];
  });
}

describe('session-list notices, batched', () => {
  it('a session deleted while its copies wait is not heard of again; the next one is heard in full, in order', async () => {
    const lister = await hub.initializedClient({ name: 'lister' });
    const phone = await hub.initializedClient({ name: 'phone' });

    const started = Date.now();
    const gone = (await phone.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] })).sessionId;
    await phone.request('session/prompt', { sessionId: gone, prompt: [{ type: 'text', text: 'soon deleted' }] });
    expect(await phone.request('session/delete', { sessionId: gone })).toEqual({});
    await lister.waitForNotification('_zcode/session_deleted', (p: { sessionId: string }) => p.sessionId === gone);
    // What the test stands on, not a figure it measures: all of that happened while the first batch waited.
    expect(Date.now() - started, 'the deleted session lived within one batch').toBeLessThan(BATCH_MS);

    const kept = (await phone.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] })).sessionId;
    await phone.request('session/prompt', { sessionId: kept, prompt: [{ type: 'text', text: 'kept' }] });
    await lister.waitForNotification<SessionStateParams>(
      '_zcode/session_state',
      (p) => p.sessionId === kept && p.state === 'idle' && p.preview?.role === 'agent',
      3 * BATCH_MS,
    );

    const seen = heard(lister);
    // The deleted session: its deletion, and no list notice of it at all (every copy waited in the batch it was deleted in).
    expect(seen.filter((n) => n.sessionId === gone).map((n) => n.method)).toEqual(['_zcode/session_deleted']);
    // The kept one: every change, the turn running before it ended.
    const states = seen.filter((n) => n.sessionId === kept && n.method === '_zcode/session_state').map((n) => n.state);
    expect(states.indexOf('running')).toBeGreaterThanOrEqual(0);
    expect(states.lastIndexOf('idle')).toBeGreaterThan(states.indexOf('running'));
  });
});
