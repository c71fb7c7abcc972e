import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundedToolCall } from '../../src/acp/bounded-tool-call.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { prompt } from '../policy/helpers.js';

/**
 * Interaction views are bounded (docs/CLIENT-PROTOCOL.md "Interactions", `interactionViewTextMax`):
 * a Write's content, which is both its input and its diff, is carried once in the inbox and in
 * read-only copies, and cut at the limit with `_meta.zcode.truncated`; the live request the
 * answering client is sent keeps the whole text. Real daemon, simulator child, limit crossed.
 */
const MAX = 100;
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ limits: { interactionViewTextMax: MAX } });
});
afterAll(async () => {
  await hub?.close();
});

const toolCallSchema = z.looseObject({
  rawInput: z.record(z.string(), z.unknown()),
  content: z.array(z.looseObject({ type: z.string(), newText: z.string().optional() })),
  _meta: z
    .looseObject({ zcode: z.looseObject({ truncated: z.boolean().optional(), omittedInput: z.array(z.string()).optional() }) })
    .optional(),
});

describe('interaction views are bounded', () => {
  it('a Write over the limit: the inbox and a viewer carry its content once, cut and marked; the live request has it whole', async () => {
    const viewer = await hub.token('view', 'wall screen', 'walt');
    const admin = await hub.initializedClient({ name: 'admin-app' });
    const wall = await hub.initializedClient({ token: viewer, name: 'wall' });
    const { sessionId } = await admin.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await wall.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const turn = prompt(admin, sessionId, 'edit the readme');
    const live = await admin.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    const liveCall = toolCallSchema.parse(z.looseObject({ toolCall: z.unknown() }).parse(live.params).toolCall);
    const content = z.string().parse(liveCall.rawInput['content']);
    expect(content.length).toBeGreaterThan(MAX);
    expect(liveCall.content[0]?.newText).toBe(content);

    const inbox = z
      .object({ interactions: z.array(z.object({ toolCall: toolCallSchema })) })
      .parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()).interactions;
    const opened = await wall.waitForNotification<{ interaction: { toolCall: unknown } }>('_zcode/interaction_opened', () => true);
    for (const view of [inbox[0]!.toolCall, toolCallSchema.parse(opened.interaction.toolCall)]) {
      expect(view.rawInput['content']).toBeUndefined();
      expect(view.rawInput['file_path']).toBe(liveCall.rawInput['file_path']);
      expect(view.content[0]?.newText).toBe(content.slice(0, MAX));
      expect(view._meta?.zcode).toMatchObject({ truncated: true, omittedInput: ['content'] });
    }
    admin.answer(live.id, { outcome: { outcome: 'selected', optionId: 'deny' } });
    const second = await admin.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId && q.id !== live.id);
    admin.answer(second.id, { outcome: { outcome: 'selected', optionId: 'deny' } });
    expect((await turn).stopReason).toBe('end_turn');
  });

  it('under the limit nothing is cut; a command is kept as it is', () => {
    const call = { toolCallId: 'c', title: 't', rawInput: { command: 'npm test' } };
    expect(boundedToolCall(call, MAX)).toBe(call);
    const long = { toolCallId: 'c', title: 't', rawInput: { command: 'x'.repeat(MAX + 1) } };
    expect(boundedToolCall(long, MAX)).toMatchObject({ rawInput: { command: 'x'.repeat(MAX) }, _meta: { zcode: { truncated: true } } });
  });
});
