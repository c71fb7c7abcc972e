import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { grantFileSchema } from '../../src/policy/grant-store.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { prompt, resolvedOn, setRules, sharedSession } from './helpers.js';

/**
 * "Always allow" kept by the hub (docs/SECURITY.md "Always allow") on a real daemon with the
 * simulator child: picking it records a grant with the verified author (not the name the client
 * gives itself), answers the agent allow-once, and the next request it covers is allowed with no
 * one asked, shown to every client and audited; a request it does not cover is still asked; a
 * removal over REST (admin only) makes the hub ask again. The option is offered only to admins
 * and the prompt's originator.
 */

let hub: HubHarness;
let ann: string;
let bob: string;
let viewer: string;
beforeAll(async () => {
  hub = await startHub();
  ann = await hub.token('operate', 'Ann phone', 'ann');
  bob = await hub.token('operate', 'Bob phone', 'bob');
  viewer = await hub.token('view', 'wall screen', 'walt');
});
afterAll(async () => {
  await hub?.close();
});

const listGrants = async (token?: string) => {
  const res = await hub.api('/api/policy/grants', token === undefined ? {} : { token });
  expect(res.status).toBe(200);
  return grantFileSchema.parse(await res.json());
};
const auditEntries = async () =>
  z
    .object({
      entries: z.array(z.object({ action: z.string(), who: z.looseObject({ name: z.string() }), detail: z.unknown().optional() })),
    })
    .parse(await (await hub.api('/api/audit')).json()).entries;

/** The next permission request of a session this client is sent, not counting the ones it had. */
const nextPermission = (c: AcpWsClient, sessionId: string) => {
  const seen = new Set(c.requests('session/request_permission').map((q) => q.id));
  return c.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId && !seen.has(q.id));
};
const optionIds = (q: { params: unknown }) =>
  z
    .object({ options: z.array(z.object({ optionId: z.string(), kind: z.string() })) })
    .parse(q.params)
    .options.map((o) => o.optionId);
const permissionCount = (c: AcpWsClient) => c.requests('session/request_permission').length;

describe('"always allow" kept by the hub', () => {
  it('records the verified author, allows the next matching request visibly, asks a non-matching one, and asks again once removed', async () => {
    // Ann's editor calls itself "Admin laptop": the grant still names ann · Ann phone.
    const annApp = await hub.initializedClient({ token: ann, name: 'Admin laptop' });
    const bobApp = await hub.initializedClient({ token: bob, name: 'bob-app' });
    const wall = await hub.initializedClient({ token: viewer, name: 'wall' });
    const sessionId = await sharedSession(hub, annApp, [bobApp, wall]);
    const childEvents: Array<{ type?: string; sessionId?: string; reason?: string; payload?: unknown }> = [];
    hub.daemon.backend.onNotification((n) => {
      if (n.method === 'session/event') childEvents.push(n.params as (typeof childEvents)[number]);
    });

    // Ann's prompt: Ann (the originator) is offered "Always", Bob (an operator) is not.
    let turn = prompt(annApp, sessionId, 'permission please');
    const [forAnn, forBob] = await Promise.all([nextPermission(annApp, sessionId), nextPermission(bobApp, sessionId)]);
    expect(optionIds(forAnn)).toContain('allow_project');
    expect(optionIds(forBob)).not.toContain('allow_project');
    // The pending list (a phone reads it to draw the sheet after a reload or on joining) offers each the same.
    const listed = async (c: AcpWsClient, token: string) => {
      const over = {
        acp: (
          await c.request<{ interactions: Array<{ options?: Array<{ optionId: string }> }> }>('_zcode/interactions/list', { sessionId })
        ).interactions,
        rest: (
          (await (await hub.api(`/api/interactions?sessionId=${sessionId}`, { token })).json()) as {
            interactions: Array<{ options?: Array<{ optionId: string }> }>;
          }
        ).interactions,
      };
      return [over.acp, over.rest].map((list) => list.flatMap((i) => (i.options ?? []).map((o) => o.optionId)));
    };
    for (const ids of await listed(annApp, ann)) expect(ids).toContain('allow_project');
    for (const ids of await listed(bobApp, bob)) {
      expect(ids).toContain('allow_once');
      expect(ids).not.toContain('allow_project');
    }
    // Bob naming the option he was not offered is refused; the request stays open.
    bobApp.answer(forBob.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
    const refused = await bobApp.waitForNotification<{ reason: string }>('_zcode/answer_refused', (p) => p.reason === 'invalid');
    expect(refused.reason).toBe('invalid');
    expect(await listGrants()).toMatchObject({ grants: [] });

    const resolvedFirst = resolvedOn(wall, sessionId);
    annApp.answer(forAnn.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
    expect(await resolvedFirst).toMatchObject({
      state: 'resolved',
      outcome: 'allow_project',
      resolvedBy: { person: 'ann', device: 'Ann phone' },
    });
    expect((await turn).stopReason).toBe('end_turn');
    // The agent was answered allow-once: it reports the permission resolved as "Approved once", with no project rule.
    const resolvedReasons = childEvents
      .filter((e) => e.type === 'permission.resolved' && e.sessionId === sessionId)
      .map((e) => (e.payload as { reason?: string } | undefined)?.reason ?? e.reason);
    expect(resolvedReasons).toEqual(['Approved once']);

    const { grants } = await listGrants(ann);
    expect(grants).toHaveLength(1);
    const grant = grants[0]!;
    expect(grant).toMatchObject({
      toolName: 'Bash',
      ruleContent: 'npm test',
      workspace: hub.workspace,
      sessionId,
      by: { person: 'ann', device: 'Ann phone', scope: 'operate', client: 'Admin laptop' },
    });
    const added = (await auditEntries()).filter((e) => e.action === 'policy.grant.add');
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      who: { name: 'Ann phone', person: 'ann' },
      detail: { grant: { id: grant.id, toolName: 'Bash', ruleContent: 'npm test' } },
    });

    // The same request again: nobody is asked, every client sees the grant that allowed it.
    const asked = [permissionCount(annApp), permissionCount(bobApp)];
    const day = new Date(grant.at).toISOString().slice(0, 10);
    const seen = [annApp, bobApp, wall].map((c) => resolvedOn(c, sessionId, c.notifications('_zcode/interaction_resolved').length));
    turn = prompt(annApp, sessionId, 'permission please');
    for (const r of await Promise.all(seen))
      expect(r).toMatchObject({
        state: 'resolved',
        resolvedBy: { name: `allowed by the always-allow of ann · Ann phone on ${day}`, grant: grant.id },
        grant: { id: grant.id, by: 'ann · Ann phone', at: grant.at },
      });
    expect((await turn).stopReason).toBe('end_turn');
    expect([permissionCount(annApp), permissionCount(bobApp)]).toEqual(asked);
    const byGrant = (await auditEntries()).filter((e) => e.action === 'answer').at(-1);
    expect(byGrant).toMatchObject({ who: { name: 'approval rules' }, detail: { grant: { id: grant.id, by: 'ann · Ann phone' } } });

    // Bob's own prompt is not covered by Ann's grant (she could not have picked "Always" on it).
    turn = prompt(bobApp, sessionId, 'permission please');
    const bobsOwn = await nextPermission(bobApp, sessionId);
    expect(optionIds(bobsOwn)).toContain('allow_project');
    bobApp.answer(bobsOwn.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');

    // A request the grant does not cover (an edit, another tool) is still asked.
    turn = prompt(annApp, sessionId, 'edit the readme');
    const edit = await nextPermission(annApp, sessionId);
    expect(z.object({ toolCall: z.object({ title: z.string() }) }).parse(edit.params).toolCall.title).not.toMatch(/npm test/);
    annApp.answer(edit.id, { outcome: { outcome: 'selected', optionId: 'deny' } });
    // The edit scenario asks a second time (its Write); deny that too.
    const write = await nextPermission(annApp, sessionId);
    annApp.answer(write.id, { outcome: { outcome: 'selected', optionId: 'deny' } });
    expect((await turn).stopReason).toBe('end_turn');

    // Operate and view tokens cannot remove it; view cannot even list it.
    expect((await hub.api(`/api/policy/grants/${grant.id}`, { method: 'DELETE', token: ann })).status).toBe(403);
    expect((await hub.api(`/api/policy/grants/${grant.id}`, { method: 'DELETE', token: viewer })).status).toBe(403);
    expect((await hub.api('/api/policy/grants', { token: viewer })).status).toBe(403);
    expect((await listGrants()).grants).toHaveLength(1);

    // The admin removes it: audited, and the next request is asked again.
    const removed = await hub.api(`/api/policy/grants/${grant.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toMatchObject({ removed: { id: grant.id } });
    expect((await hub.api(`/api/policy/grants/${grant.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await listGrants()).grants).toEqual([]);
    expect((await auditEntries()).filter((e) => e.action === 'policy.grant.remove').at(-1)).toMatchObject({
      who: { person: 'admin' },
      detail: { grant: { id: grant.id, toolName: 'Bash', ruleContent: 'npm test', by: 'ann' } },
    });
    turn = prompt(annApp, sessionId, 'permission please');
    const again = await nextPermission(annApp, sessionId);
    annApp.answer(again.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');
  });

  it('a REST "always" answer from the originator is kept; an admin grant covers everyone\'s prompts', async () => {
    const bobApp = await hub.initializedClient({ token: bob, name: 'bob-app' });
    const admin = await hub.initializedClient({ name: 'admin-app' });
    const sessionId = await sharedSession(hub, admin, [bobApp]);
    let turn = prompt(admin, sessionId, 'permission please');
    await nextPermission(admin, sessionId);
    const pending = z
      .object({ interactions: z.array(z.object({ interactionId: z.string(), sessionId: z.string() })) })
      .parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json())
      .interactions.find((i) => i.sessionId === sessionId)!;
    const res = await hub.api(`/api/interactions/${pending.interactionId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ optionId: 'allow_project' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await turn).stopReason).toBe('end_turn');
    const grant = (await listGrants()).grants.find((g) => g.sessionId === sessionId);
    expect(grant).toMatchObject({ by: { person: 'admin', scope: 'admin' }, toolName: 'Bash', ruleContent: 'npm test' });
    expect(grant?.by.client).toBeUndefined();

    // Bob's prompt is covered by the admin's grant: nobody asked.
    const before = permissionCount(bobApp);
    const done = resolvedOn(bobApp, sessionId, bobApp.notifications('_zcode/interaction_resolved').length);
    turn = prompt(bobApp, sessionId, 'permission please');
    expect(await done).toMatchObject({ grant: { id: grant!.id, by: 'admin' } });
    expect((await turn).stopReason).toBe('end_turn');
    expect(permissionCount(bobApp)).toBe(before);
    expect((await hub.api(`/api/policy/grants/${grant!.id}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('rules come first: an ask rule added since is not bypassed by a grant, and a quorum above 1 offers no "Always" to anyone', async () => {
    const annApp = await hub.initializedClient({ token: ann, name: 'ann-app' });
    const admin = await hub.initializedClient({ name: 'admin-app' });
    const sessionId = await sharedSession(hub, annApp, [admin]);
    let turn = prompt(annApp, sessionId, 'permission please');
    const first = await nextPermission(annApp, sessionId);
    annApp.answer(first.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
    expect((await turn).stopReason).toBe('end_turn');
    const grant = (await listGrants()).grants.find((g) => g.sessionId === sessionId)!;
    expect(grant.by.person).toBe('ann');

    // Admins only, now: Ann's grant does not let her request through; the admin is asked (and may pick "Always").
    await setRules(hub, [{ id: 'admins', match: { command: 'npm test' }, decide: 'ask', approvers: { scopes: ['admin'] } }]);
    turn = prompt(annApp, sessionId, 'permission please');
    const forAdmin = await nextPermission(admin, sessionId);
    expect(optionIds(forAdmin)).toContain('allow_project');
    admin.answer(forAdmin.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');

    // Two people must allow: nobody is offered "Always", not even the admin or the originator.
    await setRules(hub, [{ id: 'two', match: { command: 'npm test' }, decide: 'ask', quorum: 2 }]);
    turn = prompt(annApp, sessionId, 'permission please');
    const [a, b] = await Promise.all([nextPermission(annApp, sessionId), nextPermission(admin, sessionId)]);
    expect(optionIds(a)).not.toContain('allow_project');
    expect(optionIds(b)).not.toContain('allow_project');
    annApp.answer(a.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    admin.answer(b.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');

    // No rule again: Ann's grant lets her request through.
    await setRules(hub, []);
    const done = resolvedOn(annApp, sessionId, annApp.notifications('_zcode/interaction_resolved').length);
    turn = prompt(annApp, sessionId, 'permission please');
    expect(await done).toMatchObject({ grant: { id: grant.id } });
    expect((await turn).stopReason).toBe('end_turn');
    expect((await hub.api(`/api/policy/grants/${grant.id}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('a rule decides who may set "Always": every operator under always {scopes: [operate]}, nobody under always false', async () => {
    const annApp = await hub.initializedClient({ token: ann, name: 'ann-app' });
    const bobApp = await hub.initializedClient({ token: bob, name: 'bob-app' });
    const admin = await hub.initializedClient({ name: 'admin-app' });
    const sessionId = await sharedSession(hub, annApp, [bobApp, admin]);
    await setRules(hub, [{ id: 'ops', match: { command: 'npm test' }, decide: 'ask', always: { scopes: ['operate'] } }]);
    let turn = prompt(annApp, sessionId, 'permission please');
    const forBob = await nextPermission(bobApp, sessionId);
    expect(optionIds(forBob)).toContain('allow_project');
    bobApp.answer(forBob.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
    expect((await turn).stopReason).toBe('end_turn');
    const grant = (await listGrants()).grants.find((g) => g.sessionId === sessionId)!;
    expect(grant.by.person).toBe('bob');
    // Under the same rule Bob's grant covers Ann's prompt.
    const done = resolvedOn(annApp, sessionId, annApp.notifications('_zcode/interaction_resolved').length);
    turn = prompt(annApp, sessionId, 'permission please');
    expect(await done).toMatchObject({ grant: { id: grant.id, by: 'bob · Bob phone' } });
    expect((await turn).stopReason).toBe('end_turn');

    // Nobody may set it now: not even the admin is offered "Always", and Bob's grant no longer counts.
    await setRules(hub, [{ id: 'none', match: { command: 'npm test' }, decide: 'ask', always: false }]);
    turn = prompt(annApp, sessionId, 'permission please');
    const forAdmin = await nextPermission(admin, sessionId);
    expect(optionIds(forAdmin)).not.toContain('allow_project');
    admin.answer(forAdmin.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');
    await setRules(hub, []);
    expect((await hub.api(`/api/policy/grants/${grant.id}`, { method: 'DELETE' })).status).toBe(200);
  });
});

describe('alwaysGrantsMax, crossed', () => {
  let small: HubHarness;
  beforeAll(async () => {
    small = await startHub({ limits: { alwaysGrantsMax: 1 } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('an "Always" beyond the limit is refused with the reason and the request stays open for another answer', async () => {
    const admin = await small.initializedClient({ name: 'admin-app' });
    const { sessionId } = await admin.request<{ sessionId: string }>('session/new', { cwd: small.workspace, mcpServers: [] });
    let turn = prompt(admin, sessionId, 'permission please');
    const first = await nextPermission(admin, sessionId);
    admin.answer(first.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
    expect((await turn).stopReason).toBe('end_turn');

    turn = prompt(admin, sessionId, 'edit the readme');
    const edit = await nextPermission(admin, sessionId);
    admin.answer(edit.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
    const refused = await admin.waitForNotification<{ reason: string; message: string }>('_zcode/answer_refused', () => true);
    expect(refused).toMatchObject({ reason: 'invalid', message: expect.stringMatching(/at most 1 "always allow" grants/) });
    // Still open: the REST inbox answers it once.
    const open = z
      .object({ interactions: z.array(z.object({ interactionId: z.string(), state: z.string() })) })
      .parse(await (await small.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions;
    expect(open).toHaveLength(1);
    const res = await small.api(`/api/interactions/${open[0]!.interactionId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ optionId: 'allow_project' }),
    });
    expect(res.status).toBe(400);
    const once = await small.api(`/api/interactions/${open[0]!.interactionId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ optionId: 'allow_once' }),
    });
    expect(once.status).toBe(200);
    const write = await nextPermission(admin, sessionId);
    admin.answer(write.id, { outcome: { outcome: 'selected', optionId: 'deny' } });
    expect((await turn).stopReason).toBe('end_turn');
    expect(z.object({ grants: z.array(z.unknown()) }).parse(await (await small.api('/api/policy/grants')).json()).grants).toHaveLength(1);
  });
});
