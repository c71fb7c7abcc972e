import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * An MCP server's elicitation reaches the client as the
 * server's own form (`elicitation/create` with its `requestedSchema`), and the answer, keyed by
 * field, goes back the way the server reads it: `answers[<question>]` / `answer_<i>`. The
 * simulator's `deploy` turn reads only those keys, like the real elicitation broker, and its
 * tool result says what the MCP server received.
 */
interface Update {
  sessionId: string;
  update: {
    sessionUpdate: string;
    toolCallId?: string;
    rawOutput?: unknown;
    content?: Array<{ type: string; content?: { text?: string } }>;
  };
}

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2'] });
});
afterAll(async () => {
  await hub?.close();
});

describe('MCP elicitation answers', () => {
  it('a form answer keyed by field reaches the MCP server', async () => {
    const c = await hub.initializedClient({ name: 'deployer', elicitationForm: true });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', {
      cwd: hub.workspace,
      mcpServers: [],
      _meta: { zcode: { mode: 'yolo' } },
    });
    const turn = c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'deploy the web service' }],
    });
    const elicit = await c.waitForRequest('elicitation/create');
    const schema = (elicit.params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(['environment', 'migrate']);
    c.answer(elicit.id, { action: 'accept', content: { environment: 'staging', migrate: true } });
    expect((await turn).stopReason).toBe('end_turn');
    const updates = c.notifications<Update>('session/update').filter((u) => u.sessionId === sessionId);
    const outputs = JSON.stringify(
      updates.filter((u) => u.update.sessionUpdate === 'tool_call_update').map((u) => [u.update.rawOutput, u.update.content]),
    );
    expect(outputs).toContain('The MCP server received {\\"environment\\":\\"staging\\",\\"migrate\\":true}');
    const text = updates
      .filter((u) => u.update.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u.update as { content?: { text?: string } }).content?.text ?? '')
      .join('');
    expect(text).toContain('Deployed to staging');
  });
});
