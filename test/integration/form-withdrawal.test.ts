import { client, type SessionNotification } from '@agentclientprotocol/sdk';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';

/**
 * A form (`elicitation/create`) every client cancels (docs/CLIENT-PROTOCOL.md "Interactions"):
 * a client's `cancel` withdraws that client only, while another still holds the form — a client
 * that joins meanwhile is offered it too — and the last withdrawal answers the agent `cancel`, so
 * the turn goes on instead of waiting forever. An explicit `decline` answers the agent at once.
 * Official ACP SDK clients over WebSocket, the real daemon and simulator child.
 */

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

const formSchema = z.object({ sessionId: z.string(), _meta: z.object({ zcode: z.object({ interactionId: z.string() }) }) });
type Reply = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

interface Sdk {
  updates: SessionNotification[];
  /** Forms received and not answered yet, with the function that answers each. */
  forms: Array<{ form: z.infer<typeof formSchema>; reply: (r: Reply) => void }>;
  agent: ReturnType<ReturnType<typeof client>['connect']>['agent'];
  close(): void;
}

/** An SDK client that declares form elicitation and leaves each form open until the test answers it. */
async function connectSdk(name: string): Promise<Sdk> {
  const updates: SessionNotification[] = [];
  const forms: Sdk['forms'] = [];
  const stream = createWebSocketStream(hub.wsUrl, {
    WebSocket: WebSocket as never,
    headers: { authorization: `Bearer ${hub.adminToken}` },
  });
  const app = client()
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest(
      'elicitation/create',
      ({ params }) => new Promise((resolve) => forms.push({ form: formSchema.parse(params), reply: resolve })),
    );
  const conn = app.connect(stream);
  await conn.agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { elicitation: { form: {} } },
    clientInfo: { name, version: '1.0.0' },
  } as never);
  return { updates, forms, agent: conn.agent, close: () => conn.close() };
}

const said = (s: Sdk, sessionId: string): string =>
  s.updates
    .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')
    .map((u) => (u.update as { content?: { text?: string } }).content?.text ?? '')
    .join('');

const inboxSchema = z.object({ interactions: z.array(z.object({ interactionId: z.string(), state: z.string() })) });
async function pendingIds(sessionId: string): Promise<string[]> {
  const inbox = inboxSchema.parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json());
  return inbox.interactions.map((i) => i.interactionId);
}

const formOf = (s: Sdk, sessionId: string) => until(() => s.forms.find((f) => f.form.sessionId === sessionId), 'the question form');

/** ann opens a session bob has loaded and asks the simulator's question: both are offered the form. */
async function formToTwo() {
  const ann = await connectSdk('ann-editor');
  const bob = await connectSdk('bob-editor');
  const { sessionId } = await ann.agent.request('session/new', { cwd: hub.workspace, mcpServers: [] });
  await bob.agent.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
  const turn = ann.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'ask me a question' }] });
  const annForm = await formOf(ann, sessionId);
  const bobForm = await formOf(bob, sessionId);
  expect(bobForm.form._meta.zcode.interactionId).toBe(annForm.form._meta.zcode.interactionId);
  return { ann, bob, sessionId, turn, annForm, bobForm, close: () => [ann, bob].forEach((c) => c.close()) };
}

/** What the agent said in the turn, once its last line is there. */
const answerOf = (s: Sdk, sessionId: string, end: string) =>
  until(() => (said(s, sessionId).includes(end) ? said(s, sessionId) : undefined), 'the answer');

describe('a form every client cancels', () => {
  it('every client cancels: the last cancel answers the agent `cancel` and the turn goes on', async () => {
    const t = await formToTwo();
    try {
      t.annForm.reply({ action: 'cancel' });
      t.bobForm.reply({ action: 'cancel' });
      expect((await t.turn).stopReason).toBe('end_turn');
      expect(await pendingIds(t.sessionId)).toEqual([]);
      expect(await answerOf(t.ann, t.sessionId, 'defaults.')).toContain('You did not answer (Every client dismissed the request)');
    } finally {
      t.close();
    }
  });

  it('a cancel while another client holds the form withdraws only that client; one that joins is offered it and may answer', async () => {
    const t = await formToTwo();
    const cy = await connectSdk('cy-editor');
    try {
      // ann withdraws while bob holds the form: still pending, so a client that joins is offered it.
      t.annForm.reply({ action: 'cancel' });
      await cy.agent.request('session/load', { sessionId: t.sessionId, cwd: hub.workspace, mcpServers: [] });
      const cyForm = await formOf(cy, t.sessionId);
      expect(cyForm.form._meta.zcode.interactionId).toBe(t.annForm.form._meta.zcode.interactionId);
      // bob withdraws while cy holds it; cy's answer (every question skipped) is the one the agent gets.
      t.bobForm.reply({ action: 'cancel' });
      cyForm.reply({ action: 'accept', content: {} });
      expect((await t.turn).stopReason).toBe('end_turn');
      const text = await answerOf(t.ann, t.sessionId, '(skipped)\n');
      expect(text).toContain('Thanks. Your answers:');
      expect(text).not.toContain('You did not answer');
    } finally {
      t.close();
      cy.close();
    }
  });

  it('an explicit decline from one client answers the agent at once, with the other form still open', async () => {
    const t = await formToTwo();
    try {
      t.bobForm.reply({ action: 'decline' });
      expect((await t.turn).stopReason).toBe('end_turn');
      expect(await pendingIds(t.sessionId)).toEqual([]);
      expect(await answerOf(t.ann, t.sessionId, 'defaults.')).toContain('You did not answer (AskUserQuestion was declined)');
    } finally {
      t.close();
    }
  });
});
