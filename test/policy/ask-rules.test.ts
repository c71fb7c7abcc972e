import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { RemoteApp } from '../helpers/remote-app.js';
import { prompt, resolvedOn, setRules, sharedSession } from './helpers.js';

/**
 * `ask` rules on a real daemon with the simulator child (docs/SECURITY.md "Approval rules"):
 * only eligible identities are offered the request, the others see for whom it waits, and an
 * ineligible answer is refused and changes nothing. trustProxy 1 so X-Forwarded-For is read.
 */

let hub: HubHarness;
let ann: string;
let annLaptop: string;
let bob: string;
let carl: string;
beforeAll(async () => {
  hub = await startHub({ config: { trustProxy: 1 } });
  ann = await hub.token('operate', 'ann phone', 'ann');
  annLaptop = await hub.token('operate', 'ann laptop', 'ann');
  bob = await hub.token('operate', 'bob phone', 'bob');
  carl = await hub.token('operate', 'carl phone', 'carl');
});
afterAll(async () => {
  await hub?.close();
});

const SHELL = { kind: 'execute', command: 'npm test' };
const opened = (c: AcpWsClient, sessionId: string) =>
  c.waitForNotification<{
    sessionId: string;
    interaction: { interactionId: string; approval?: { waitingFor: string }; toolCall?: Record<string, unknown> };
  }>('_zcode/interaction_opened', (p) => p.sessionId === sessionId);
const permissionOf = (c: AcpWsClient, sessionId: string) =>
  c.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
const restAnswer = (id: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  hub.api(`/api/interactions/${id}/answer`, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const errorOf = async (res: Response) =>
  z.object({ error: z.object({ code: z.string(), message: z.string() }) }).parse(await res.json()).error;
const approvalNotes = (c: AcpWsClient) =>
  c
    .notifications<{ update: { _meta?: { zcode?: { approval?: { waitingFor: string; progress?: string } } } } }>('session/update')
    .map((u) => u.update._meta?.zcode?.approval)
    .filter((a) => a !== undefined);

/** An admin's session under `rule`, the zcode-acp-remote app (ann's token) in it, prompting the Bash call. */
async function remoteAppPrompts(rule: Record<string, unknown>) {
  await setRules(hub, [rule]);
  const admin = await hub.initializedClient({ name: 'admin-app' });
  const { sessionId } = await admin.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
  const app = await RemoteApp.connect(hub.url, ann);
  await app.loadSession(sessionId, hub.workspace);
  return { admin, sessionId, app, turn: app.prompt(sessionId, 'permission please') };
}

describe('ask rules', () => {
  it('[POL-02, POL-06] by scope: only the admin is offered it; the operator sees "waiting for an admin" and is refused 403', async () => {
    await setRules(hub, [{ id: 'admins', description: 'the test suite', match: SHELL, decide: 'ask', approvers: { scopes: ['admin'] } }]);
    const op = await hub.initializedClient({ token: ann, name: 'ann-app' });
    const admin = await hub.initializedClient({ name: 'admin-app' });
    const sessionId = await sharedSession(hub, op, [admin]);
    const turn = prompt(op, sessionId, 'permission please');
    const req = await permissionOf(admin, sessionId);
    const seen = await opened(op, sessionId);
    expect(seen.interaction.approval?.waitingFor).toBe('waiting for an admin');
    await op.waitFor(() => (approvalNotes(op).length > 0 ? true : undefined), undefined, 'the waiting note');
    expect(approvalNotes(op)[0]?.waitingFor).toBe('waiting for an admin');
    const refused = await restAnswer(seen.interaction.interactionId, ann, { optionId: 'allow_once' });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toContain('waiting for an admin');
    // Refused changed nothing: still pending, the admin's copy still open.
    const inbox = z.object({ interactions: z.array(z.object({ interactionId: z.string() })) });
    expect(inbox.parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions).toHaveLength(1);
    admin.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await resolvedOn(op, sessionId)).resolvedBy?.person).toBe('admin');
    expect((await turn).stopReason).toBe('end_turn');
    expect(op.requests('session/request_permission')).toHaveLength(0);
  });

  it('[POL-02] by person: only bob is offered it, carl is refused', async () => {
    await setRules(hub, [{ id: 'bob', match: SHELL, decide: 'ask', approvers: { people: ['bob'] } }]);
    const a = await hub.initializedClient({ token: ann, name: 'ann-app' });
    const b = await hub.initializedClient({ token: bob, name: 'bob-app' });
    const c = await hub.initializedClient({ token: carl, name: 'carl-app' });
    const sessionId = await sharedSession(hub, a, [b, c]);
    const turn = prompt(a, sessionId, 'permission please');
    const req = await permissionOf(b, sessionId);
    const seen = await opened(c, sessionId);
    expect(seen.interaction.approval?.waitingFor).toBe('waiting for bob');
    // The read-only copy and carl's inbox say what is approved: the request's own tool call.
    const asked = { rawInput: (req.params.toolCall as { rawInput: unknown }).rawInput, _meta: { zcode: { cwd: hub.workspace } } };
    expect(asked.rawInput).toMatchObject({ command: 'npm test' });
    expect(seen.interaction.toolCall).toMatchObject({ kind: 'execute', ...asked });
    const carlInbox = z
      .object({ interactions: z.array(z.object({ mayAnswer: z.boolean(), toolCall: z.looseObject({}) })) })
      .parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`, { token: carl })).json()).interactions;
    expect(carlInbox).toHaveLength(1);
    expect(carlInbox[0]?.mayAnswer).toBe(false);
    expect(carlInbox[0]?.toolCall).toMatchObject(asked);
    expect((await restAnswer(seen.interaction.interactionId, carl, { optionId: 'allow_once' })).status).toBe(403);
    b.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await resolvedOn(c, sessionId)).resolvedBy?.person).toBe('bob');
    await turn;
    expect(a.requests('session/request_permission')).toHaveLength(0);
    expect(c.requests('session/request_permission')).toHaveLength(0);
  });

  it("[POL-02] originator: the prompt's author is asked on every device of theirs, bob is not", async () => {
    await setRules(hub, [{ id: 'own', match: SHELL, decide: 'ask', approvers: { originator: true } }]);
    const phone = await hub.initializedClient({ token: ann, name: 'ann-phone' });
    const laptop = await hub.initializedClient({ token: annLaptop, name: 'ann-laptop' });
    const b = await hub.initializedClient({ token: bob, name: 'bob-app' });
    const sessionId = await sharedSession(hub, phone, [laptop, b]);
    const turn = prompt(phone, sessionId, 'permission please');
    const req = await permissionOf(laptop, sessionId);
    await permissionOf(phone, sessionId);
    const seen = await opened(b, sessionId);
    expect(seen.interaction.approval?.waitingFor).toBe("waiting for the prompt's author (ann)");
    // bob is not the author: refused, and it stays pending for ann's devices.
    const refused = await restAnswer(seen.interaction.interactionId, bob, { optionId: 'allow_once' });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toContain("waiting for the prompt's author (ann)");
    const inbox = z.object({ interactions: z.array(z.object({ interactionId: z.string() })) });
    expect(inbox.parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions).toHaveLength(1);
    laptop.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await resolvedOn(b, sessionId)).resolvedBy).toMatchObject({ person: 'ann', device: 'ann laptop' });
    await turn;
    expect(b.requests('session/request_permission')).toHaveLength(0);
  });

  it('"always allow" is offered only to admins and the originator, and refused from anyone else', async () => {
    await setRules(hub, []);
    const a = await hub.initializedClient({ token: ann, name: 'ann-app' });
    const b = await hub.initializedClient({ token: bob, name: 'bob-app' });
    const admin = await hub.initializedClient({ name: 'admin-app' });
    const sessionId = await sharedSession(hub, a, [b, admin]);
    const turn = prompt(a, sessionId, 'permission please');
    const kinds = async (c: AcpWsClient) =>
      ((await permissionOf(c, sessionId)).params.options as Array<{ kind: string }>).map((o) => o.kind);
    expect(await kinds(a)).toContain('allow_always');
    expect(await kinds(admin)).toContain('allow_always');
    expect(await kinds(b)).not.toContain('allow_always');
    const inbox = z.object({ interactions: z.array(z.object({ interactionId: z.string() })) });
    const [pending] = inbox.parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions;
    const refused = await restAnswer(pending?.interactionId ?? '', bob, { optionId: 'allow_project' });
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).message).toContain('not offered');
    const ok = await restAnswer(pending?.interactionId ?? '', bob, { optionId: 'allow_once' });
    expect(ok.status).toBe(200);
    await turn;
  });

  it('[POL-04, POL-06] localOnly: a client through a proxy (X-Forwarded-For) is not offered it and is refused; a local one answers', async () => {
    await setRules(hub, [{ id: 'here', match: SHELL, decide: 'ask', localOnly: true }]);
    const proxied = await hub.initializedClient({ token: bob, name: 'via-tunnel', headers: { 'x-forwarded-for': '203.0.113.9' } });
    const local = await hub.initializedClient({ token: carl, name: 'on-this-machine' });
    const sessionId = await sharedSession(hub, local, [proxied]);
    const turn = prompt(local, sessionId, 'permission please');
    const req = await permissionOf(local, sessionId);
    const seen = await opened(proxied, sessionId);
    expect(seen.interaction.approval?.waitingFor).toBe('waiting for an operator on this machine');
    const refused = await restAnswer(seen.interaction.interactionId, bob, { optionId: 'allow_once' }, { 'x-forwarded-for': '203.0.113.9' });
    expect(refused.status).toBe(403);
    local.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await resolvedOn(proxied, sessionId)).resolvedBy?.person).toBe('carl');
    await turn;
    expect(proxied.requests('session/request_permission')).toHaveLength(0);
  });

  it('[POL-06] the zcode-acp-remote profile under a rule that excludes it: not offered, works on unchanged', async () => {
    const { admin, sessionId, app, turn } = await remoteAppPrompts({
      id: 'admins',
      match: SHELL,
      decide: 'ask',
      approvers: { scopes: ['admin'] },
    });
    try {
      const req = await permissionOf(admin, sessionId);
      admin.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
      expect(await turn).toMatchObject({ stopReason: 'end_turn' });
      expect(app.methods()).not.toContain('session/request_permission');
      // Nothing new reached it: what the profile test allows, plus the draft's resolution notice it always got.
      const understood = new Set([
        'session/update',
        '$/zcode/turnState',
        '$/cancel_request',
        'session/request_permission',
        'elicitation/create',
        '_session/permission_resolved',
      ]);
      expect(app.methods().filter((m) => !understood.has(m))).toEqual([]);
    } finally {
      app.close();
    }
  });

  it('[POL-06] the zcode-acp-remote profile under a rule that names its person: offered, its answer wins, the admin is not asked', async () => {
    const { admin, sessionId, app, turn } = await remoteAppPrompts({
      id: 'ann',
      match: SHELL,
      decide: 'ask',
      approvers: { people: ['ann'] },
    });
    try {
      await app.nextCard(null);
      expect((await opened(admin, sessionId)).interaction.approval?.waitingFor).toBe('waiting for ann');
      app.answer('allow_once');
      expect((await resolvedOn(admin, sessionId)).resolvedBy).toMatchObject({ person: 'ann', device: 'ann phone' });
      expect(await turn).toMatchObject({ stopReason: 'end_turn' });
      expect(admin.requests('session/request_permission')).toHaveLength(0);
    } finally {
      app.close();
    }
  });
});
