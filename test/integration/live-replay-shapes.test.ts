import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { client, type RequestPermissionRequest, type SessionNotification } from '@agentclientprotocol/sdk';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { KEYWORDS } from '../../src/simulator/scenarios/select.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * One shape per field, live and replayed (docs/CLIENT-PROTOCOL.md "Live and replayed updates"):
 * for every scenario of the simulator, a turn is run live by one official-SDK client, then a
 * second SDK client `session/load`s the same session. Every update either client receives is a
 * valid `SessionNotification` by the SDK's own zod schema, and the replay says what the live
 * stream said: each tool card folded to its final state has the same title, kind, status,
 * locations, rawInput and rawOutput, the message and thought text is the same, and every field
 * both streams carry has the same JSON type. Left out, as documented: `_meta` (the replay
 * marker, the terminal and sub-agent conventions), `content` of a card (live shows progress
 * tails, a reload shows the final output), chunk boundaries, and kinds only live sends (usage,
 * titles, a plan from the simulator's own todo event).
 */

// The SDK's generated zod schemas are not an export of the package; they are its own files.
const sdkDir = path.resolve(
  path.dirname(createRequire(import.meta.url).resolve('@agentclientprotocol/sdk/schema/v1/schema.json')),
  '..',
  '..',
);
const { zSessionNotification } = (await import(pathToFileURL(path.join(sdkDir, 'dist/v1/schema/zod.gen.js')).href)) as {
  zSessionNotification: { safeParse(v: unknown): { success: boolean; error?: { message: string } } };
};

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.1'] });
});
afterAll(async () => {
  await hub?.close();
});

interface SdkClient {
  updates: SessionNotification[];
  invalid: string[];
  agent: ReturnType<ReturnType<typeof client>['connect']>['agent'];
  close(): void;
}

/** An SDK client that checks every session/update itself too and answers every ask with its first option. */
function connectSdk(): SdkClient {
  const updates: SessionNotification[] = [];
  const invalid: string[] = [];
  const stream = createWebSocketStream(hub.wsUrl, {
    WebSocket: WebSocket as never,
    headers: { authorization: `Bearer ${hub.adminToken}` },
  });
  const app = client()
    .onNotification('session/update', ({ params }) => {
      const checked = zSessionNotification.safeParse(params);
      if (!checked.success) invalid.push(`${JSON.stringify(params)}: ${checked.error?.message}`);
      updates.push(params);
    })
    .onRequest('session/request_permission', ({ params }: { params: RequestPermissionRequest }) => {
      const allow = params.options.find((o) => o.kind === 'allow_once') ?? params.options[0];
      return allow ? { outcome: { outcome: 'selected', optionId: allow.optionId } } : { outcome: { outcome: 'cancelled' } };
    });
  const conn = app.connect(stream);
  return { updates, invalid, agent: conn.agent, close: () => conn.close() };
}

type Json = Record<string, unknown>;

/** A tool card folded to its final state: `tool_call`, then every `tool_call_update`'s set fields. */
function foldCards(updates: readonly Json[]): Map<string, Json> {
  const cards = new Map<string, Json>();
  for (const u of updates) {
    if (u['sessionUpdate'] !== 'tool_call' && u['sessionUpdate'] !== 'tool_call_update') continue;
    const id = String(u['toolCallId']);
    const card = cards.get(id) ?? {};
    for (const [k, v] of Object.entries(u)) if (v !== undefined && v !== null && k !== 'sessionUpdate') card[k] = v;
    cards.set(id, card);
  }
  return cards;
}

function text(updates: readonly Json[], kind: string): string {
  return updates
    .filter((u) => u['sessionUpdate'] === kind)
    .map((u) => {
      const c = u['content'] as { type?: string; text?: string } | undefined;
      return c?.type === 'text' ? (c.text ?? '') : '';
    })
    .join('');
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** `kind.field → JSON types` for every field of every update, recursively into objects (not `_meta`). */
function shapes(updates: readonly Json[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const walk = (prefix: string, v: unknown): void => {
    const set = out.get(prefix) ?? new Set<string>();
    set.add(jsonType(v));
    out.set(prefix, set);
    if (jsonType(v) === 'object') for (const [k, x] of Object.entries(v as Json)) if (k !== '_meta') walk(`${prefix}.${k}`, x);
  };
  // A card's fields arrive in its `tool_call` or in any `tool_call_update`: one namespace.
  for (const u of updates) walk(String(u['sessionUpdate']).replace(/^tool_call(_update)?$/, 'tool card'), u);
  return out;
}

/** One prompt per scenario: the keyword picks it (select.ts); `answer` is the no-keyword turn. */
const SCENARIOS = ['answer', ...KEYWORDS];
const PROMPTS: Record<string, string> = { answer: 'explain this repo' };
/** What a scenario's last live turn says when it has run (background: the task's follow-up turn). */
const SETTLED: Record<string, string> = { background: 'The background task finished' };

describe('live and replayed updates have one shape per field', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario}: session/load replays what the live turn showed`, async () => {
      const prompter = connectSdk();
      const watcher = connectSdk();
      const loader = connectSdk();
      try {
        const init = (c: SdkClient, name: string) =>
          c.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name, version: '1' } });
        await init(prompter, 'prompter');
        await init(watcher, 'watcher');
        const { sessionId } = await prompter.agent.request('session/new', { cwd: hub.workspace, mcpServers: [] });
        // The watcher sees the turn live as every other client does (the prompt's echo included).
        await watcher.agent.request('session/resume', { sessionId, cwd: hub.workspace, mcpServers: [] });
        // A failed turn answers with an error; what it streamed before is still compared.
        await prompter.agent
          .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: PROMPTS[scenario] ?? `please ${scenario} now` }] })
          .catch(() => undefined);
        // Settled: the session is idle by the watcher's own request (its answer follows every
        // update sent to it before), every card is closed (a background launch stays open until
        // its task ends) and a background task's follow-up turn has run.
        const seen = () => watcher.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update as unknown as Json);
        const settled = async (): Promise<boolean> => {
          const { sessions } = await watcher.agent.request('session/list', {});
          const state = (sessions.find((x) => x.sessionId === sessionId)?._meta as { zcode?: { state?: string } } | undefined)?.zcode
            ?.state;
          const open = [...foldCards(seen()).values()].some((c) => c['status'] === 'pending' || c['status'] === 'in_progress');
          const followUp = SETTLED[scenario];
          return state === 'idle' && !open && (followUp === undefined || text(seen(), 'agent_message_chunk').includes(followUp));
        };
        await expect.poll(settled, { timeout: 30_000 }).toBe(true);
        const liveUpdates = watcher.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update as unknown as Json);
        expect(liveUpdates.length).toBeGreaterThan(0);

        await init(loader, 'loader');
        await loader.agent.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
        const replayed = loader.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update as unknown as Json);
        expect(replayed.length).toBeGreaterThan(0);

        for (const c of [prompter, watcher, loader]) expect(c.invalid).toEqual([]);

        const liveCards = foldCards(liveUpdates);
        const replayCards = foldCards(replayed);
        expect([...replayCards.keys()].sort()).toEqual([...liveCards.keys()].sort());
        for (const [id, card] of replayCards) {
          const was = liveCards.get(id) ?? {};
          for (const field of ['title', 'kind', 'status', 'locations', 'rawInput', 'rawOutput'])
            expect({ id, field, value: card[field] }).toEqual({ id, field, value: was[field] });
        }
        expect(text(replayed, 'agent_message_chunk')).toBe(text(liveUpdates, 'agent_message_chunk'));
        expect(text(replayed, 'agent_thought_chunk')).toBe(text(liveUpdates, 'agent_thought_chunk'));
        expect(text(replayed, 'user_message_chunk')).toBe(text(liveUpdates, 'user_message_chunk'));

        const liveShapes = shapes(liveUpdates);
        for (const [field, types] of shapes(replayed)) {
          const seen = liveShapes.get(field);
          if (seen !== undefined) expect({ field, types: [...types].sort() }).toEqual({ field, types: [...seen].sort() });
        }
      } finally {
        for (const c of [prompter, watcher, loader]) c.close();
      }
    }, 60_000);
  }
});
