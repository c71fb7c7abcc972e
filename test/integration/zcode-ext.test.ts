import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCODE_NOTIFICATION, ZCODE_REQUEST } from '../../src/zcode-ext/methods.js';
import { ZCODE_NOTIFICATION_PARAMS } from '../../src/zcode-ext/schemas.js';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

/** Every `_zcode/*` notification a client received, checked against its schema. */
function checkAll(client: AcpWsClient): string[] {
  const seen: string[] = [];
  for (const method of Object.values(ZCODE_NOTIFICATION)) {
    for (const params of client.notifications(method)) {
      const parsed = ZCODE_NOTIFICATION_PARAMS[method].safeParse(params);
      expect({ method, ok: parsed.success, issues: parsed.success ? [] : parsed.error.issues }).toEqual({ method, ok: true, issues: [] });
      seen.push(method);
    }
  }
  return seen;
}

describe('the _zcode/* extension module describes what a real daemon sends', () => {
  it('every notification of a turn with a permission and one with a question, seen by an operator, a viewer, an old editor and a late phone, parses with its schema', async () => {
    const op = await hub.initializedClient({ name: 'operator' });
    const viewer = await hub.initializedClient({ name: 'viewer', token: await hub.token('view', 'viewer') });
    const late = await hub.initializedClient({ name: 'late', token: await hub.token('operate', 'late phone') });
    const { sessionId } = await op.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await viewer.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    // An editor of ACP v1's first days (no clientInfo): the newer update kinds reach it folded.
    const old = await hub.client({ token: await hub.token('view', 'old editor') });
    await old.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    await old.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    await late.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const turn = op.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'permission please' }] });
    const req = await op.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    const inbox = await op.request<{ interactions: unknown[] }>(ZCODE_REQUEST.interactionsList, { sessionId });
    expect(inbox.interactions).toHaveLength(1);
    const lateReq = await late.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    op.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    await turn;
    // An answer after the request was withdrawn is told why it did not count.
    await late.waitForNotification('$/cancel_request', (p: { requestId: number }) => p.requestId === lateReq.id);
    late.answer(lateReq.id, { outcome: { outcome: 'selected', optionId: 'deny' } });
    await late.waitForNotification(ZCODE_NOTIFICATION.answerRefused);
    await viewer.waitForNotification(ZCODE_NOTIFICATION.interactionResolved, (p: { sessionId: string }) => p.sessionId === sessionId);
    await op.waitForNotification(ZCODE_NOTIFICATION.turnState, (p: { state: string }) => p.state === 'idle');
    // A question answered one question at a time: everyone attached sees the answers kept so far.
    const asked = op.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'ask me a question' }] });
    const question = await op.waitForRequest(
      'session/request_permission',
      (r) => (r.params as { _meta?: { zcode?: { kind?: string } } })._meta?.zcode?.kind === 'question',
    );
    const interactionId = (question.params as { _meta: { zcode: { interactionId: string } } })._meta.zcode.interactionId;
    await op.request(ZCODE_REQUEST.partialAnswer, { interactionId, questionIndex: 0, answer: 'npm' });
    await viewer.waitForNotification(
      ZCODE_NOTIFICATION.interactionProgress,
      (p: { interactionId: string }) => p.interactionId === interactionId,
    );
    await op.request(ZCODE_REQUEST.partialAnswer, { interactionId, questionIndex: 1, answer: [] });
    await asked;
    await op.request('session/delete', { sessionId });
    await viewer.waitForNotification(ZCODE_NOTIFICATION.sessionDeleted, (p: { sessionId: string }) => p.sessionId === sessionId);
    await old.waitForNotification(ZCODE_NOTIFICATION.sessionUpdate, (p: { sessionId: string }) => p.sessionId === sessionId);

    const seen = new Set([...checkAll(op), ...checkAll(viewer), ...checkAll(old), ...checkAll(late)]);
    // The run above produces each of them at least once.
    expect([...seen].sort()).toEqual(Object.values(ZCODE_NOTIFICATION).sort());
  });
});
