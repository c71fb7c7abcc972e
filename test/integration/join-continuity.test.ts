/**
 * The continuity property, over real sockets and the real simulator child: for one scripted turn
 * (thoughts, a Read tool, a Markdown answer, a Bash call behind a permission with progress
 * output, an AskUserQuestion), a client that joins with `session/load` after the k-th update —
 * for every k the turn produces — ends with the same folded transcript (prompt, text, thoughts,
 * tool calls with their final state, pending interactions) as a client present from the start.
 * Every client profile: plain ACP over WebSocket, the zcode-acp-remote compat profile
 * (`/acp?instance=&token=`), and plain ACP over Streamable HTTP (POSTs and one SSE stream; its
 * reference is a WebSocket client, as the fold of plain ACP is the same on both transports).
 *
 * A joiner is launched the moment the reference client has seen its k-th update; the hub attaches
 * it wherever the stream then is (at k, or a little later on a busy machine), which is exactly the
 * situation of a real joiner. The turn pauses at the permission and at the question: at both
 * pauses, and at the end, every joiner so far must fold to what the reference folds to.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { AcpHttpClient } from '../helpers/acp-http-client.js';
import type { AcpWsClient, InboundMessage } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';

type Profile = 'acp' | 'compat' | 'http';

/** What a joiner is to the property: the messages it received, in order, once it has loaded the session. */
interface Joined {
  messages: readonly InboundMessage[];
}

interface Tool {
  title?: unknown;
  kind?: unknown;
  status?: unknown;
  content?: unknown;
  rawInput?: unknown;
}

/** What a user of a client sees of the session, folded from what the client received. */
interface Folded {
  prompt: string;
  text: string;
  thoughts: string;
  tools: Record<string, Tool>;
  pending: string[];
}

const updateParams = z.looseObject({
  sessionId: z.string(),
  update: z.looseObject({ sessionUpdate: z.string(), content: z.unknown().optional(), toolCallId: z.string().optional() }),
});
const textOf = (content: unknown): string =>
  typeof content === 'object' && content !== null && 'text' in content && typeof content.text === 'string' ? content.text : '';

const hasZcodeMeta = (params: unknown): boolean =>
  z.looseObject({ _meta: z.looseObject({ zcode: z.looseObject({}) }) }).safeParse(params).success;

/** Folds a client's messages in arrival order (replay and live alike). */
function fold(messages: readonly InboundMessage[], sessionId: string): Folded {
  const f: Folded = { prompt: '', text: '', thoughts: '', tools: {}, pending: [] };
  const open = new Map<string | number, string>();
  for (const m of messages) {
    if (m.method === 'session/update') {
      const p = updateParams.safeParse(m.params);
      if (!p.success || p.data.sessionId !== sessionId) continue;
      // The session's transcript carries `_meta.zcode` (a journal seq, or `replay`); the compat
      // profile's per-copy question cards (stepwise-copy.ts) are that copy's UI, not transcript —
      // the question itself is folded as a pending interaction below.
      if (!hasZcodeMeta(m.params)) continue;
      const u = p.data.update;
      switch (u.sessionUpdate) {
        case 'user_message_chunk':
          f.prompt += textOf(u.content);
          break;
        case 'agent_message_chunk':
          f.text += textOf(u.content);
          break;
        case 'agent_thought_chunk':
          f.thoughts += textOf(u.content);
          break;
        case 'tool_call':
        case 'tool_call_update': {
          const id = u.toolCallId ?? '?';
          const prev = u.sessionUpdate === 'tool_call' ? {} : (f.tools[id] ?? {});
          const next: Tool = { ...prev };
          for (const k of ['title', 'kind', 'status', 'content', 'rawInput'] as const)
            if (u[k] !== undefined && u[k] !== null) next[k] = u[k];
          f.tools[id] = next;
          break;
        }
        default:
          break;
      }
    } else if (m.method === '$/cancel_request') {
      const p = z.looseObject({ requestId: z.union([z.string(), z.number()]) }).safeParse(m.params);
      if (p.success) open.delete(p.data.requestId);
    } else if (m.method !== undefined && m.id !== undefined && m.id !== null) {
      // A hub → client request: an interaction copy, identified by what it is about.
      const p = z
        .looseObject({
          sessionId: z.string().optional(),
          toolCall: z.looseObject({ toolCallId: z.string() }).optional(),
          _meta: z.unknown().optional(),
        })
        .safeParse(m.params);
      if (p.success && p.data.sessionId === sessionId) open.set(m.id, `${m.method} ${p.data.toolCall?.toolCallId ?? ''}`);
    }
  }
  f.pending = [...open.values()].sort();
  return f;
}

/** JSON with sorted keys, so two folds compare by content whatever order their fields arrived in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

let hub: HubHarness;

beforeAll(async () => {
  // Paced so joins land between updates; many sockets per token (one per join point).
  hub = await startHub({ simArgs: ['--turn-delay-scale', '1.5'], limits: { connectionsPerToken: 2_000, connectionsTotal: 4_000 } });
}, 60_000);
afterAll(async () => {
  for (const c of httpClients) c.close();
  await hub?.close();
}, 60_000);

/** The Streamable HTTP clients opened (the harness closes only its WebSocket ones). */
const httpClients: AcpHttpClient[] = [];

async function joiner(profile: Exclude<Profile, 'http'>, token: string): Promise<AcpWsClient> {
  if (profile === 'acp') return hub.initializedClient({ name: 'joiner' });
  const c = await hub.client({ token: undefined, query: { instance: 'zcode-hub', token } });
  await c.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  return c;
}

/** A client of `profile` that has initialized and loaded `sessionId` (over HTTP: its stream open first, so nothing is missed). */
async function joinAndLoad(profile: Profile, token: string, sessionId: string): Promise<Joined> {
  const load = { sessionId, cwd: hub.workspace, mcpServers: [] };
  if (profile !== 'http') {
    const c = await joiner(profile, token);
    await c.request('session/load', load);
    return c;
  }
  const c = new AcpHttpClient(hub.url, { authorization: `Bearer ${token}` });
  httpClients.push(c);
  await c.initialize('joiner');
  expect(await c.openStream()).toBe(200);
  await c.request('session/load', load);
  return c;
}

/** The client's last turn notice says idle (`_zcode/turn_state`; the compat profile's `$/zcode/turnState`). */
function idle(c: AcpWsClient, profile: Exclude<Profile, 'http'>, sessionId: string): boolean {
  if (profile === 'acp')
    return (
      c
        .notifications<{ sessionId: string; state: string }>('_zcode/turn_state')
        .filter((p) => p.sessionId === sessionId)
        .at(-1)?.state === 'idle'
    );
  return (
    c
      .notifications<{ sessionId: string; running: boolean }>('$/zcode/turnState')
      .filter((p) => p.sessionId === sessionId)
      .at(-1)?.running === false
  );
}

const pendingOf = async (sessionId: string, kind: string): Promise<string | undefined> => {
  const body = z
    .object({ interactions: z.array(z.looseObject({ interactionId: z.string(), kind: z.string() })) })
    .parse(await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json());
  return body.interactions.find((i) => i.kind === kind)?.interactionId;
};

/** The `_meta.zcode.seq` of a notification's params, if any. */
function zseq(params: unknown): unknown {
  return (params as { _meta?: { zcode?: { seq?: unknown } } } | undefined)?._meta?.zcode?.seq;
}

describe('[REC-04] continuity: a joiner after the k-th update, for every k, folds to what a client present from the start folds to', () => {
  for (const profile of ['acp', 'compat', 'http'] as const) {
    it(`${profile} profile`, async () => {
      const token = await hub.token('operate', `${profile}-device`);
      const prompter = await hub.initializedClient({ name: 'prompter' });
      const { sessionId } = await prompter.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
      const shown = profile === 'compat' ? 'compat' : 'acp';
      const reference = await joiner(shown, token);
      await reference.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
      // The journaled updates (with a seq): the agent's commands, told as state after each load, are not the turn's.
      const journaled = (msgs: readonly InboundMessage[]) =>
        msgs.filter((m) => m.method === 'session/update' && typeof zseq(m.params) === 'number').length;
      const updatesSeen = () => journaled(reference.messages);

      // One joiner per update the reference sees, launched as soon as it has seen it.
      const joined: Array<Promise<Joined>> = [];
      let launchedFor = updatesSeen();
      let streaming = true;
      // A test that fails ends the launcher too: once the hub is gone each wait below fails at
      // once, and the loop would spin without yielding, hanging the worker and the whole run.
      onTestFinished(() => {
        streaming = false;
      });
      const launcher = (async () => {
        while (streaming) {
          const k = updatesSeen();
          while (launchedFor < k) {
            launchedFor += 1;
            joined.push(joinAndLoad(profile, token, sessionId));
          }
          await reference
            .waitFor((msgs) => (journaled(msgs) > k || !streaming ? true : undefined), 120_000, 'next update')
            .catch(() => undefined);
        }
      })();

      /** Every joiner launched so far folds (eventually, once its load is done) to the reference's fold. */
      const converge = async (what: string): Promise<number> => {
        const clients = await Promise.all([...joined]);
        const want = fold(reference.messages, sessionId);
        for (const [i, c] of clients.entries()) {
          await until(
            () => (canonical(fold(c.messages, sessionId)) === canonical(want) ? true : undefined),
            `joiner ${i + 1} to converge ${what}`,
            15_000,
          ).catch(() => undefined);
          expect(fold(c.messages, sessionId), `joiner ${i + 1} of ${clients.length} (${what})`).toEqual(want);
        }
        return clients.length;
      };

      const turn = prompter.request<{ stopReason: string }>('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'tour please' }],
      });

      const permission = await until(() => pendingOf(sessionId, 'permission'), 'the permission');
      await until(
        () => (fold(reference.messages, sessionId).pending.length > 0 ? true : undefined),
        'the reference to hold the permission',
      );
      const atPermission = await converge('while the permission is pending');
      expect(fold(reference.messages, sessionId).pending).toHaveLength(1);
      await hub.api(`/api/interactions/${permission}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ optionId: 'allow_once' }),
      });

      const question = await until(() => pendingOf(sessionId, 'question'), 'the question');
      await until(() => (fold(reference.messages, sessionId).pending.length > 0 ? true : undefined), 'the reference to hold the question');
      const atQuestion = await converge('while the question is pending');
      await hub.api(`/api/interactions/${question}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          answers: { 'Which package manager should I use?': 'pnpm', 'Which checks should run before commit?': ['lint', 'tests'] },
        }),
      });

      expect((await turn).stopReason).toBe('end_turn');
      // The turn's last updates precede its idle turn state: once the reference is idle it has them all.
      await until(() => (idle(reference, shown, sessionId) ? true : undefined), 'the reference to see the turn end');
      streaming = false;
      // Any message wakes the launcher's wait so it sees `streaming` is over.
      await reference.request('session/list', {});
      await launcher;
      while (launchedFor < updatesSeen()) {
        launchedFor += 1;
        joined.push(joinAndLoad(profile, token, sessionId));
      }
      const total = await converge('after the turn');

      const final = fold(reference.messages, sessionId);
      // The turn had everything the property is about.
      expect(final.prompt).toBe('tour please');
      expect(final.thoughts.length).toBeGreaterThan(0);
      expect(final.text).toMatch(/All \*\*8 tests passed\*\*/);
      expect(Object.values(final.tools).map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
      expect(final.pending).toEqual([]);
      // One joiner per update of the turn (the reference saw `total` of them after loading).
      expect(total).toBe(updatesSeen());
      expect(atPermission).toBeGreaterThan(0);
      expect(atQuestion).toBeGreaterThan(atPermission);
    }, 240_000);
  }
});
