import { client, type SessionNotification } from '@agentclientprotocol/sdk';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';
import { prompt, resolvedOn, setRules, sharedSession } from '../policy/helpers.js';

/**
 * Partial answers kept on the hub (docs/CLIENT-PROTOCOL.md "Partial answers"): the official ACP
 * SDK client answers the first question of the simulator's two-question AskUserQuestion with
 * `_zcode/partial_answer`, goes away, and a new connection is re-sent the request with that
 * answer (and who gave it, from the token) in `_meta.zcode.partialAnswers`, answers the second,
 * and the child gets both. The same refusals as a whole answer, and the size limit, on a real daemon.
 */

let hub: HubHarness;
let phone: string;
let tablet: string;
beforeAll(async () => {
  hub = await startHub({ limits: { partialAnswerChars: 64 } });
  phone = await hub.token('operate', 'ann phone', 'ann');
  tablet = await hub.token('operate', 'ann tablet', 'ann');
});
afterAll(async () => {
  await hub?.close();
});

const partialSchema = z.object({
  questionIndex: z.number(),
  question: z.string(),
  answer: z.union([z.string(), z.array(z.string())]),
  answeredBy: z.object({ name: z.string(), person: z.string(), device: z.string() }),
});
const elicitSchema = z.object({
  sessionId: z.string(),
  _meta: z.object({ zcode: z.object({ interactionId: z.string(), partialAnswers: z.array(partialSchema).optional() }) }),
});

interface Sdk {
  updates: SessionNotification[];
  forms: Array<z.infer<typeof elicitSchema>>;
  agent: ReturnType<ReturnType<typeof client>['connect']>['agent'];
  close(): void;
}

/** An SDK client that takes forms and leaves them open: it answers through `_zcode/partial_answer`. */
async function connectSdk(token: string, name: string): Promise<Sdk> {
  const updates: SessionNotification[] = [];
  const forms: Sdk['forms'] = [];
  const stream = createWebSocketStream(hub.wsUrl, { WebSocket: WebSocket as never, headers: { authorization: `Bearer ${token}` } });
  const app = client()
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('elicitation/create', ({ params }) => {
      forms.push(elicitSchema.parse(params));
      return new Promise<never>(() => {});
    });
  const conn = app.connect(stream);
  await conn.agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { elicitation: { form: {} } },
    clientInfo: { name, version: '1.0.0' },
  } as never);
  return { updates, forms, agent: conn.agent, close: () => conn.close() };
}

const text = (s: Sdk, sessionId: string) =>
  s.updates
    .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')
    .map((u) => (u.update as { content?: { text?: string } }).content?.text ?? '')
    .join('');

describe('partial answers survive the connection that gave them', () => {
  it('question 1 from one connection, question 2 from a new one: the child gets both, the second sees who answered the first', async () => {
    const first = await connectSdk(phone, 'phone-app');
    const { sessionId } = await first.agent.request('session/new', { cwd: hub.workspace, mcpServers: [] });
    void first.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'ask me a question' }] }).catch(() => {});
    const form = await until(() => first.forms.find((f) => f.sessionId === sessionId), 'the question form');
    const interactionId = form._meta.zcode.interactionId;
    expect(form._meta.zcode.partialAnswers).toBeUndefined();

    const kept = z.object({ interaction: z.object({ state: z.string(), partialAnswers: z.array(partialSchema) }) }).parse(
      await first.agent.request('_zcode/partial_answer', {
        interactionId,
        questionIndex: 0,
        answer: 'pnpm',
        // What the client says about itself is not who answered.
        answeredBy: { name: 'mallory', person: 'mallory' },
      }),
    );
    expect(kept.interaction.state).toBe('pending');
    expect(kept.interaction.partialAnswers.map((p) => [p.questionIndex, p.answer, p.answeredBy.name])).toEqual([
      [0, 'pnpm', 'ann · ann phone'],
    ]);
    first.close();

    const second = await connectSdk(tablet, 'tablet-app');
    await second.agent.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const again = await until(() => second.forms.find((f) => f._meta.zcode.interactionId === interactionId), 'the re-sent form');
    const earlier = again._meta.zcode.partialAnswers ?? [];
    expect(earlier.map((p) => ({ q: p.question, a: p.answer, person: p.answeredBy.person, device: p.answeredBy.device }))).toEqual([
      { q: 'Which package manager should I use?', a: 'pnpm', person: 'ann', device: 'ann phone' },
    ]);
    // The inbox says the same.
    const inbox = z
      .object({ interactions: z.array(z.object({ interactionId: z.string(), partialAnswers: z.array(partialSchema).optional() })) })
      .parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json());
    expect(inbox.interactions.find((i) => i.interactionId === interactionId)?.partialAnswers?.[0]?.answer).toBe('pnpm');

    const done = z
      .object({ interaction: z.object({ state: z.string(), resolvedBy: z.object({ device: z.string() }) }) })
      .parse(await second.agent.request('_zcode/partial_answer', { interactionId, questionIndex: 1, answer: ['lint', 'tests'] }));
    expect(done.interaction.state).toBe('resolved');
    expect(done.interaction.resolvedBy.device).toBe('ann tablet');
    // The simulator echoes what the child was given; it streams, so wait for the last line.
    const said = await until(() => (/Checks: [^\n]*\n/.test(text(second, sessionId)) ? text(second, sessionId) : undefined), 'the echo');
    expect(said).toContain('Tooling: pnpm');
    expect(said).toContain('Checks: lint, tests\n');
    // The audit log names both devices: the one that gave part of the answer, and the one that finished it.
    const audit = z
      .object({
        entries: z.array(z.object({ action: z.string(), who: z.looseObject({ name: z.string() }), detail: z.unknown().optional() })),
      })
      .parse(await (await hub.api('/api/audit')).json())
      .entries.filter(
        (e) => e.action === 'answer' && (e.detail as { interactionId?: string } | undefined)?.interactionId === interactionId,
      );
    expect(audit.map((e) => [e.who.name, (e.detail as { partial?: number }).partial])).toEqual([
      ['ann phone', 0],
      ['ann tablet', undefined],
    ]);
    second.close();
  });

  it('a partial answer is refused like a whole one, over ACP and REST: view scope, an ask rule that leaves the caller out, a settled question, the size limit', async () => {
    const viewer = await hub.token('view', 'wall screen', 'ann');
    const bobToken = await hub.token('operate', 'bob phone', 'bob');
    await setRules(hub, [{ id: 'ann-only', match: { kind: 'question' }, decide: 'ask', approvers: { people: ['ann'] } }]);
    try {
      const ann = await hub.initializedClient({ token: phone, name: 'ann-app', elicitationForm: true });
      const bob = await hub.initializedClient({ token: bobToken, name: 'bob-app', elicitationForm: true });
      const wall = await hub.initializedClient({ token: viewer, name: 'wall' });
      const sessionId = await sharedSession(hub, ann, [bob, wall]);
      const turn = prompt(ann, sessionId, 'ask me a question');
      const form = await ann.waitForRequest('elicitation/create', (r) => (r.params as { sessionId?: string }).sessionId === sessionId);
      const interactionId = elicitSchema.parse(form.params)._meta.zcode.interactionId;
      const partial = (c: typeof ann, questionIndex: number, answer: string | string[]) =>
        c.request('_zcode/partial_answer', { interactionId, questionIndex, answer }).then(
          () => 'kept',
          (err: { message?: string; code?: number }) => err.message ?? String(err.code),
        );

      expect(await partial(bob, 0, 'yarn')).toContain('bob may not answer it');
      expect(await partial(wall, 0, 'yarn')).toMatch(/scope|not allowed/i);
      expect(await partial(ann, 0, 'x'.repeat(65))).toContain('at most 64 characters');
      expect(await partial(ann, 5, 'npm')).toContain('no question 5');
      // None of the refused ones was kept.
      const inbox = async () =>
        z
          .object({ interactions: z.array(z.object({ partialAnswers: z.array(partialSchema).optional() })) })
          .parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions[0]?.partialAnswers;
      expect(await inbox()).toBeUndefined();

      // Over REST the same: refused with the rules' reason, kept when the caller may answer.
      const rest = (token: string, body: unknown) =>
        hub.api(`/api/interactions/${interactionId}/partial`, {
          method: 'POST',
          token,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const refused = await rest(bobToken, { questionIndex: 0, answer: 'yarn' });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { details: { reason: string } } }).error.details.reason).toBe('not_eligible');
      expect((await rest(viewer, { questionIndex: 0, answer: 'yarn' })).status).toBe(403);
      expect(await inbox()).toBeUndefined();
      expect((await rest(phone, { questionIndex: 0, answer: 'x'.repeat(64) })).status).toBe(200);
      expect((await inbox())?.map((p) => p.answeredBy.device)).toEqual(['ann phone']);
      expect(await partial(ann, 1, [])).toBe('kept');
      expect((await resolvedOn(bob, sessionId)).resolvedBy?.person).toBe('ann');
      // Completing it withdrew ann's own form.
      await ann.waitForNotification('$/cancel_request');
      expect((await turn).stopReason).toBe('end_turn');
      expect(await partial(ann, 0, 'npm')).toContain('already resolved');
    } finally {
      await setRules(hub, []);
    }
  });
});
