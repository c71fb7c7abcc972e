import { afterEach, describe, expect, it } from 'vitest';
import { RecorderClient, startRig, until, type DomainRig } from './helpers.js';

let rig: DomainRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const text = (t: string) => [{ type: 'text' as const, text: t }];
const reannounceFast = ['--turn-delay-scale', '0.2'];

async function sessionWith(r: DomainRig, clients: RecorderClient[]): Promise<string> {
  const first = clients[0] as RecorderClient;
  const { sessionId } = await r.hub.newSession(first, { cwd: r.config.workspace });
  for (const c of clients.slice(1)) await r.hub.loadSession(c, sessionId, { history: false });
  return sessionId;
}

/** Answers the child wrote, counted from the permission.resolved events it emits afterwards. */
function resolvedEvents(r: DomainRig): number {
  return r.notifications.filter((n) => n.method === 'session/event' && (n.params as { type?: string }).type === 'permission.resolved')
    .length;
}

describe('Hub over the real simulator: interactions', () => {
  const rounds = process.env.RUN_FAULTS === '1' ? 1_000 : 5;
  it(`[APR-01] ${rounds} permission interactions × 5 operator clients racing: one winner each`, async () => {
    rig = await startRig({ simArgs: reannounceFast });
    const clients = Array.from({ length: 5 }, (_, i) => new RecorderClient({ name: `op${i}` }));
    const sessionId = await sessionWith(rig, clients);
    for (let round = 0; round < rounds; round += 1) {
      const turn = rig.hub.prompt(clients[round % 5] as RecorderClient, sessionId, text('permission please'));
      for (const c of clients) await c.waitFor(() => c.openRequests('session/request_permission').length > 0, 'permission request');
      // Everyone answers in the same tick; options differ so the winner is visible in the result.
      clients.forEach((c, i) =>
        c
          .openRequests('session/request_permission')[0]
          ?.reply({ outcome: { outcome: 'selected', optionId: i % 2 === 0 ? 'allow_once' : 'deny' } }),
      );
      await turn;
      const resolved = clients.map((c) => c.notes('_zcode/interaction_resolved').at(-1));
      for (const r of resolved) expect(r).toEqual(resolved[0]);
    }
    await until(() => resolvedEvents(rig as DomainRig) === rounds, 'one answer per interaction reached the child');
    expect(resolvedEvents(rig)).toBe(rounds);
    for (const c of clients) expect(c.notes('_zcode/interaction_resolved')).toHaveLength(rounds);
  }, 600_000);

  it('[APR-03] session/cancel with interactions pending resolves them cancelled and stops the turn', async () => {
    rig = await startRig();
    const a = new RecorderClient();
    const b = new RecorderClient();
    const sessionId = await sessionWith(rig, [a, b]);
    const turn = rig.hub.prompt(a, sessionId, text('permission please'));
    await b.waitFor(() => b.openRequests('session/request_permission').length > 0, 'permission request');
    await rig.hub.cancel(b, sessionId);
    expect((await turn).stopReason).toBe('cancelled');
    for (const c of [a, b]) expect(c.notes('_zcode/interaction_resolved')).toEqual([expect.objectContaining({ state: 'cancelled' })]);
    expect(a.cancelled).toHaveLength(1);
  });

  it('[APR-04] everyone disconnects; one comes back: still pending, re-sent once after replay, never auto-denied', async () => {
    rig = await startRig();
    const a = new RecorderClient();
    const b = new RecorderClient();
    const sessionId = await sessionWith(rig, [a, b]);
    const turn = rig.hub.prompt(a, sessionId, text('permission please'));
    await a.waitFor(() => a.openRequests('session/request_permission').length > 0, 'permission request');
    a.close();
    b.close();
    rig.hub.disconnect(a.clientId);
    rig.hub.disconnect(b.clientId);
    expect(rig.hub.listInteractions(sessionId)).toHaveLength(1);
    const c = new RecorderClient();
    rig.hub.connect(c);
    await rig.hub.loadSession(c, sessionId, { history: true });
    // What the gateway does once the load result is written.
    rig.hub.deliverPending(c, sessionId);
    await c.waitFor(() => c.openRequests('session/request_permission').length > 0, 're-sent request');
    // Attaching again on the same connection does not send it twice.
    await rig.hub.loadSession(c, sessionId, { history: false });
    rig.hub.deliverPending(c, sessionId);
    await new Promise((r) => setTimeout(r, 50));
    expect(c.requests.filter((r) => r.method === 'session/request_permission')).toHaveLength(1);
    const lastReplayIndex = c.frames.map((f) => f.method).lastIndexOf('session/update');
    expect(lastReplayIndex).toBeGreaterThan(-1);
    c.openRequests()[0]?.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');
  });

  it('[APR-05] a client dismisses while others are attached: still pending for them', async () => {
    rig = await startRig();
    const a = new RecorderClient();
    const b = new RecorderClient();
    const sessionId = await sessionWith(rig, [a, b]);
    const turn = rig.hub.prompt(a, sessionId, text('permission please'));
    await b.waitFor(() => b.openRequests('session/request_permission').length > 0, 'permission request');
    a.openRequests()[0]?.reply({ outcome: { outcome: 'cancelled' } });
    await new Promise((r) => setTimeout(r, 100));
    expect(rig.hub.listInteractions(sessionId)).toHaveLength(1);
    b.openRequests()[0]?.reply({ outcome: { outcome: 'selected', optionId: 'deny' } });
    expect((await turn).stopReason).toBe('end_turn');
    expect(b.notes('_zcode/interaction_resolved')).toEqual([expect.objectContaining({ state: 'resolved', outcome: 'deny' })]);
  });

  it('[APR-02] unknown id, option not offered, view token, after resolution: typed, zero writes', async () => {
    rig = await startRig();
    const a = new RecorderClient();
    const viewer = new RecorderClient({ scope: 'view' });
    const sessionId = await sessionWith(rig, [a, viewer]);
    const turn = rig.hub.prompt(a, sessionId, text('permission please'));
    await viewer.waitFor(() => viewer.notes('_zcode/interaction_opened').length > 0, 'interaction_opened');
    const [view] = rig.hub.listInteractions(sessionId);
    const id = view?.interactionId as string;
    const op = { identity: a.identity, clientId: a.clientId };
    await expect(rig.hub.answerInteraction('nope', { optionId: 'deny' }, op)).rejects.toMatchObject({ code: 'HUB_ERR_NOT_FOUND' });
    await expect(rig.hub.answerInteraction(id, { optionId: 'maybe' }, op)).rejects.toMatchObject({ code: 'HUB_ERR_BAD_REQUEST' });
    await expect(rig.hub.answerInteraction(id, { optionId: 'deny' }, { identity: viewer.identity })).rejects.toMatchObject({
      code: 'HUB_ERR_FORBIDDEN',
    });
    expect(resolvedEvents(rig)).toBe(0);
    expect(viewer.requests).toHaveLength(0);
    await rig.hub.answerInteraction(id, { optionId: 'allow_once' }, op);
    await expect(rig.hub.answerInteraction(id, { optionId: 'deny' }, op)).rejects.toMatchObject({ code: 'HUB_ERR_ALREADY_RESOLVED' });
    await turn;
    expect(resolvedEvents(rig)).toBe(1);
  });

  it('[APR-06] child crashes with an interaction pending: lost, broadcast, late answer refused', async () => {
    // A real child, for a real SIGKILL.
    rig = await startRig({ child: true });
    const a = new RecorderClient();
    rig.hub.connect(a);
    const sessionId = await sessionWith(rig, [a]);
    const turn = rig.hub.prompt(a, sessionId, text('permission please')).catch((err: unknown) => err);
    await a.waitFor(() => a.openRequests('session/request_permission').length > 0, 'permission request');
    const id = rig.hub.listInteractions(sessionId)[0]?.interactionId as string;
    const pid = rig.backend.status().pid as number;
    process.kill(pid, 'SIGKILL');
    await a.waitFor(
      () => a.notes('_zcode/interaction_resolved').some((n) => (n as { state: string }).state === 'lost'),
      'lost broadcast',
      30_000,
    );
    expect(await turn).toMatchObject({ code: 'HUB_ERR_BACKEND_UNAVAILABLE' });
    await expect(rig.hub.answerInteraction(id, { optionId: 'allow_once' }, { identity: a.identity })).rejects.toMatchObject({
      code: 'HUB_ERR_ALREADY_RESOLVED',
    });
    expect(a.notes('_zcode/backend_state').length).toBeGreaterThan(0);
  });

  it('[APR-06] [CHD-01] the crash itself ends the turn and loses the interaction — not the respawn, which a long backoff delays', async () => {
    // First respawn 20 s away: everything below must happen while the backend is `restarting`.
    rig = await startRig({ limits: { restartBackoffBaseMs: 20_000, restartBackoffMaxMs: 20_000 }, child: true });
    const a = new RecorderClient();
    rig.hub.connect(a);
    const sessionId = await sessionWith(rig, [a]);
    const turn = rig.hub.prompt(a, sessionId, text('permission please')).catch((err: unknown) => err);
    await a.waitFor(() => a.openRequests('session/request_permission').length > 0, 'permission request');
    process.kill(rig.backend.status().pid as number, 'SIGKILL');
    expect(await turn).toMatchObject({ code: 'HUB_ERR_BACKEND_UNAVAILABLE' });
    await a.waitFor(() => a.notes('_zcode/interaction_resolved').some((n) => (n as { state: string }).state === 'lost'), 'lost broadcast');
    expect(rig.backend.status().state).toBe('restarting');
    expect(rig.hub.listInteractions(sessionId)).toHaveLength(0);
  });

  it('interactionTimeoutMs: nobody answers the permission scenario in time → expired, the child is denied, the turn ends', async () => {
    rig = await startRig({ limits: { interactionTimeoutMs: 300 }, simArgs: ['--scenario', 'permission'] });
    const a = new RecorderClient();
    const b = new RecorderClient();
    const sessionId = await sessionWith(rig, [a, b]);
    const turn = rig.hub.prompt(a, sessionId, text('run the tests'));
    for (const c of [a, b])
      await c.waitFor(() => c.openRequests('session/request_permission').length > 0 || c.cancelled.length > 0, 'permission request');
    expect((await turn).stopReason).toBe('end_turn');
    for (const c of [a, b]) {
      expect(c.notes('_zcode/interaction_resolved')).toEqual([expect.objectContaining({ sessionId, state: 'expired' })]);
      expect(c.cancelled).toHaveLength(1);
      expect(c.openRequests('session/request_permission')).toHaveLength(0);
    }
    await until(() => resolvedEvents(rig as DomainRig) === 1, 'the deny reached the child');
    const said = a
      .updates()
      .filter((u) => u.update.sessionUpdate === 'agent_message_chunk')
      .map((u) => JSON.stringify(u.update.content))
      .join('');
    expect(said).toMatch(/permission was denied/);
    expect(rig.hub.listInteractions(sessionId)).toHaveLength(0);
  });

  it('[APR-07] question and plan shapes per client capability; exact ZCode results', async () => {
    rig = await startRig();
    const form = new RecorderClient({ elicitationForm: true });
    const plain = new RecorderClient({ elicitationForm: false });
    const sessionId = await sessionWith(rig, [form, plain]);
    // AskUserQuestion: a form to one, per-question permissions to the other; the form wins.
    const q = rig.hub.prompt(form, sessionId, text('question please'));
    await form.waitFor(() => form.openRequests('elicitation/create').length > 0, 'elicitation form');
    await plain.waitFor(() => plain.openRequests('session/request_permission').length > 0, 'per-question permission');
    const formReq = form.openRequests('elicitation/create')[0];
    const props = (
      formReq?.params.requestedSchema as {
        properties: Record<string, { oneOf?: Array<{ const: string }>; items?: { anyOf: Array<{ const: string }> } }>;
      }
    ).properties;
    const choices = props['q_0']?.oneOf ?? props['q_0']?.items?.anyOf ?? [];
    const pick = choices[0]?.const as string;
    formReq?.reply({ action: 'accept', content: { q_0: props['q_0']?.oneOf ? pick : [pick] } });
    await q;
    expect(plain.cancelled.length).toBeGreaterThan(0);
    const answerEvent = rig.notifications.find((n) => n.method === 'session/event' && JSON.stringify(n.params).includes(pick));
    expect(answerEvent).toBeDefined();
    // Plan approval: reject with feedback from the form client.
    const p = rig.hub.prompt(plain, sessionId, text('plan please'));
    await plain.waitFor(
      () =>
        plain
          .openRequests('session/request_permission')
          .some((r) => (r.params.options as Array<{ optionId: string }>).some((o) => o.optionId === 'approve')),
      'plan approve/reject options',
    );
    await form.waitFor(() => form.openRequests('elicitation/create').length > 0, 'plan feedback form');
    form.openRequests('elicitation/create')[0]?.reply({ action: 'accept', content: { feedback: 'use smaller steps' } });
    await form.waitFor(
      () => form.notes('_zcode/interaction_resolved').some((n) => (n as { outcome?: string }).outcome === 'rejected_with_feedback'),
      'feedback resolution',
    );
    const r = rig;
    await until(
      () => r.notifications.some((n) => JSON.stringify(n.params).includes('use smaller steps')),
      'the feedback reached the agent',
    );
    // The agent re-plans and asks again (or ends the turn); approve from the options client if asked.
    const approveIfAsked = async (): Promise<void> => {
      const next = await plain
        .waitFor(
          () =>
            plain
              .openRequests('session/request_permission')
              .find((r) => (r.params.options as Array<{ optionId: string }>).some((o) => o.optionId === 'approve')),
          'second plan approval',
          5_000,
        )
        .catch(() => undefined);
      next?.reply({ outcome: { outcome: 'selected', optionId: 'approve' } });
    };
    await Promise.all([p, approveIfAsked()]);
  });
});
