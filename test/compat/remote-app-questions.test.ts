import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { RemoteApp } from '../helpers/remote-app.js';

/**
 * zcode-acp-remote against a real hub and the real simulator: the app keeps one
 * pending permission card and reads a question's text from the tool call the card points at, so
 * questions must come one card at a time, each tied to a tool call it has applied, multi-select
 * as one Include/Skip card per option.
 */
let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

function agentText(app: RemoteApp, sessionId: string): string {
  return app.received
    .filter((m) => m.method === 'session/update' && m.params.sessionId === sessionId)
    .map((m) => m.params.update as { sessionUpdate?: string; content?: { type?: string; text?: string } })
    .filter((u) => u.sessionUpdate === 'agent_message_chunk' && u.content?.type === 'text')
    .map((u) => u.content?.text ?? '')
    .join('');
}

describe('zcode-acp-remote: questions', () => {
  it('asks one question card at a time with its text and every option, multi-select included', async () => {
    // Sessions are created in the editor; the app only attaches (its source: "attach-only client").
    const editor = await hub.initializedClient({ name: 'editor', elicitationForm: true });
    const { sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const app = await RemoteApp.connect(hub.url, await hub.token('operate', 'phone'));
    try {
      const [instance] = (await (await app.api('/api/instances')).json()) as Array<{ workspace: string }>;
      await app.loadSession(sessionId, instance?.workspace);
      const turn = app.prompt(sessionId, 'question');
      turn.catch(() => undefined);

      const single = await app.nextCard(null, 'the first question card');
      expect(single.isQuestion).toBe(true);
      expect(single.text).toContain('Which package manager should I use?');
      expect(single.options.map((o) => o.name)).toEqual(['npm', 'pnpm', 'yarn', 'Skip this question']);
      app.answer(single.options[1]!.optionId);

      let previous = single;
      const picks: Record<string, 'Include' | 'Skip'> = { lint: 'Include', typecheck: 'Skip', tests: 'Include' };
      for (const [label, pick] of Object.entries(picks)) {
        const card = await app.nextCard(previous, `the multi-select card for ${label}`);
        expect(card.isQuestion).toBe(true);
        expect(card.text).toContain('Which checks should run before commit?');
        expect(card.text).toContain(label);
        const option = card.options.find((o) => o.name === `${pick}: ${label}`);
        expect(option, `${pick}: ${label}`).toBeDefined();
        app.answer(option!.optionId);
        previous = card;
      }

      const result = (await turn) as { stopReason: string };
      expect(result.stopReason).toBe('end_turn');
      expect(app.cards).toHaveLength(4);
      expect(app.replaced).toBe(0);
      const text = agentText(app, sessionId);
      expect(text).toContain('Tooling: pnpm');
      expect(text).toContain('Checks: lint, tests');
    } finally {
      app.close();
      await editor.close();
    }
  });
});
