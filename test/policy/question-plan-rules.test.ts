import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { prompt, resolvedOn, setRules, sharedSession } from './helpers.js';

/**
 * Approval rules for questions and plan approvals, not only permissions, on a real daemon with
 * the simulator child (docs/SECURITY.md "Approval rules"): an `ask` rule by person holds a
 * question over ACP (only the eligible are sent it) and over the REST answer (403); a quorum of
 * 2 of 3 holds a plan approval (approve = allow, feedback = an eligible deny); and a quorum on a
 * rule that can match a question is refused 400 on `quorum`, since a question's answer is no allow.
 */

let hub: HubHarness;
const tokens = { ann: '', bob: '', carl: '' };
beforeAll(async () => {
  hub = await startHub();
  tokens.ann = await hub.token('operate', 'ann phone', 'ann');
  tokens.bob = await hub.token('operate', 'bob phone', 'bob');
  tokens.carl = await hub.token('operate', 'carl phone', 'carl');
});
afterAll(async () => {
  await hub?.close();
});

const PACKAGE_Q = 'Which package manager should I use?';
const opened = (c: AcpWsClient, sessionId: string, after = 0) =>
  c.waitForNotification<{ sessionId: string; interaction: { interactionId: string; kind: string; approval?: { waitingFor: string } } }>(
    '_zcode/interaction_opened',
    (p) => p.sessionId === sessionId,
    undefined,
    after,
  );
const restAnswer = (id: string, token: string, body: unknown) =>
  hub.api(`/api/interactions/${id}/answer`, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const errorOf = async (res: Response) =>
  z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.looseObject({}).optional() }) }).parse(await res.json())
    .error;
const pendingOf = async (sessionId: string) =>
  z
    .object({
      interactions: z.array(
        z.object({ interactionId: z.string(), kind: z.string(), approval: z.looseObject({ allowed: z.array(z.string()) }).optional() }),
      ),
    })
    .parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions;
const planRequest = (c: AcpWsClient, sessionId: string, skip = 0) =>
  c.waitFor(
    () =>
      c
        .requests('session/request_permission')
        .filter(
          (q) =>
            q.params.sessionId === sessionId &&
            (q.params.options as Array<{ optionId: string }> | undefined)?.some((o) => o.optionId === 'approve'),
        )[skip],
    undefined,
    'a plan approval',
  );

describe('rules for questions and plan approvals', () => {
  it('a quorum on a rule that names questions is refused 400 on quorum; on plans, commands and every kind it is stored', async () => {
    const put = (rules: unknown[]) =>
      hub.api('/api/policy', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules }) });
    for (const match of [{ kind: 'question' }, { kind: ['plan', 'question'] }]) {
      const res = await put([{ id: 'q', match, decide: 'ask', quorum: 2 }]);
      expect(res.status, JSON.stringify(match)).toBe(400);
      const text = JSON.stringify(await errorOf(res));
      expect(text).toContain('body.rules.0.quorum');
      expect(text).toContain('a question has no allow');
    }
    // A rule of every kind keeps its quorum for permissions and plans (a question: first eligible answer).
    for (const match of [
      { kind: 'plan' },
      { command: 'git push*' },
      { path: 'src/**' },
      {},
      { tool: 'AskUserQuestion' },
      { kind: 'question' },
    ]) {
      const quorum = match.kind === 'question' ? 1 : 2;
      expect((await put([{ id: 'ok', match, decide: 'ask', quorum }])).status, JSON.stringify(match)).toBe(200);
    }
    await setRules(hub, []);
  });

  it('a question under ask by person: only bob is sent it (as a form), carl sees for whom it waits and is refused 403; bob’s answer goes to the agent', async () => {
    await setRules(hub, [{ id: 'bob-decides', match: { kind: 'question' }, decide: 'ask', approvers: { people: ['bob'] } }]);
    const ann = await hub.initializedClient({ token: tokens.ann, name: 'ann-app', elicitationForm: true });
    const bob = await hub.initializedClient({ token: tokens.bob, name: 'bob-app', elicitationForm: true });
    const carl = await hub.initializedClient({ token: tokens.carl, name: 'carl-app', elicitationForm: true });
    const sessionId = await sharedSession(hub, ann, [bob, carl]);
    const turn = prompt(ann, sessionId, 'question please');
    const elicit = await bob.waitForRequest('elicitation/create', (q) => q.params.sessionId === sessionId);
    const [annSees, carlSees] = await Promise.all([opened(ann, sessionId), opened(carl, sessionId)]);
    for (const seen of [annSees, carlSees]) {
      expect(seen.interaction.kind).toBe('question');
      expect(seen.interaction.approval?.waitingFor).toBe('waiting for bob');
    }
    // Over ACP the ineligible are never sent it; over REST they are refused and nothing changes.
    expect(ann.requests('elicitation/create')).toHaveLength(0);
    expect(carl.requests('elicitation/create')).toHaveLength(0);
    expect(carl.requests('session/request_permission')).toHaveLength(0);
    const refused = await restAnswer(carlSees.interaction.interactionId, tokens.carl, { answers: { [PACKAGE_Q]: 'yarn' } });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({ code: 'HUB_ERR_FORBIDDEN', details: { reason: 'not_eligible' } });
    expect(await pendingOf(sessionId)).toHaveLength(1);
    // Bob answers through his form.
    const props = (
      elicit.params as { requestedSchema: { properties: Record<string, { type?: string; oneOf?: Array<{ const: string }> }> } }
    ).requestedSchema.properties;
    const content = Object.fromEntries(
      Object.entries(props).map(([k, p]) => [k, p.type === 'array' ? [] : (p.oneOf?.find((o) => o.const === 'pnpm')?.const ?? 'pnpm')]),
    );
    bob.answer(elicit.id, { action: 'accept', content });
    const r = await resolvedOn(carl, sessionId);
    expect(r).toMatchObject({ state: 'resolved', resolvedBy: { person: 'bob' } });
    expect((await turn).stopReason).toBe('end_turn');
    const said = ann
      .notifications<{ sessionId: string; update: { sessionUpdate: string; content?: { text?: string } } }>('session/update')
      .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')
      .map((u) => u.update.content?.text ?? '')
      .join('');
    expect(said).toContain('pnpm');
    expect(said).not.toContain('yarn');
  });

  it('a question under ask by person: ann’s REST answer is refused 403, bob’s settles it', async () => {
    await setRules(hub, [{ id: 'bob-decides', match: { kind: 'question' }, decide: 'ask', approvers: { people: ['bob'] } }]);
    const ann = await hub.initializedClient({ token: tokens.ann, name: 'ann-app' });
    const sessionId = await sharedSession(hub, ann, []);
    const turn = prompt(ann, sessionId, 'question please');
    const seen = await opened(ann, sessionId);
    expect((await restAnswer(seen.interaction.interactionId, tokens.ann, { answers: { [PACKAGE_Q]: 'yarn' } })).status).toBe(403);
    const ok = await restAnswer(seen.interaction.interactionId, tokens.bob, { answers: { [PACKAGE_Q]: 'npm' } });
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect((await resolvedOn(ann, sessionId)).resolvedBy?.person).toBe('bob');
    expect((await turn).stopReason).toBe('end_turn');
  });

  it('a plan approval under a quorum of 2 of 3: one approval shows "1 of 2", the second approves it; an eligible feedback rejects it', async () => {
    await setRules(hub, [
      {
        id: 'plans',
        description: 'plans need two',
        match: { kind: 'plan' },
        decide: 'ask',
        approvers: { people: ['ann', 'bob', 'carl'] },
        quorum: 2,
      },
    ]);
    const admin = await hub.initializedClient({ name: 'prompter' });
    const ann = await hub.initializedClient({ token: tokens.ann, name: 'ann-app' });
    const bob = await hub.initializedClient({ token: tokens.bob, name: 'bob-app' });
    const carl = await hub.initializedClient({ token: tokens.carl, name: 'carl-app' });
    const sessionId = await sharedSession(hub, admin, [ann, bob, carl]);
    const turn = prompt(admin, sessionId, 'plan please');

    // First plan: ann approves over ACP (not enough alone), carl sends feedback over REST: rejected.
    const annReq = await planRequest(ann, sessionId);
    await Promise.all([planRequest(bob, sessionId), planRequest(carl, sessionId)]);
    expect(admin.requests('session/request_permission')).toHaveLength(0);
    expect((annReq!.params._meta as { zcode: { approval: unknown } }).zcode.approval).toMatchObject({
      rule: { id: 'plans' },
      waitingFor: 'waiting for 2 people: ann or bob or carl',
      progress: '0 of 2',
    });
    ann.answer(annReq!.id, { outcome: { outcome: 'selected', optionId: 'approve' } });
    await expect.poll(async () => (await pendingOf(sessionId))[0]?.approval?.allowed).toEqual(['ann']);
    const first = (await pendingOf(sessionId))[0]!.interactionId;
    const rejected = resolvedOn(admin, sessionId);
    expect((await restAnswer(first, tokens.carl, { feedback: 'smaller steps' })).status).toBe(200);
    expect(await rejected).toMatchObject({ state: 'resolved', outcome: 'rejected_with_feedback', resolvedBy: { person: 'carl' } });

    // The agent re-plans and asks again: ann and bob approve over REST, the second completes it.
    const again = await planRequest(ann, sessionId, 1);
    const second = (again!.params._meta as { zcode: { interactionId: string } }).zcode.interactionId;
    expect(second).not.toBe(first);
    expect((await restAnswer(second, tokens.ann, { approve: true })).status).toBe(200);
    expect((await pendingOf(sessionId))[0]?.approval?.allowed).toEqual(['ann']);
    const approved = resolvedOn(admin, sessionId, admin.notifications('_zcode/interaction_resolved').length);
    expect((await restAnswer(second, tokens.bob, { approve: true })).status).toBe(200);
    expect(await approved).toMatchObject({ interactionId: second, outcome: 'approved', resolvedBy: { person: 'bob' } });
    expect((await turn).stopReason).toBe('end_turn');
  });
});
