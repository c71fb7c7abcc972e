import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { LATER_V1_KINDS, REPLAY_COMPLETE } from '../../src/gateway/update-kinds.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { rfdReplayCompleteNotification } from '../support/replay-complete-rfd.js';

/**
 * ACP v2's `replay_complete` (docs/CLIENT-PROTOCOL.md "Replay complete"): after every replay —
 * `session/load`, `session/resume` with a cursor (`afterSeq`, filled from the journal or, with a
 * stale epoch, from history) — a client that listed the kind in `_meta.zcode.sessionUpdates`
 * gets exactly one `replay_complete` after the last replayed update and before the result, in
 * the shape of the RFD (test/support/replay-complete-rfd.ts), an empty replay included. Any
 * other client — one announcing protocol 2 too: the hub answers 1, and a v1 schema rejects the
 * kind — never gets it and keeps the `_meta.zcode.replay` marker on every replayed frame.
 */

let hub: HubHarness;
let sessionId: string;
/** The seq of the first update of the conversation, for a resume whose gap the journal fills. */
let firstSeq: number;

beforeAll(async () => {
  // History answers late (outside the child's queue): a turn's frames arrive while a replay is read.
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.1', '--late-method', 'session/messages=300'] });
  const prompter = await hub.initializedClient({ name: 'prompter' });
  ({ sessionId } = await prompter.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] }));
  const watcher = await hub.initializedClient({ name: 'watcher' });
  await watcher.request('session/resume', { sessionId, cwd: hub.workspace, mcpServers: [] });
  await prompter.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello there' }] });
  const seqs = watcher
    .notifications<{ sessionId: string; _meta?: { zcode?: { seq?: number } } }>('session/update')
    .filter((u) => u.sessionId === sessionId)
    .flatMap((u) => (u._meta?.zcode?.seq === undefined ? [] : [u._meta.zcode.seq]));
  firstSeq = Math.min(...seqs);
}, 60_000);
afterAll(async () => {
  await hub?.close();
});

type Inbound = AcpWsClient['messages'][number];

/** A client initialized with `protocolVersion` (and `clientInfo`, as a current client sends it). */
async function clientWith(protocolVersion: number): Promise<AcpWsClient> {
  const c = await hub.client();
  await c.request('initialize', { protocolVersion, clientCapabilities: {}, clientInfo: { name: `v${protocolVersion}`, version: '1' } });
  return c;
}

/** A current client that lists `replay_complete` (and the later v1 kinds) in what it parses. */
async function listing(): Promise<AcpWsClient> {
  const c = await hub.client();
  await c.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { _meta: { zcode: { sessionUpdates: [REPLAY_COMPLETE, ...LATER_V1_KINDS] } } },
    clientInfo: { name: 'listing', version: '1' },
  });
  return c;
}

/** What one attach sent this client: its session updates (in order) and where the result came. */
async function attach(c: AcpWsClient, method: string, meta?: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const from = c.messages.length;
  const answer = await c.requestRaw(method, {
    sessionId,
    cwd: hub.workspace,
    mcpServers: [],
    ...extra,
    ...(meta === undefined ? {} : { _meta: { zcode: meta } }),
  });
  const seen = c.messages.slice(from);
  const resultAt = seen.indexOf(answer as Inbound);
  const updates = seen
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => m.method === 'session/update' && (m.params as { sessionId?: string }).sessionId === sessionId)
    // The agent's commands follow every attach result as state (available-commands.test.ts), not as replay.
    .filter(({ m }) => (m.params as { update: { sessionUpdate: string } }).update.sessionUpdate !== 'available_commands_update')
    .map(({ m, i }) => ({
      i,
      kind: (m.params as { update: { sessionUpdate: string } }).update.sessionUpdate,
      meta: (m.params as { _meta?: { zcode?: Record<string, unknown> } })._meta?.zcode ?? {},
      params: m.params,
    }));
  return { answer, resultAt, updates };
}

describe('replay_complete after every replay, only to clients that know it', () => {
  const cases: Array<[string, string, () => Record<string, unknown> | undefined, Record<string, unknown>?]> = [
    ['session/load (history)', 'session/load', () => undefined],
    ['session/resume with a cursor the journal fills', 'session/resume', () => ({ afterSeq: firstSeq - 1 })],
    ['session/resume with a cursor from another epoch (history)', 'session/resume', () => ({ afterSeq: 1, epoch: 'gone' })],
    // The multi-client draft's attach, by its own name, with the whole history.
    ['session/attach with historyPolicy "full"', 'session/attach', () => undefined, { role: 'observer', historyPolicy: 'full' }],
  ];

  for (const [name, method, meta, extra] of cases) {
    it(`${name}: a listing client gets one replay_complete, shaped as the RFD says, after the replayed updates, before the result`, async () => {
      const c = await listing();
      const { answer, resultAt, updates } = await attach(c, method, meta(), extra);
      expect(answer.error).toBeUndefined();
      const complete = updates.filter((u) => u.kind === 'replay_complete');
      expect(complete).toHaveLength(1);
      const at = complete[0]!.i;
      const replayed = updates.filter((u) => u.kind !== 'replay_complete');
      expect(replayed.length).toBeGreaterThan(0);
      expect(Math.max(...replayed.map((u) => u.i))).toBeLessThan(at);
      expect(at).toBeLessThan(resultAt);
      const replayMeta = (answer.result as { _meta: { zcode: { replayMeta: { replayed: number } } } })._meta.zcode.replayMeta;
      expect(complete[0]!.meta).toMatchObject({ replay: true, replayed: replayMeta.replayed });
      expect(rfdReplayCompleteNotification.safeParse(complete[0]!.params).error).toBeUndefined();
    });

    for (const version of [1, 2])
      it(`${name}: protocol ${version} gets no replay_complete; the replay marker or the result tells the end`, async () => {
        const c = await clientWith(version);
        const { answer, updates } = await attach(c, method, meta(), extra);
        expect(answer.error).toBeUndefined();
        expect(updates.length).toBeGreaterThan(0);
        expect(updates.filter((u) => u.kind === 'replay_complete')).toEqual([]);
        // A replay rebuilt from history marks every frame; the journal's frames are the live ones.
        if (meta()?.['epoch'] !== undefined || method !== 'session/resume')
          expect(updates.every((u) => u.meta['replay'] === true)).toBe(true);
      });
  }

  it('a cursor at the end replays nothing and still ends with one replay_complete (the RFD: even for an empty replay)', async () => {
    const c = await listing();
    const resumed = await attach(c, 'session/resume');
    const seq = (resumed.answer.result as { _meta: { zcode: { seq: number } } })._meta.zcode.seq;
    const again = await listing();
    const { answer, resultAt, updates } = await attach(again, 'session/resume', { afterSeq: seq });
    expect(answer.error).toBeUndefined();
    expect(updates.map((u) => u.kind)).toEqual(['replay_complete']);
    expect(updates[0]!.meta).toMatchObject({ replay: true, replayed: 0 });
    expect(updates[0]!.i).toBeLessThan(resultAt);
  });

  it('a protocol 1 client that lists replay_complete in _meta.zcode.sessionUpdates gets it', async () => {
    const c = await hub.client();
    const init = await c.request<{ agentCapabilities: { _meta: { zcode: { sessionUpdates?: boolean } } } }>('initialize', {
      protocolVersion: 1,
      clientCapabilities: { _meta: { zcode: { sessionUpdates: ['replay_complete', 'usage_update', 'session_info_update'] } } },
      clientInfo: { name: 'lister', version: '1' },
    });
    expect(init.agentCapabilities._meta.zcode.sessionUpdates).toBe(true);
    const { updates } = await attach(c, 'session/load');
    expect(updates.filter((u) => u.kind === 'replay_complete')).toHaveLength(1);
  });

  it('the zcode-acp-remote profile never gets it, whatever version it announces', async () => {
    const c = await hub.client({ query: { instance: 'zcode-hub' } });
    await c.request('initialize', { protocolVersion: 2, clientCapabilities: {} });
    const { answer, updates } = await attach(c, 'session/load', { limit: 30 });
    expect(answer.error).toBeUndefined();
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.filter((u) => u.kind === 'replay_complete')).toEqual([]);
  });

  it('joining mid-turn: the running turn so far comes before replay_complete, what follows it is live', async () => {
    const prompter = await hub.initializedClient({ name: 'slow prompter' });
    await prompter.request('session/resume', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const turn = prompter.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'be slow about it' }] });
    await expect
      .poll(() => prompter.journaled<{ sessionId: string }>().some((u) => u.sessionId === sessionId), {
        timeout: 20_000,
      })
      .toBe(true);
    const c = await listing();
    const from = c.messages.length;
    const loaded = await c.request<{ _meta: { zcode: { replayMeta: { replayed: number } } } }>('session/load', {
      sessionId,
      cwd: hub.workspace,
      mcpServers: [],
    });
    await turn;
    // The turn's last update reached the joiner too (its answer to a request follows every frame before it).
    await c.request('session/list', {});
    const seen = c.messages
      .slice(from)
      .filter((m) => m.method === 'session/update' && (m.params as { sessionId?: string }).sessionId === sessionId)
      .map((m) => m.params as { update: { sessionUpdate: string }; _meta?: { zcode?: { seq?: number } } });
    const at = seen.findIndex((u) => u.update.sessionUpdate === 'replay_complete');
    expect(at).toBeGreaterThan(0);
    const seqs = (list: typeof seen) => list.map((u) => u._meta?.zcode?.seq).filter((x): x is number => x !== undefined);
    const before = seqs(seen.slice(0, at));
    const after = seqs(seen.slice(at + 1));
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    // Exactly the replayed frames precede it (history and the turn so far); frames that arrived
    // during the replay follow it, with the later seqs.
    expect(at).toBe(loaded._meta.zcode.replayMeta.replayed);
    expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
  });

  it('an attach with historyPolicy "none" replays nothing and sends no replay_complete', async () => {
    const c = await listing();
    const { answer, updates } = await attach(c, 'session/attach', undefined, { role: 'observer', historyPolicy: 'none' });
    expect(answer.error).toBeUndefined();
    expect(updates).toEqual([]);
  });

  it('a resume without a cursor replays nothing and sends no replay_complete', async () => {
    const c = await listing();
    const { updates } = await attach(c, 'session/resume');
    expect(updates).toEqual([]);
  });
});
