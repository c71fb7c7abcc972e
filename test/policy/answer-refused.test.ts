import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { prompt, resolvedOn, setRules, sharedSession } from './helpers.js';

/**
 * An ACP client whose answer the hub refuses is told so (`_zcode/answer_refused`,
 * docs/CLIENT-PROTOCOL.md "Refusals"), with the same reason, code and message the REST answer
 * route gives for the same refusal. Real daemon, simulator child, WebSocket clients.
 */

let hub: HubHarness;
const tokens = { annPhone: '', annLaptop: '', bob: '', cid: '' };
beforeAll(async () => {
  hub = await startHub();
  tokens.annPhone = await hub.token('operate', 'ann phone', 'ann');
  tokens.annLaptop = await hub.token('operate', 'ann laptop', 'ann');
  tokens.bob = await hub.token('operate', 'bob phone', 'bob');
  tokens.cid = await hub.token('operate', 'cid phone', 'cid');
});
afterAll(async () => {
  await hub?.close();
});

interface Refused {
  sessionId: string;
  interactionId: string;
  requestId?: string | number;
  reason: string;
  code: string;
  message: string;
  details: Record<string, unknown>;
}

const permissionOf = (c: AcpWsClient, sessionId: string) =>
  c.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
const pick = (optionId: string) => ({ outcome: { outcome: 'selected', optionId } });
const refusedOn = (c: AcpWsClient, sessionId: string) =>
  c.waitForNotification<Refused>('_zcode/answer_refused', (p) => p.sessionId === sessionId);
const interactionIdOf = (q: { params: Record<string, unknown> }) =>
  z.object({ _meta: z.object({ zcode: z.object({ interactionId: z.string() }) }) }).parse(q.params)._meta.zcode.interactionId;
const restAnswer = (id: string, token: string, body: unknown) =>
  hub.api(`/api/interactions/${id}/answer`, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const errorOf = async (res: Response) =>
  z
    .object({ error: z.object({ code: z.string(), message: z.string(), details: z.looseObject({ reason: z.string() }) }) })
    .parse(await res.json()).error;

describe('_zcode/answer_refused', () => {
  it('an answer after the request settled: told "settled" naming who answered, as the REST route says it', async () => {
    await setRules(hub, []);
    const ann = await hub.initializedClient({ token: tokens.annPhone, name: 'ann-app' });
    const bob = await hub.initializedClient({ token: tokens.bob, name: 'bob-app' });
    const sessionId = await sharedSession(hub, ann, [bob]);
    const turn = prompt(ann, sessionId, 'permission please');
    const [a, b] = await Promise.all([permissionOf(ann, sessionId), permissionOf(bob, sessionId)]);
    ann.answer(a.id, pick('allow_once'));
    await resolvedOn(bob, sessionId);
    await bob.waitForNotification<{ requestId: number }>('$/cancel_request', (p) => p.requestId === b.id);
    // Bob's phone had already sent its answer (or ignores the withdrawal): it is told, not dropped.
    bob.answer(b.id, pick('deny'));
    const told = await refusedOn(bob, sessionId);
    expect(told).toMatchObject({
      interactionId: interactionIdOf(a),
      requestId: b.id,
      reason: 'settled',
      code: 'HUB_ERR_ALREADY_RESOLVED',
      details: { state: 'resolved', resolvedBy: { person: 'ann' } },
    });
    expect(told.message).toContain('already resolved by ann');
    const rest = await restAnswer(told.interactionId, tokens.bob, { optionId: 'deny' });
    expect(rest.status).toBe(409);
    const error = await errorOf(rest);
    expect({ code: error.code, message: error.message, reason: error.details.reason }).toEqual({
      code: told.code,
      message: told.message,
      reason: told.reason,
    });
    expect((await turn).stopReason).toBe('end_turn');
    // The withdrawal's own reply (cancelled) is not an answer: nobody else was told anything.
    expect(ann.notifications('_zcode/answer_refused')).toHaveLength(0);
  });

  it('a second device of a person who allowed already under a quorum: told "already_voted", the tally unchanged', async () => {
    await setRules(hub, [
      { id: 'two', match: { command: 'npm test' }, decide: 'ask', approvers: { people: ['ann', 'bob', 'cid'] }, quorum: 2 },
    ]);
    const admin = await hub.initializedClient({ name: 'prompter' });
    const phone = await hub.initializedClient({ token: tokens.annPhone, name: 'ann-phone' });
    const laptop = await hub.initializedClient({ token: tokens.annLaptop, name: 'ann-laptop' });
    const bob = await hub.initializedClient({ token: tokens.bob, name: 'bob' });
    const sessionId = await sharedSession(hub, admin, [phone, laptop, bob]);
    const turn = prompt(admin, sessionId, 'permission please');
    const [p, l, b] = await Promise.all([permissionOf(phone, sessionId), permissionOf(laptop, sessionId), permissionOf(bob, sessionId)]);
    phone.answer(p.id, pick('allow_once'));
    await laptop.waitForNotification<{ requestId: number }>('$/cancel_request', (x) => x.requestId === l.id);
    laptop.answer(l.id, pick('allow_once'));
    const told = await refusedOn(laptop, sessionId);
    expect(told).toMatchObject({
      requestId: l.id,
      reason: 'already_voted',
      code: 'HUB_ERR_CONFLICT',
      message: 'ann already allowed this request; each person counts once',
      details: { approval: { allowed: ['ann'], state: 'open' } },
    });
    const rest = await restAnswer(told.interactionId, tokens.annLaptop, { optionId: 'allow_once' });
    expect(rest.status).toBe(409);
    const error = await errorOf(rest);
    expect([error.code, error.message, error.details.reason]).toEqual([told.code, told.message, told.reason]);
    // Still open: one person counted once; bob completes it.
    bob.answer(b.id, pick('allow_once'));
    expect(await resolvedOn(admin, sessionId)).toMatchObject({ state: 'resolved', resolvedBy: { person: 'bob' } });
    expect((await turn).stopReason).toBe('end_turn');
  });

  it('not eligible: over REST 403 with reason not_eligible; an ACP client left out is sent no request to answer', async () => {
    await setRules(hub, [{ id: 'ann-only', match: { command: 'npm test' }, decide: 'ask', approvers: { people: ['ann'] } }]);
    const ann = await hub.initializedClient({ token: tokens.annPhone, name: 'ann-app' });
    const cid = await hub.initializedClient({ token: tokens.cid, name: 'cid-app' });
    const sessionId = await sharedSession(hub, ann, [cid]);
    const turn = prompt(ann, sessionId, 'permission please');
    const req = await permissionOf(ann, sessionId);
    const opened = await cid.waitForNotification<{ interaction: { interactionId: string; mayAnswer: boolean } }>(
      '_zcode/interaction_opened',
    );
    expect(opened.interaction.mayAnswer).toBe(false);
    const rest = await restAnswer(opened.interaction.interactionId, tokens.cid, { optionId: 'allow_once' });
    expect(rest.status).toBe(403);
    const error = await errorOf(rest);
    expect(error).toMatchObject({
      code: 'HUB_ERR_FORBIDDEN',
      message: 'This request is waiting for ann; cid may not answer it',
      details: { reason: 'not_eligible', waitingFor: 'waiting for ann' },
    });
    // An answer to an id it was never sent is no answer at all.
    cid.answer(req.id, pick('allow_once'));
    ann.answer(req.id, pick('allow_once'));
    expect(await resolvedOn(cid, sessionId)).toMatchObject({ resolvedBy: { person: 'ann' } });
    await turn;
    expect(cid.requests('session/request_permission')).toHaveLength(0);
  });

  it('"always" from someone it was not offered to: told "invalid" (Option not offered), the request stays open', async () => {
    await setRules(hub, []);
    const ann = await hub.initializedClient({ token: tokens.annPhone, name: 'ann-app' });
    const bob = await hub.initializedClient({ token: tokens.bob, name: 'bob-app' });
    const sessionId = await sharedSession(hub, ann, [bob]);
    const turn = prompt(ann, sessionId, 'permission please');
    const [a, b] = await Promise.all([permissionOf(ann, sessionId), permissionOf(bob, sessionId)]);
    bob.answer(b.id, pick('allow_project'));
    const told = await refusedOn(bob, sessionId);
    expect(told).toMatchObject({
      requestId: b.id,
      reason: 'invalid',
      code: 'HUB_ERR_BAD_REQUEST',
      message: 'Option not offered: allow_project',
    });
    const rest = await restAnswer(told.interactionId, tokens.bob, { optionId: 'allow_project' });
    expect(rest.status).toBe(400);
    const error = await errorOf(rest);
    expect([error.code, error.message, error.details.reason]).toEqual([told.code, told.message, told.reason]);
    const pending = z.object({ interactions: z.array(z.unknown()) });
    expect(pending.parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions).toHaveLength(1);
    ann.answer(a.id, pick('allow_once'));
    expect((await turn).stopReason).toBe('end_turn');
  });
});

describe('withdrawnRequestsKept', () => {
  let small: HubHarness;
  beforeAll(async () => {
    small = await startHub({ limits: { withdrawnRequestsKept: 1 } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('past the limit the oldest withdrawn request is forgotten: its late answer is ignored, the newer one is told', async () => {
    const bobToken = await small.token('operate', 'bob phone', 'bob');
    const admin = await small.initializedClient({ name: 'admin-app' });
    const bob = await small.initializedClient({ token: bobToken, name: 'bob-app' });
    const withdrawnIds: Array<string | number> = [];
    for (let i = 0; i < 2; i++) {
      const sessionId = await sharedSession(small, admin, [bob]);
      const turn = prompt(admin, sessionId, 'permission please');
      const [a, b] = await Promise.all([permissionOf(admin, sessionId), permissionOf(bob, sessionId)]);
      admin.answer(a.id, pick('allow_once'));
      await bob.waitForNotification<{ requestId: number }>('$/cancel_request', (p) => p.requestId === b.id);
      await turn;
      withdrawnIds.push(b.id);
    }
    bob.answer(withdrawnIds[0] as number, pick('allow_once'));
    bob.answer(withdrawnIds[1] as number, pick('allow_once'));
    await bob.waitForNotification<Refused>('_zcode/answer_refused', (p) => p.requestId === withdrawnIds[1]);
    // Answers are handled in order: had the first been remembered, its notice would be here first.
    expect(bob.notifications<Refused>('_zcode/answer_refused').map((r) => r.requestId)).toEqual([withdrawnIds[1]]);
  });
});
