import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { prompt, resolvedOn, setRules, sharedSession } from './helpers.js';

/**
 * A quorum of 2 of 3 people on a real daemon with the simulator child (docs/SECURITY.md
 * "Approval rules"): three tokens of three persons, plus a second device of one of them that
 * must not count twice; partial votes are shown to everyone; one eligible deny ends it.
 */

let hub: HubHarness;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  hub = await startHub();
  tokens.annPhone = await hub.token('operate', 'ann phone', 'ann');
  tokens.annLaptop = await hub.token('operate', 'ann laptop', 'ann');
  tokens.bob = await hub.token('operate', 'bob phone', 'bob');
  tokens.carl = await hub.token('operate', 'carl phone', 'carl');
  await setRules(hub, [
    {
      id: 'two-of-three',
      description: 'the test suite',
      match: { command: 'npm test' },
      decide: 'ask',
      approvers: { people: ['ann', 'bob', 'carl'] },
      quorum: 2,
    },
  ]);
});
afterAll(async () => {
  await hub?.close();
});

const permissionOf = (c: AcpWsClient, sessionId: string, skip = 0) =>
  c.waitFor(
    () => c.requests('session/request_permission').filter((q) => q.params.sessionId === sessionId)[skip],
    undefined,
    'a permission',
  );
const allow = (c: AcpWsClient, id: string | number) => c.answer(id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
const progressSeen = (c: AcpWsClient) =>
  c
    .notifications<{ update: { _meta?: { zcode?: { approval?: { progress?: string } } } } }>('session/update')
    .map((u) => u.update._meta?.zcode?.approval?.progress)
    .filter((p) => p !== undefined);

async function room() {
  const admin = await hub.initializedClient({ name: 'prompter' });
  const annPhone = await hub.initializedClient({ token: tokens.annPhone, name: 'ann-phone' });
  const annLaptop = await hub.initializedClient({ token: tokens.annLaptop, name: 'ann-laptop' });
  const bob = await hub.initializedClient({ token: tokens.bob, name: 'bob' });
  const carl = await hub.initializedClient({ token: tokens.carl, name: 'carl' });
  const sessionId = await sharedSession(hub, admin, [annPhone, annLaptop, bob, carl]);
  return { admin, annPhone, annLaptop, bob, carl, sessionId };
}

describe('[POL-03] quorum', () => {
  it('2 of 3: ann allows (her laptop is withdrawn and cannot vote again), everyone sees "1 of 2 — ann allowed", bob completes it', async () => {
    const { admin, annPhone, annLaptop, bob, carl, sessionId } = await room();
    const turn = prompt(admin, sessionId, 'permission please');
    const [phoneReq, laptopReq, bobReq] = await Promise.all([annPhone, annLaptop, bob].map((c) => permissionOf(c, sessionId)));
    await permissionOf(carl, sessionId);
    // The admin is not among the approvers: not offered.
    expect(admin.requests('session/request_permission')).toHaveLength(0);
    // The request itself says for whom it waits, as the card does.
    expect((phoneReq!.params._meta as { zcode: { approval: unknown } }).zcode.approval).toMatchObject({
      rule: { id: 'two-of-three' },
      waitingFor: 'waiting for 2 people: ann or bob or carl',
      progress: '0 of 2',
    });
    allow(annPhone, phoneReq!.id);
    for (const c of [admin, carl, bob])
      await c.waitFor(() => (progressSeen(c).includes('1 of 2 — ann allowed') ? true : undefined), undefined, 'the tally');
    // Her other device's copy is withdrawn; a vote from it over REST does not count twice.
    await annLaptop.waitForNotification<{ requestId: string | number }>('$/cancel_request', (p) => p.requestId === laptopReq!.id);
    const inbox = z.object({
      interactions: z.array(z.object({ interactionId: z.string(), approval: z.looseObject({ allowed: z.array(z.string()) }) })),
    });
    const [pending] = inbox.parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions;
    expect(pending?.approval.allowed).toEqual(['ann']);
    const again = await hub.api(`/api/interactions/${pending?.interactionId}/answer`, {
      method: 'POST',
      token: tokens.annLaptop,
      headers: { 'content-type': 'application/json' },
      body: '{"optionId":"allow_once"}',
    });
    expect(again.status).toBe(409);
    expect(inbox.parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions).toHaveLength(1);
    // Each caller's inbox says whether that caller may answer: ann voted, bob may, the admin is no approver.
    const mayAnswer = async (token?: string) =>
      z
        .object({ interactions: z.array(z.object({ mayAnswer: z.boolean() })) })
        .parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`, token === undefined ? {} : { token })).json())
        .interactions.map((i) => i.mayAnswer);
    expect(await mayAnswer(tokens.annLaptop)).toEqual([false]);
    expect(await mayAnswer(tokens.bob)).toEqual([true]);
    expect(await mayAnswer()).toEqual([false]);
    const listed = await bob.request<{ interactions: Array<{ mayAnswer?: boolean }> }>('_zcode/interactions/list', { sessionId });
    expect(listed.interactions.map((i) => i.mayAnswer)).toEqual([true]);
    allow(bob, bobReq!.id);
    const r = await resolvedOn(carl, sessionId);
    expect(r).toMatchObject({ state: 'resolved', outcome: 'allow_once', resolvedBy: { person: 'bob' } });
    expect((await turn).stopReason).toBe('end_turn');
  });

  it('one eligible deny ends it at once (denied), even after an allow', async () => {
    const { admin, annPhone, carl, sessionId } = await room();
    const turn = prompt(admin, sessionId, 'permission please');
    const [a, c] = await Promise.all([annPhone, carl].map((x) => permissionOf(x, sessionId)));
    allow(annPhone, a!.id);
    await carl.waitFor(() => (progressSeen(carl).length > 0 ? true : undefined), undefined, 'the tally');
    const deny = (c!.params.options as Array<{ optionId: string; kind: string }>).find((o) => o.kind === 'reject_once');
    carl.answer(c!.id, { outcome: { outcome: 'selected', optionId: deny?.optionId } });
    const r = await resolvedOn(admin, sessionId);
    expect(r).toMatchObject({ state: 'resolved', outcome: deny?.optionId, resolvedBy: { person: 'carl' } });
    expect((await turn).stopReason).toBe('end_turn');
  });
});
