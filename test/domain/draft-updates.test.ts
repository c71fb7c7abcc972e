import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRAFT_UPDATE } from '../../src/domain/delivery/draft-updates.js';
import { RecorderClient, startRig, type DomainRig } from './helpers.js';

/**
 * The multi-client draft's update kinds are decided by the sender (src/domain/delivery/draft-updates.ts):
 * each goes only to attachments whose client opted into it (`ClientPort.draftUpdates`), so the
 * gateway can hand a client that takes every kind each frame without reading its kind.
 */

let rig: DomainRig;
beforeEach(async () => {
  rig = await startRig();
});
afterEach(async () => {
  await rig?.close();
});

const DRAFT_KINDS: ReadonlySet<string> = new Set(Object.values(DRAFT_UPDATE));

/** The `sessionUpdate` kind of a frame as handed over, if it is a `session/update`. */
function kindOf(text: string): string | undefined {
  const msg = JSON.parse(text) as { method?: string; params?: { update?: { sessionUpdate?: string } } };
  return msg.method === 'session/update' ? msg.params?.update?.sessionUpdate : undefined;
}

describe('the multi-client draft kinds go only to clients that opted in', () => {
  it('an opted-out client is never handed a draft kind; opted-in clients get exactly theirs, every other frame shared untouched', async () => {
    const plain = new RecorderClient({ name: 'phone' });
    const dashboard = new RecorderClient({ name: 'dashboard', draftUpdates: DRAFT_KINDS });
    const partial = new RecorderClient({ name: 'editor', draftUpdates: new Set([DRAFT_UPDATE.turnComplete]) });
    for (const c of [plain, dashboard, partial]) rig.hub.connect(c);
    const opened = await rig.hub.newSession(plain, { cwd: rig.config.workspace });
    await rig.hub.loadSession(dashboard, opened.sessionId, { history: false });
    await rig.hub.loadSession(partial, opened.sessionId, { history: false });

    const answer = await rig.hub.prompt(plain, opened.sessionId, [{ type: 'text', text: 'hello' }]);
    expect(answer.stopReason).toBe('end_turn');
    const draftKinds = (c: RecorderClient) => c.sent.map((f) => kindOf(f.text)).filter((k) => k !== undefined && DRAFT_KINDS.has(k));
    await dashboard.waitFor(() => draftKinds(dashboard).includes(DRAFT_UPDATE.turnComplete), 'turn_complete to the dashboard');
    await partial.waitFor(() => draftKinds(partial).includes(DRAFT_UPDATE.turnComplete), 'turn_complete to the editor');

    // Handed over: the raw frames, before anything a gateway would do.
    expect(draftKinds(plain)).toEqual([]);
    expect(draftKinds(dashboard)).toEqual([DRAFT_UPDATE.promptReceived, DRAFT_UPDATE.turnComplete]);
    expect(draftKinds(partial)).toEqual([DRAFT_UPDATE.turnComplete]);

    // The turn's stream reached all three as the very same frame objects (one serialization,
    // nothing per client): the opt-in adds frames, it never changes the others.
    const streamed = (c: RecorderClient) => c.sent.filter((f) => kindOf(f.text) === 'agent_message_chunk');
    expect(streamed(plain).length).toBeGreaterThan(0);
    expect(streamed(dashboard)).toEqual(streamed(plain));
    expect(streamed(partial)).toEqual(streamed(plain));
    streamed(plain).forEach((f, i) => {
      expect(streamed(dashboard)[i]).toBe(f);
      expect(streamed(partial)[i]).toBe(f);
    });
  });

  it('a client leaving is announced as client_disconnected to the opted-in client only', async () => {
    const plain = new RecorderClient({ name: 'phone' });
    const dashboard = new RecorderClient({ name: 'dashboard', draftUpdates: DRAFT_KINDS });
    const leaver = new RecorderClient({ name: 'laptop' });
    for (const c of [plain, dashboard, leaver]) rig.hub.connect(c);
    const opened = await rig.hub.newSession(plain, { cwd: rig.config.workspace });
    await rig.hub.loadSession(dashboard, opened.sessionId, { history: false });
    await rig.hub.loadSession(leaver, opened.sessionId, { history: false });
    rig.hub.detach(leaver, opened.sessionId);
    await dashboard.waitFor(
      () => dashboard.sent.some((f) => kindOf(f.text) === DRAFT_UPDATE.clientDisconnected),
      'client_disconnected to the dashboard',
    );
    expect(plain.sent.some((f) => kindOf(f.text) === DRAFT_UPDATE.clientDisconnected)).toBe(false);
  });
});
