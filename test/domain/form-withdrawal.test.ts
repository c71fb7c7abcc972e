import { afterEach, describe, expect, it } from 'vitest';
import { RecorderClient, startRig, type DomainRig } from './helpers.js';

/**
 * The form-withdrawal rule (src/domain/interactions/interaction-withdrawal.ts) on the hub with the real
 * simulator: a form's `cancel` withdraws that client; the last client able to answer withdrawing
 * answers the agent `cancel`. Clients that may not answer (a `view` token, an observer) never hold
 * it open.
 */

let rig: DomainRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const text = (t: string) => [{ type: 'text' as const, text: t }];
/** Lets the replies already given run their continuations (no time passes). */
const settleTicks = () => new Promise((resolve) => setImmediate(resolve));

describe('a form every client able to answer cancels', () => {
  it('the first cancel leaves it pending; the last one settles it cancelled and the turn goes on; a viewer and an observer count for nothing', async () => {
    rig = await startRig();
    const a = new RecorderClient({ name: 'ann', elicitationForm: true });
    const b = new RecorderClient({ name: 'bob', elicitationForm: true });
    const viewer = new RecorderClient({ name: 'wall', scope: 'view', elicitationForm: true });
    const observer = new RecorderClient({ name: 'cy', elicitationForm: true });
    const { sessionId } = await rig.hub.newSession(a, { cwd: rig.config.workspace });
    await rig.hub.loadSession(b, sessionId, { history: false });
    await rig.hub.loadSession(viewer, sessionId, { history: false });
    await rig.hub.loadSession(observer, sessionId, { history: false, role: 'observer' });
    const turn = rig.hub.prompt(a, sessionId, text('ask me a question'));
    await b.waitFor(() => b.openRequests('elicitation/create').length > 0, 'the form');
    await a.waitFor(() => a.openRequests('elicitation/create').length > 0, 'the form');
    expect(viewer.openRequests()).toEqual([]);
    expect(observer.openRequests()).toEqual([]);

    a.openRequests('elicitation/create')[0]?.reply({ action: 'cancel' });
    await settleTicks();
    expect(rig.hub.listInteractions(sessionId)).toHaveLength(1);

    b.openRequests('elicitation/create')[0]?.reply({ action: 'cancel' });
    expect((await turn).stopReason).toBe('end_turn');
    expect(rig.hub.listInteractions(sessionId)).toEqual([]);
    expect(viewer.notes('_zcode/interaction_resolved')).toEqual([
      expect.objectContaining({ state: 'cancelled', outcome: 'cancelled', resolvedBy: expect.objectContaining({ name: 'bob' }) }),
    ]);
  });
});
