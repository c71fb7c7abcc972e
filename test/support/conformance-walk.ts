import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Stream } from '@agentclientprotocol/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LATER_V1_KINDS, REPLAY_COMPLETE } from '../../src/gateway/update-kinds.js';
import { KEYWORDS } from '../../src/simulator/scenarios/select.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { rfdReplayCompleteNotification } from './replay-complete-rfd.js';

/**
 * The conformance walk shared by the per-transport suites (test/conformance/*.test.ts): the same
 * route through the ACP methods the hub serves — initialize, session/new, a live watcher
 * (session/resume), a prompt of every simulator scenario with its permission and elicitation
 * requests answered, session/list, a replay (session/load of the same turns), set_mode,
 * cancel, an unknown method, close, a connection ending (the session lives on: the hub's
 * deviation from the RFD) and delete — over whatever transport gives an SDK `Stream`.
 * Every message the hub sends on it (responses, errors, notifications, requests; live and
 * replayed) is checked against the ACP SDK's own zod schemas, so a drift of the hub's shapes
 * from ACP shows as a red test in every transport at once. The loader asks for v2's
 * `replay_complete`, which no SDK release has a schema for: that one update is checked against
 * the RFD's text (replay-complete-rfd.ts). Extension methods (`_`-prefixed) are ACP's open
 * space: only their JSON-RPC envelope is checked.
 */

// The SDK's generated zod schemas are not an export of the package; they are its own files.
const sdkDir = path.resolve(
  path.dirname(createRequire(import.meta.url).resolve('@agentclientprotocol/sdk/schema/v1/schema.json')),
  '..',
  '..',
);
interface Schema {
  safeParse(v: unknown): { success: boolean; error?: { message: string } };
}
const z = (await import(pathToFileURL(path.join(sdkDir, 'dist/v1/schema/zod.gen.js')).href)) as Record<string, Schema>;
/** One of the ACP SDK's own zod schemas, by its generated name (`zSessionNotification`, …). */
export function schema(name: string): Schema {
  const s = z[name];
  if (s === undefined) throw new Error(`the ACP SDK has no schema ${name}`);
  return s;
}

/** The result schema of each ACP method the hub answers. */
const RESULT_SCHEMAS: Record<string, Schema> = {
  initialize: schema('zInitializeResponse'),
  'session/new': schema('zNewSessionResponse'),
  'session/load': schema('zLoadSessionResponse'),
  'session/resume': schema('zResumeSessionResponse'),
  'session/prompt': schema('zPromptResponse'),
  'session/list': schema('zListSessionsResponse'),
  'session/set_mode': schema('zSetSessionModeResponse'),
  'session/set_config_option': schema('zSetSessionConfigOptionResponse'),
  'session/close': schema('zCloseSessionResponse'),
  'session/delete': schema('zDeleteSessionResponse'),
};
/** What the hub may send unasked: notifications and requests, by method. */
const INBOUND_SCHEMAS: Record<string, Schema> = {
  'session/update': schema('zSessionNotification'),
  'session/request_permission': schema('zRequestPermissionRequest'),
  'elicitation/create': schema('zCreateElicitationRequest'),
  '$/cancel_request': schema('zCancelRequestNotification'),
};
const errorSchema = schema('zError');

type Json = Record<string, unknown>;
type Message = Json & { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };

/** Why one message the hub sent is not ACP (`undefined`: it is). */
function violation(msg: Message, askedFor: string | undefined): string | undefined {
  const check = (s: Schema, v: unknown): string | undefined => {
    const r = s.safeParse(v);
    return r.success ? undefined : (r.error?.message ?? 'invalid');
  };
  if (msg.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if (typeof msg.method === 'string') {
    if (msg.method.startsWith('_')) return msg.params === undefined || typeof msg.params === 'object' ? undefined : 'params not an object';
    if (
      msg.method === 'session/update' &&
      (msg.params as { update?: { sessionUpdate?: unknown } } | undefined)?.update?.sessionUpdate === 'replay_complete'
    )
      return rfdReplayCompleteNotification.safeParse(msg.params).error?.message;
    const s = INBOUND_SCHEMAS[msg.method];
    return s === undefined ? `an ACP method the hub may not send: ${msg.method}` : check(s, msg.params);
  }
  if ('error' in msg) return check(errorSchema, msg.error);
  if (askedFor === undefined) return `a response to no request of ours (id ${JSON.stringify(msg.id)})`;
  if (askedFor.startsWith('_')) return typeof msg.result === 'object' && msg.result !== null ? undefined : 'result not an object';
  const s = RESULT_SCHEMAS[askedFor];
  return s === undefined ? `no schema for the result of ${askedFor}` : check(s, msg.result);
}

/** An error answer, as the walk sees it. */
export class WalkError extends Error {
  constructor(readonly error: { code: number; message: string; data?: unknown }) {
    super(error.message);
  }
}

/**
 * A raw JSON-RPC peer over an SDK `Stream`: it sends requests, answers the hub's requests (the
 * first allow option; forms declined — a cancel only dismisses it on that client) and keeps every message it receives, with the
 * method of the request a response answers.
 */
export class WalkPeer {
  readonly received: Array<{ msg: Message; askedFor: string | undefined }> = [];
  private nextId = 1;
  private readonly pending = new Map<number, { method: string; settle: (m: Message) => void }>();
  private readonly writer: WritableStreamDefaultWriter<unknown>;
  private readonly reading: Promise<void>;

  constructor(
    readonly name: string,
    stream: Stream,
  ) {
    this.writer = stream.writable.getWriter() as WritableStreamDefaultWriter<unknown>;
    this.reading = this.read(stream.readable.getReader() as ReadableStreamDefaultReader<unknown>);
  }

  private async read(reader: ReadableStreamDefaultReader<unknown>): Promise<void> {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      const msg = value as Message;
      const isResponse = msg.method === undefined && typeof msg.id === 'number';
      const waiting = isResponse ? this.pending.get(msg.id as number) : undefined;
      this.received.push({ msg, askedFor: waiting?.method });
      if (waiting !== undefined) {
        this.pending.delete(msg.id as number);
        waiting.settle(msg);
      } else if (typeof msg.method === 'string' && msg.id !== undefined && msg.id !== null) {
        void this.send({ jsonrpc: '2.0', id: msg.id, ...answer(msg.method, msg.params) });
      }
    }
  }

  private async send(msg: Json): Promise<void> {
    await this.writer.write(msg).catch(() => undefined);
  }

  request<T = Json>(method: string, params: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, {
        method,
        settle: (m) => ('error' in m ? reject(new WalkError(m.error as WalkError['error'])) : resolve(m.result as T)),
      });
      void this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.send({ jsonrpc: '2.0', method, params });
  }

  /** The `session/update`s received for `sessionId`, in order. */
  updates(sessionId: string): Json[] {
    return this.received
      .filter(({ msg }) => msg.method === 'session/update' && (msg.params as Json)['sessionId'] === sessionId)
      .map(({ msg }) => (msg.params as Json)['update'] as Json);
  }

  /** Every message received that is not ACP, with the reason. */
  violations(): string[] {
    return this.received.flatMap(({ msg, askedFor }) => {
      const why = violation(msg, askedFor);
      return why === undefined ? [] : [`${this.name}: ${why} in ${JSON.stringify(msg).slice(0, 600)}`];
    });
  }

  async close(): Promise<void> {
    await this.writer.close().catch(() => undefined);
    await Promise.race([this.reading, new Promise((r) => setTimeout(r, 2_000))]);
  }
}

/** The answer of a client that allows what it is asked and declines forms. */
function answer(method: string, params: unknown): Json {
  if (method === 'session/request_permission') {
    const options = ((params as Json | undefined)?.['options'] ?? []) as Array<{ kind?: string; optionId?: string }>;
    const allow = options.find((o) => o.kind === 'allow_once') ?? options[0];
    return { result: { outcome: allow ? { outcome: 'selected', optionId: allow.optionId } : { outcome: 'cancelled' } } };
  }
  if (method === 'elicitation/create') return { result: { action: 'decline' } };
  return { error: { code: -32601, message: `Method not found: ${method}` } };
}

/** One transport under test: how a client opens a connection to the hub. */
export interface WalkTransport {
  /** A new connection (one client) as an SDK `Stream`. */
  open(name: string): Promise<Stream>;
  /** The workspace sessions are created in. */
  workspace: string;
}

/** One prompt per scenario: the keyword picks it (src/simulator/scenarios/select.ts); `answer` is the no-keyword turn. */
export const WALK_SCENARIOS: readonly string[] = ['answer', ...KEYWORDS];
const PROMPTS: Record<string, string> = { answer: 'explain this repo' };
/** What a scenario's last live turn says when it has run (background: the task's follow-up turn). */
const SETTLED: Record<string, string> = { background: 'The background task finished' };

function initParams(name: string, sessionUpdates?: readonly string[]): Json {
  const meta = sessionUpdates === undefined ? {} : { _meta: { zcode: { sessionUpdates } } };
  return { protocolVersion: 1, clientCapabilities: { elicitation: { form: {} }, ...meta }, clientInfo: { name, version: '1' } };
}
/** What the loader parses: every v1 kind the hub sends, and v2's `replay_complete`. */
const LOADER_KINDS = [...LATER_V1_KINDS, REPLAY_COMPLETE];

function text(updates: readonly Json[], kind: string): string {
  return updates
    .filter((u) => u['sessionUpdate'] === kind)
    .map((u) => ((u['content'] as Json | undefined)?.['type'] === 'text' ? String((u['content'] as Json)['text']) : ''))
    .join('');
}

/**
 * Walks one scenario over `transport` with three clients (prompter, live watcher, loader) and
 * expects every message each of them received to be ACP. Returns the live and replayed
 * updates for callers that compare more.
 */
export async function walkScenario(transport: WalkTransport, scenario: string): Promise<{ live: Json[]; replayed: Json[] }> {
  const peers: WalkPeer[] = [];
  const peer = async (name: string): Promise<WalkPeer> => {
    const p = new WalkPeer(name, await transport.open(name));
    peers.push(p);
    return p;
  };
  try {
    const prompter = await peer('prompter');
    const init = await prompter.request<Json>('initialize', initParams('prompter'));
    // The RFD's field in the body, beside the header / 101 (docs/CLIENT-PROTOCOL.md "Connecting").
    expect(typeof init['connectionId']).toBe('string');
    const mcpServers: unknown[] = [];
    const { sessionId, modes } = await prompter.request<{ sessionId: string; modes?: { availableModes?: Array<{ id: string }> } }>(
      'session/new',
      { cwd: transport.workspace, mcpServers },
    );

    const watcher = await peer('watcher');
    await watcher.request('initialize', initParams('watcher'));
    await watcher.request('session/resume', { sessionId, cwd: transport.workspace, mcpServers });

    // A failed turn answers with an error (schema-checked as such); what it streamed is still checked.
    await prompter
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: PROMPTS[scenario] ?? `please ${scenario} now` }] })
      .catch((e: unknown) => {
        if (!(e instanceof WalkError)) throw e;
      });
    const settled = async (): Promise<boolean> => {
      const { sessions } = await watcher.request<{ sessions: Array<{ sessionId: string; _meta?: { zcode?: { state?: string } } }> }>(
        'session/list',
        {},
      );
      const state = sessions.find((s) => s.sessionId === sessionId)?._meta?.zcode?.state;
      const cards = new Map<string, unknown>();
      for (const u of watcher.updates(sessionId))
        if (u['status'] !== undefined && u['status'] !== null) cards.set(String(u['toolCallId']), u['status']);
      const open = [...cards.values()].some((s) => s === 'pending' || s === 'in_progress');
      const followUp = SETTLED[scenario];
      return (
        state === 'idle' && !open && (followUp === undefined || text(watcher.updates(sessionId), 'agent_message_chunk').includes(followUp))
      );
    };
    await expect.poll(settled, { timeout: 30_000 }).toBe(true);
    const live = watcher.updates(sessionId);
    expect(live.length).toBeGreaterThan(0);

    // The same turns replayed to a client that was not there.
    const loader = await peer('loader');
    await loader.request('initialize', initParams('loader', LOADER_KINDS));
    await loader.request('session/load', { sessionId, cwd: transport.workspace, mcpServers });
    const loaded = loader.updates(sessionId);
    // One marker, after the replay and before the result (the state after it is not replay).
    const end = loaded.findIndex((u) => u['sessionUpdate'] === 'replay_complete');
    expect(end).toBeGreaterThan(0);
    expect(loaded.filter((u) => u['sessionUpdate'] === 'replay_complete')).toHaveLength(1);
    const loadAnswer = loader.received.findIndex(({ askedFor }) => askedFor === 'session/load');
    const markerAt = loader.received.findIndex(({ msg }) => (msg.params as Json | undefined)?.['update'] === loaded[end]);
    expect(markerAt).toBeLessThan(loadAnswer);
    const replayed = loaded.slice(0, end);

    // The rest of the routing: settings, cancel of an idle session, a method the hub has not,
    // then the loader leaves and the prompter deletes the session.
    const modeId = modes?.availableModes?.[0]?.id;
    if (modeId !== undefined) await prompter.request('session/set_mode', { sessionId, modeId });
    await prompter.notify('session/cancel', { sessionId });
    await expect(prompter.request('session/no_such_method', { sessionId })).rejects.toBeInstanceOf(WalkError);
    await loader.request('session/close', { sessionId });
    // The hub's deviation from the remote-transport RFD (docs/CLIENT-PROTOCOL.md "Deviations from
    // the RFD"): a connection that ends never ends the session the others share.
    await loader.close();
    const { sessions } = await prompter.request<{ sessions: Array<{ sessionId: string }> }>('session/list', {});
    expect(sessions.map((s) => s.sessionId)).toContain(sessionId);
    await prompter.request('session/delete', { sessionId });
    // One more round trip so every message sent before it has arrived.
    await prompter.request('session/list', {});
    await watcher.request('session/list', {});

    for (const p of peers) expect(p.violations()).toEqual([]);
    return { live, replayed };
  } finally {
    await Promise.all(peers.map((p) => p.close()));
  }
}

/**
 * The suite of one transport: a hub with the simulator, then the walk of every scenario, each
 * client's connection opened by `open`; `afterEachScenario` frees what `open` held, and
 * `beforeHubClose` what is still open at the end (it runs before the hub and its state dir go).
 */
export function conformanceSuite(
  transport: string,
  open: (hub: HubHarness, name: string) => Promise<Stream>,
  afterEachScenario: () => void = () => undefined,
  beforeHubClose: () => Promise<void> = async () => undefined,
): void {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub({ simArgs: ['--turn-delay-scale', '0.1'] });
  });
  afterEach(afterEachScenario);
  afterAll(async () => {
    await beforeHubClose();
    await hub?.close();
  });
  describe(`conformance over ${transport}: every message the hub sends is ACP`, () => {
    for (const scenario of WALK_SCENARIOS)
      it(scenario, async () => {
        await walkScenario({ workspace: hub.workspace, open: (name) => open(hub, name) }, scenario);
      }, 60_000);
  });
}
