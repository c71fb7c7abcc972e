import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableCommands } from '../../src/acp/available-commands.js';
import { LIMITS } from '../../src/limits.js';
import type { AcpWsClient, InboundMessage } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { RemoteApp } from '../helpers/remote-app.js';
import { until } from '../helpers/until.js';

/**
 * The agent's slash commands (a snapshot's `slashCommands`) reach every client as ACP
 * `available_commands_update` (docs/CLIENT-PROTOCOL.md "Slash commands"): after the
 * `session/new` / `session/load` / `session/resume` result (the client then knows the session),
 * without a seq (state, not history), to the zcode-acp-remote profile too (its `/` menu reads it).
 */

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

type Update = { sessionId: string; update: { sessionUpdate: string; availableCommands?: unknown }; _meta?: unknown };

/** The messages one request brought, with where its answer came. */
async function around(
  c: AcpWsClient,
  method: string,
  params: unknown,
): Promise<{ answer: InboundMessage; after: InboundMessage[]; before: InboundMessage[] }> {
  const from = c.messages.length;
  const answer = await c.requestRaw(method, params);
  await until(() => (commandsIn(c.messages.slice(from)).length > 0 ? true : undefined), 'the commands update');
  const seen = c.messages.slice(from);
  const at = seen.indexOf(answer);
  return { answer, before: seen.slice(0, at), after: seen.slice(at + 1) };
}

function commandsIn(messages: InboundMessage[]): Update[] {
  return messages
    .filter((m) => m.method === 'session/update')
    .map((m) => m.params as Update)
    .filter((p) => p.update.sessionUpdate === 'available_commands_update');
}

const SIMULATOR_COMMANDS = [
  { name: 'compact', description: 'Summarise the conversation to free context' },
  { name: 'goal', description: 'Set or manage a long-running goal', input: { hint: '<objective>' } },
  { name: 'review', description: 'Review the workspace changes and list what to fix', input: { hint: '<focus>' } },
];

describe('the agent slash commands as available_commands_update', () => {
  let sessionId: string;

  it('follows the session/new result, once, without a seq', async () => {
    const c = await hub.initializedClient({ name: 'editor' });
    const { answer, before, after } = await around(c, 'session/new', { cwd: hub.workspace, mcpServers: [] });
    sessionId = (answer.result as { sessionId: string }).sessionId;
    expect(commandsIn(before)).toEqual([]);
    const sent = commandsIn(after);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({ sessionId, update: { sessionUpdate: 'available_commands_update', availableCommands: SIMULATOR_COMMANDS } });
  });

  it('follows a session/load and a session/resume of a late joiner', async () => {
    const late = await hub.initializedClient({ name: 'late' });
    const load = await around(late, 'session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    expect(commandsIn(load.before)).toEqual([]);
    expect(commandsIn(load.after).map((u) => u.update.availableCommands)).toEqual([SIMULATOR_COMMANDS]);
    const again = await hub.initializedClient({ name: 'again' });
    const resume = await around(again, 'session/resume', { sessionId, cwd: hub.workspace, mcpServers: [] });
    expect(commandsIn(resume.after)).toHaveLength(1);
  });

  it('reaches the zcode-acp-remote profile, whose "/" menu reads it', async () => {
    const app = await RemoteApp.connect(hub.url, await hub.token('operate', 'phone'));
    try {
      await app.loadSession(sessionId, hub.workspace);
      const seen = await until(
        () =>
          app.received.find(
            (m) => m.method === 'session/update' && (m.params as Update).update.sessionUpdate === 'available_commands_update',
          ),
        'the app to get the commands',
      );
      expect((seen.params as Update).update.availableCommands).toEqual(SIMULATOR_COMMANDS);
    } finally {
      app.close();
    }
  });
});

describe('reading slashCommands leniently', () => {
  it('drops entries without a usable name, repeats and non-strings, and never the list', () => {
    const read = availableCommands(
      [
        { name: 'ok', description: 'fine' },
        { name: '' },
        { name: 'two words' },
        { name: '/slashed' },
        { description: 'no name' },
        'compact',
        { name: 'ok', description: 'a repeat' },
        { name: 'hinted', description: 7, inputHint: '  <file>  ' },
      ],
      LIMITS.availableCommandsMax,
    );
    expect(read).toEqual([
      { name: 'ok', description: 'fine' },
      { name: 'hinted', description: '', input: { hint: '<file>' } },
    ]);
    expect(availableCommands({ not: 'a list' }, 10)).toBeUndefined();
  });

  it(`keeps at most availableCommandsMax (default ${LIMITS.availableCommandsMax}) commands`, () => {
    const many = Array.from({ length: LIMITS.availableCommandsMax + 5 }, (_, i) => ({ name: `c${i}`, description: '' }));
    const read = availableCommands(many, LIMITS.availableCommandsMax);
    expect(read).toHaveLength(LIMITS.availableCommandsMax);
    expect(read?.at(-1)?.name).toBe(`c${LIMITS.availableCommandsMax - 1}`);
  });
});
