/**
 * PromptFlow (src/domain/prompt-flow.ts) on its own, in milliseconds: the real HubCore, the real
 * app-server client and a RecordingBackend (a second implementation of BackendPort that records
 * every request and lets the test answer it as the child would). The child's events reach the
 * flow through its public methods, as event-ingest.ts hands them on; the timers (stop watchdog,
 * busy retry, send timeout) run on vitest's fake clock. Each of the child's quirks the simulator
 * switches on is one sequence of events, checked for: every prompt ends exactly once with the
 * right outcome, the queue moves on, nothing is sent twice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StopReason } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TurnSignal } from '../../src/acp/translation-context.js';
import { AppServerClient } from '../../src/app-server/client.js';
import { buildConfig } from '../../src/config/load.js';
import type { HubConfig } from '../../src/config/schema.js';
import { workspaceParts } from '../../src/daemon/http-parts.js';
import { HubError } from '../../src/errors.js';
import type { ConnectionAuthor } from '../../src/domain/author.js';
import { HubCore } from '../../src/domain/hub-core.js';
import { PromptFlow } from '../../src/domain/prompt-flow.js';
import type { PromptResult } from '../../src/domain/prompt-queue.js';
import type { SessionState } from '../../src/domain/session-state.js';
import type { LIMITS } from '../../src/limits.js';
import { createLogger } from '../../src/logger.js';
import { RecorderClient } from './helpers.js';
import { RecordingBackend, type RecordedCall } from './recording-backend.js';

const BUSY = { code: -32010, message: 'A prompt is already running' };

/** One `session/prompt` as its prompter sees it: how often it was answered, and with what. */
interface Asked {
  settles: number;
  result?: PromptResult & { queuedBehind: number };
  error?: unknown;
}

/** How a prompt's end reached the clients: the draft's `turn_complete` or the journaled failed/interrupted marker. */
type SeenEnd = { turnComplete: string; turnId?: string } | { turnEnded: string; promptId?: string };

interface Rig {
  root: string;
  config: HubConfig;
  backend: RecordingBackend;
  core: HubCore;
  flow: PromptFlow;
  session: SessionState;
  alice: RecorderClient;
  bob: RecorderClient;
  /** A watcher with no prompts of its own: sees every end the session announces. */
  carol: RecorderClient;
  cancelledInteractions: ConnectionAuthor[];
}

let rig: Rig;

function makeRig(limits: Partial<Record<keyof typeof LIMITS, number>> = {}): Rig {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-prompt-flow-'));
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  const config = buildConfig({
    host: '127.0.0.1',
    port: 0,
    stateDir: path.join(root, 'state'),
    backend: 'sim',
    workspace,
    providerFile: path.join(root, 'provider_config.json'),
    logLevel: 'silent',
    limits,
  });
  const backend = new RecordingBackend(config.limits.forwardRequestTimeoutMs);
  const logger = createLogger({ level: 'silent' });
  const core = new HubCore({ backend, appServer: new AppServerClient(backend), config, logger, roots: workspaceParts(config).roots });
  const cancelledInteractions: ConnectionAuthor[] = [];
  const flow = new PromptFlow(core, { cancelInteractions: (_s, by) => cancelledInteractions.push(by) });
  const session = core.ensureSession('s1', workspace);
  const [alice, bob, carol] = [
    new RecorderClient({ name: 'alice' }),
    new RecorderClient({ name: 'bob' }),
    new RecorderClient({ name: 'carol' }),
  ];
  for (const client of [alice, bob, carol])
    session.attachments.set(client.clientId, { client, sessionId: session.sessionId, replaying: false, buffer: [], attachedAt: 0 });
  return { root, config, backend, core, flow, session, alice, bob, carol, cancelledInteractions };
}

beforeEach(() => {
  // Only the timers the flow arms; setImmediate stays real so settle() can drain promise chains.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  rig = makeRig();
});

afterEach(() => {
  rig.flow.close();
  vi.useRealTimers();
  fs.rmSync(rig.root, { recursive: true, force: true });
});

/** Lets every answered request's promise chain run to its end. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function ask(client: RecorderClient, text: string): Asked {
  const asked: Asked = { settles: 0 };
  rig.flow.prompt(client, rig.session, [{ type: 'text', text }]).then(
    (result) => {
      asked.settles += 1;
      asked.result = result;
    },
    (error: unknown) => {
      asked.settles += 1;
      asked.error = error;
    },
  );
  return asked;
}

/** The open `session/send`, and the prompt id it carries as its input id. */
function sendOf(text: string): { call: RecordedCall; inputId: string } {
  const call = rig.backend.only('session/send');
  expect(call.params['content']).toBe(text);
  return { call, inputId: String(call.params['inputId']) };
}

/** How many `session/send`s carried this text (a prompt sent twice would show here). */
function sendsOf(text: string): number {
  return rig.backend.all('session/send').filter((c) => c.params['content'] === text).length;
}

/** Answers both stops (legacy `session/stop` and v4 `stop`), as a child that takes them does. */
function answerStops(): void {
  for (const c of rig.backend.open('session/stop')) c.answer({});
  for (const c of rig.backend.open('v4/command'))
    if (c.params['type'] === 'stop') c.answer({ commandId: c.params['commandId'], status: 'accepted' });
}

const started = (turnId: string, inputId?: string, background = false): Extract<TurnSignal, { type: 'turn_started' }> => ({
  type: 'turn_started',
  turnId,
  ...(inputId === undefined ? {} : { inputId }),
  background,
});

function ended(
  turnId: string,
  inputId: string | undefined,
  outcome: 'success' | 'cancelled' | 'failed' = 'success',
  opts: { background?: boolean; stopReason?: StopReason; error?: { type: string; message: string } } = {},
): Extract<TurnSignal, { type: 'turn_ended' }> {
  return {
    type: 'turn_ended',
    turnId,
    ...(inputId === undefined ? {} : { inputId }),
    background: opts.background ?? false,
    outcome,
    stopReason: opts.stopReason ?? (outcome === 'cancelled' ? 'cancelled' : 'end_turn'),
    ...(opts.error === undefined ? {} : { error: opts.error }),
  };
}

/** Every prompt end the watcher saw, in order. */
function endsSeen(client: RecorderClient = rig.carol): SeenEnd[] {
  const ends: SeenEnd[] = [];
  for (const frame of client.sent) {
    const msg = JSON.parse(frame.text) as { method?: string; params?: { update?: Record<string, unknown> } };
    if (msg.method !== 'session/update') continue;
    const update = msg.params?.update ?? {};
    if (update['sessionUpdate'] === 'turn_complete')
      ends.push({
        turnComplete: String(update['stopReason']),
        ...(update['turnId'] === undefined ? {} : { turnId: String(update['turnId']) }),
      });
    const marker = (update['_meta'] as { zcode?: { turnEnded?: { outcome: string; promptId?: string } } } | undefined)?.zcode?.turnEnded;
    if (marker) ends.push({ turnEnded: marker.outcome, ...(marker.promptId === undefined ? {} : { promptId: marker.promptId }) });
  }
  return ends;
}

function hubCode(err: unknown): string | undefined {
  return err instanceof HubError ? err.code : undefined;
}

/** Runs one accepted prompt's turn to its end and boundary, as the child does for a plain answer. */
async function runTurn(text: string, turnId: string): Promise<string> {
  const { call, inputId } = sendOf(text);
  rig.flow.onPromptStarted(rig.session);
  call.answer({});
  await settle();
  rig.flow.onTurnStarted(rig.session, started(turnId, inputId));
  rig.flow.onTurnEnded(rig.session, ended(turnId, inputId));
  rig.flow.onReady(rig.session, false);
  await settle();
  return inputId;
}

describe('PromptFlow: the queue', () => {
  it('sends one prompt at a time, each at the ready boundary after the one before, and answers each at its own turn end', async () => {
    const a = ask(rig.alice, 'first');
    const b = ask(rig.bob, 'second');
    await settle();
    const first = sendOf('first');
    expect(rig.session.turn.state).toBe('running');
    expect(rig.session.turn.by?.name).toBe('alice');

    rig.flow.onPromptStarted(rig.session);
    first.call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', first.inputId));
    expect(rig.session.turn.turnId).toBe('t1');
    rig.flow.onTurnEnded(rig.session, ended('t1', first.inputId));
    await settle();
    expect(a.result).toEqual({ stopReason: 'end_turn', turnId: 't1', queuedBehind: 0 });
    // The child's lock is not free before its boundary: the second prompt waits for it.
    expect(sendsOf('second')).toBe(0);

    rig.flow.onReady(rig.session, false);
    await settle();
    await runTurn('second', 't2');
    expect(b.result).toEqual({ stopReason: 'end_turn', turnId: 't2', queuedBehind: 1 });
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(endsSeen()).toEqual([
      { turnComplete: 'end_turn', turnId: 't1' },
      { turnComplete: 'end_turn', turnId: 't2' },
    ]);
    expect([sendsOf('first'), sendsOf('second')]).toEqual([1, 1]);
    expect(rig.session.turn.state).toBe('idle');
  });

  it('echoes each prompt once to the other clients, the prompter getting only its seq', async () => {
    ask(rig.alice, 'hello there');
    await settle();
    const echoed = (c: RecorderClient): unknown[] => c.updates().filter((u) => u.update.sessionUpdate === 'user_message_chunk');
    expect(echoed(rig.bob)).toEqual([
      expect.objectContaining({ update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hello there' } } }),
    ]);
    expect(echoed(rig.alice)).toEqual([]);
    expect(rig.alice.notes('_zcode/own_update')).toHaveLength(1);
  });

  it('a prompt the child refuses before any turn (--reject-sends) fails with the child’s reason, once, and the queue moves on', async () => {
    const a = ask(rig.alice, 'refused');
    const b = ask(rig.bob, 'next');
    await settle();
    const { call } = sendOf('refused');
    call.answer({});
    await settle();
    rig.flow.onTerminalFailure(rig.session, { type: 'model_creation', message: 'reasoning level required' });
    rig.flow.onReady(rig.session, true);
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_TURN_FAILED');
    expect(String((a.error as Error).message)).toContain('reasoning level required');
    expect(endsSeen()).toEqual([{ turnEnded: 'failed', promptId: call.params['inputId'] }]);
    await runTurn('next', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(sendsOf('refused')).toBe(1);
  });

  it('a failed turn answers HUB_ERR_TURN_FAILED with the agent’s error, never end_turn', async () => {
    const a = ask(rig.alice, 'breaks');
    await settle();
    const { call, inputId } = sendOf('breaks');
    call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', inputId));
    rig.flow.onTurnEnded(rig.session, ended('t1', inputId, 'failed', { error: { type: 'provider', message: 'quota exceeded' } }));
    rig.flow.onReady(rig.session, true);
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_TURN_FAILED');
    expect((a.error as HubError).details).toMatchObject({ promptId: inputId, turnId: 't1', error: { message: 'quota exceeded' } });
    expect(a.settles).toBe(1);
    expect(endsSeen()).toEqual([{ turnEnded: 'failed', promptId: inputId }]);
    expect(rig.session.turn.state).toBe('idle');
  });

  it('a send the child never answers fails after sendAnswerTimeoutMs and is never written again; the next prompt goes', async () => {
    const a = ask(rig.alice, 'stuck');
    const b = ask(rig.bob, 'after');
    await settle();
    sendOf('stuck');
    await vi.advanceTimersByTimeAsync(rig.config.limits.sendAnswerTimeoutMs);
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_BACKEND_TIMEOUT');
    expect(sendsOf('stuck')).toBe(1);
    await runTurn('after', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, b.settles]).toEqual([1, 1]);
  });
});

describe('PromptFlow: -32010 (busy)', () => {
  it('a refused prompt goes back to the head unseen, is sent again once at the boundary, and is echoed once', async () => {
    const a = ask(rig.alice, 'waits');
    const b = ask(rig.bob, 'behind');
    await settle();
    sendOf('waits').call.refuse(BUSY.code, BUSY.message);
    await settle();
    expect(a.settles).toBe(0);
    expect(rig.backend.open('session/send')).toEqual([]);
    expect(rig.session.queue.queued.map((p) => p.preview)).toEqual(['waits', 'behind']);

    rig.flow.onReady(rig.session, false);
    await settle();
    await runTurn('waits', 't1');
    await runTurn('behind', 't2');
    expect([a.result?.stopReason, b.result?.stopReason]).toEqual(['end_turn', 'end_turn']);
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect([sendsOf('waits'), sendsOf('behind')]).toEqual([2, 1]);
    expect(rig.bob.updates().filter((u) => u.update.sessionUpdate === 'user_message_chunk')).toHaveLength(1);
  });

  it('a -32010 whose boundary already passed is sent again at once, not left waiting for a boundary that came', async () => {
    // A turn nobody here prompted holds the child's lock when the prompt is sent.
    rig.flow.onTurnStarted(rig.session, started('t0'));
    const a = ask(rig.alice, 'races the boundary');
    await settle();
    const first = sendOf('races the boundary');
    // The child ends its turn and frees the lock before it answers the send it had refused.
    rig.flow.onTurnEnded(rig.session, ended('t0', undefined));
    rig.flow.onReady(rig.session, false);
    first.call.refuse(BUSY.code, BUSY.message);
    await settle();
    expect(sendsOf('races the boundary')).toBe(2);
    await runTurn('races the boundary', 't1');
    expect(a.result).toEqual({ stopReason: 'end_turn', turnId: 't1', queuedBehind: 0 });
    expect(a.settles).toBe(1);
  });

  it('another -32010 meaning is an error for its prompter, not a wait', async () => {
    const a = ask(rig.alice, 'other');
    await settle();
    sendOf('other').call.refuse(-32010, 'Session is archived');
    await settle();
    expect(a.settles).toBe(1);
    expect(a.error).toBeInstanceOf(HubError);
    expect(sendsOf('other')).toBe(1);
    expect(rig.session.turn.state).toBe('idle');
  });
});

describe('PromptFlow: stop', () => {
  it('cancel stops with legacy and v4 stop together, returns the caller’s queued prompts cancelled, leaves others’ queued', async () => {
    const a = ask(rig.alice, 'running');
    const a2 = ask(rig.alice, 'alice queued');
    const b = ask(rig.bob, 'bob queued');
    await settle();
    const { call, inputId } = sendOf('running');
    call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', inputId));
    const cancelling = rig.flow.cancel(rig.alice, rig.session);
    await settle();
    expect(rig.backend.open('session/stop')).toHaveLength(1);
    expect(rig.backend.open('v4/command').map((c) => c.params['type'])).toEqual(['stop']);
    expect(rig.session.turn.state).toBe('stopping');
    expect(a2.result).toEqual({ stopReason: 'cancelled', queuedBehind: 1 });
    expect(rig.cancelledInteractions.map((by) => by.name)).toEqual(['alice']);
    answerStops();
    await cancelling;

    rig.flow.onTurnEnded(rig.session, ended('t1', inputId, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(a.result).toEqual({ stopReason: 'cancelled', turnId: 't1', queuedBehind: 0 });
    await runTurn('bob queued', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, a2.settles, b.settles]).toEqual([1, 1, 1]);
    expect(sendsOf('alice queued')).toBe(0);
  });

  it('the next prompt is not sent while a stop is still on its way (it could stop the new turn instead)', async () => {
    ask(rig.alice, 'one');
    ask(rig.bob, 'two');
    await settle();
    const { call, inputId } = sendOf('one');
    call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', inputId));
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    // The child ends the turn at the legacy stop; the v4 stop is still unanswered.
    rig.backend.only('session/stop').answer({});
    rig.flow.onTurnEnded(rig.session, ended('t1', inputId, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(sendsOf('two')).toBe(0);
    answerStops();
    await settle();
    expect(sendsOf('two')).toBe(1);
  });

  it('a stop asked before the send was answered goes out again once the send is answered', async () => {
    const a = ask(rig.alice, 'slow to take');
    await settle();
    const { call, inputId } = sendOf('slow to take');
    const cancelling = rig.flow.cancel(rig.alice, rig.session);
    await settle();
    answerStops();
    await cancelling;
    expect(rig.backend.all('session/stop')).toHaveLength(1);
    call.answer({});
    await settle();
    expect(rig.backend.all('session/stop')).toHaveLength(2);
    answerStops();
    rig.flow.onTurnStarted(rig.session, started('t1', inputId));
    rig.flow.onTurnEnded(rig.session, ended('t1', inputId, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(a.result?.stopReason).toBe('cancelled');
    expect(a.settles).toBe(1);
  });

  it('--ignore-stop: the watchdog ends the turn cancelled; the real end and boundary later end nothing twice', async () => {
    const a = ask(rig.alice, 'keeps going');
    const b = ask(rig.bob, 'next one');
    await settle();
    const first = sendOf('keeps going');
    first.call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', first.inputId));
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    answerStops();
    await settle();
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs - 1);
    expect(a.settles).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(a.result).toEqual({ stopReason: 'cancelled', turnId: 't1', queuedBehind: 0 });
    // The synthesised end counts as the boundary: the next prompt is tried, the child still runs t1.
    sendOf('next one').call.refuse(BUSY.code, BUSY.message);
    await settle();
    rig.flow.onTurnEnded(rig.session, ended('t1', first.inputId));
    rig.flow.onReady(rig.session, false);
    await settle();
    await runTurn('next one', 't2');
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(b.result?.stopReason).toBe('end_turn');
    expect(endsSeen()).toEqual([
      { turnComplete: 'cancelled', turnId: 't1' },
      { turnComplete: 'end_turn', turnId: 't2' },
    ]);
    expect(sendsOf('next one')).toBe(2);
    // The real boundary settled the busy retry: no third send later.
    await vi.advanceTimersByTimeAsync(rig.config.limits.busyRetryMs * 3);
    expect(sendsOf('next one')).toBe(2);
  });

  it('--late-stop: the stopped turn ends only as the next send arrives; its boundary does not end the next prompt', async () => {
    const a = ask(rig.alice, 'stopped late');
    const b = ask(rig.bob, 'arrives');
    await settle();
    const first = sendOf('stopped late');
    first.call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', first.inputId));
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    answerStops();
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs);
    await settle();
    expect(a.result?.stopReason).toBe('cancelled');

    // The send finalises the stopped turn first (its end and boundary), then is taken.
    const second = sendOf('arrives');
    rig.flow.onTurnEnded(rig.session, ended('t1', first.inputId, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    rig.flow.onPromptStarted(rig.session);
    second.call.answer({});
    await settle();
    expect(b.settles).toBe(0);
    rig.flow.onTurnStarted(rig.session, started('t2', second.inputId));
    rig.flow.onTurnEnded(rig.session, ended('t2', second.inputId));
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(b.result).toEqual({ stopReason: 'end_turn', turnId: 't2', queuedBehind: 1 });
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(endsSeen()).toEqual([
      { turnComplete: 'cancelled', turnId: 't1' },
      { turnComplete: 'end_turn', turnId: 't2' },
    ]);
    expect(sendsOf('arrives')).toBe(1);
  });

  it('--silent-stop: no end, no boundary; the next prompt is refused busy and retried every busyRetryMs until taken', async () => {
    const a = ask(rig.alice, 'aborted silently');
    const b = ask(rig.bob, 'retried');
    await settle();
    const first = sendOf('aborted silently');
    first.call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', first.inputId));
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    answerStops();
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs);
    await settle();
    expect(a.result?.stopReason).toBe('cancelled');
    // The synthesised end counts as the boundary: the next prompt is sent at once.
    expect(rig.session.turn.by?.name).toBe('bob');

    // The lock is still held: refused, twice, with no boundary to wait for.
    sendOf('retried').call.refuse(BUSY.code, BUSY.message);
    await settle();
    expect(rig.backend.open('session/send')).toEqual([]);
    await vi.advanceTimersByTimeAsync(rig.config.limits.busyRetryMs);
    await settle();
    sendOf('retried').call.refuse(BUSY.code, BUSY.message);
    await settle();
    await vi.advanceTimersByTimeAsync(rig.config.limits.busyRetryMs);
    await settle();
    // The lock freed silently: the third try is taken and runs its own turn.
    await runTurn('retried', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(sendsOf('retried')).toBe(3);
    // Taken: no more retries armed.
    await vi.advanceTimersByTimeAsync(rig.config.limits.busyRetryMs * 3);
    expect(sendsOf('retried')).toBe(3);
  });

  it('the watchdog never ends a turn that really ended, nor a prompt started since', async () => {
    const a = ask(rig.alice, 'ends in time');
    const b = ask(rig.bob, 'new turn');
    await settle();
    const first = sendOf('ends in time');
    first.call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', first.inputId));
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    answerStops();
    rig.flow.onTurnEnded(rig.session, ended('t1', first.inputId, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    await settle();
    const second = sendOf('new turn');
    second.call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t2', second.inputId));
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs * 2);
    await settle();
    expect(b.settles).toBe(0);
    expect(rig.session.turn.state).toBe('running');
    expect(a.settles).toBe(1);
  });

  it('the watchdog of a stopped prompt whose send was then refused leaves the next prompt alone', async () => {
    const a = ask(rig.alice, 'refused after stop');
    const b = ask(rig.bob, 'runs on');
    await settle();
    const first = sendOf('refused after stop');
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    answerStops();
    first.call.refuse(-32602, 'Invalid params');
    await settle();
    expect(hubCode(a.error)).toBeDefined();
    const second = sendOf('runs on');
    second.call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t2', second.inputId));
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs);
    await settle();
    expect(b.settles).toBe(0);
    expect(rig.session.turn.state).toBe('running');
    rig.flow.onTurnEnded(rig.session, ended('t2', second.inputId));
    await settle();
    expect(b.result).toEqual({ stopReason: 'end_turn', turnId: 't2', queuedBehind: 1 });
    expect([a.settles, b.settles]).toEqual([1, 1]);
  });
});

describe('PromptFlow: background turns', () => {
  it('a prompt the child queued behind a background turn ends with its own turn, not at the early boundary', async () => {
    rig.flow.onTurnStarted(rig.session, started('bg1', undefined, true));
    const a = ask(rig.alice, 'behind background');
    const b = ask(rig.bob, 'then this');
    await settle();
    const first = sendOf('behind background');
    rig.flow.onSteerQueued(rig.session, { type: 'steer_queued', inputId: first.inputId });
    first.call.answer({});
    await settle();
    rig.flow.onTurnEnded(rig.session, ended('bg1', undefined, 'success', { background: true }));
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(a.settles).toBe(0);
    expect(sendsOf('then this')).toBe(0);

    rig.flow.onTurnStarted(rig.session, started('t2', first.inputId));
    rig.flow.onTurnEnded(rig.session, ended('t2', first.inputId));
    await settle();
    expect(a.result).toEqual({ stopReason: 'end_turn', turnId: 't2', queuedBehind: 0 });
    // The lock boundary came before the queued turn ran: the next prompt goes at its end.
    await runTurn('then this', 't3');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect([sendsOf('behind background'), sendsOf('then this')]).toEqual([1, 1]);
  });

  it('a prompt_completed while a background turn still runs is not the end of a prompt with no turn yet', async () => {
    rig.flow.onTurnStarted(rig.session, started('bg1', undefined, true));
    const a = ask(rig.alice, 'waits its turn');
    await settle();
    const { call, inputId } = sendOf('waits its turn');
    call.answer({});
    await settle();
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(a.settles).toBe(0);
    rig.flow.onTurnEnded(rig.session, ended('bg1', undefined, 'success', { background: true }));
    rig.flow.onTurnStarted(rig.session, started('t2', inputId));
    rig.flow.onTurnEnded(rig.session, ended('t2', inputId));
    await settle();
    expect(a.result).toEqual({ stopReason: 'end_turn', turnId: 't2', queuedBehind: 0 });
    expect(a.settles).toBe(1);
  });

  it('a background turn’s start and end never touch the running prompt', async () => {
    const a = ask(rig.alice, 'mine');
    await settle();
    const { call, inputId } = sendOf('mine');
    call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', inputId));
    rig.flow.onTurnStarted(rig.session, started('bg1', undefined, true));
    rig.flow.onTurnEnded(rig.session, ended('bg1', undefined, 'success', { background: true }));
    await settle();
    expect(a.settles).toBe(0);
    expect(rig.session.turn.turnId).toBe('t1');
    rig.flow.onTurnEnded(rig.session, ended('t1', inputId));
    await settle();
    expect(a.result?.turnId).toBe('t1');
  });
});

describe('PromptFlow: turns nobody here prompted', () => {
  it('binds and runs the session’s turn, and ends it (or fails it, announced once) with no prompt to answer', async () => {
    rig.flow.onTurnStarted(rig.session, started('t0'));
    expect([rig.session.turn.state, rig.session.turn.turnId]).toEqual(['running', 't0']);
    rig.flow.onTurnEnded(rig.session, ended('t0', undefined));
    expect(rig.session.turn.state).toBe('idle');

    rig.flow.onTurnStarted(rig.session, started('t1'));
    rig.flow.onTurnEnded(rig.session, ended('t1', undefined, 'failed', { error: { type: 'provider', message: 'overloaded' } }));
    // Another turn's end changes nothing.
    rig.flow.onTurnEnded(rig.session, ended('t1', undefined));
    expect(rig.session.turn.state).toBe('idle');
    expect(endsSeen()).toEqual([{ turnEnded: 'failed' }]);
  });

  it('a cancel of it stops it; the watchdog ends it when the child never confirms', async () => {
    rig.flow.onTurnStarted(rig.session, started('t0'));
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    answerStops();
    await settle();
    expect(rig.session.turn.state).toBe('stopping');
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs);
    expect(rig.session.turn.state).toBe('idle');
    expect(endsSeen()).toEqual([]);
  });

  it('a cancel with nothing running sends no stop', async () => {
    await rig.flow.cancel(rig.alice, rig.session);
    expect(rig.backend.calls).toEqual([]);
    expect(rig.session.turn.state).toBe('idle');
  });
});

describe('PromptFlow: the backend lost', () => {
  it('mid-turn (restarting): the running prompt fails once, everyone sees `interrupted`, the queued one waits and goes later', async () => {
    const a = ask(rig.alice, 'cut off');
    const b = ask(rig.bob, 'survives');
    await settle();
    const { call, inputId } = sendOf('cut off');
    call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', inputId));
    rig.flow.onBackendLost(rig.session, { state: 'restarting' });
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_BACKEND_UNAVAILABLE');
    expect(endsSeen()).toEqual([{ turnEnded: 'interrupted', promptId: inputId }]);
    expect(rig.session.turn.state).toBe('idle');
    expect(rig.session.turn.tail?.kept).toBe(true);
    expect(b.settles).toBe(0);
    expect(sendsOf('survives')).toBe(0);

    // A late event of the gone child's turn changes nothing.
    rig.flow.onTurnEnded(rig.session, ended('t1', inputId));
    await settle();
    expect(a.settles).toBe(1);
    // The new child is subscribed: the queue moves (event-ingest.ts pumps after the resubscribe).
    rig.flow.pump(rig.session);
    await settle();
    await runTurn('survives', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect(b.settles).toBe(1);
  });

  it('while stopping: the prompt fails once as lost and the stop watchdog is cleared with it', async () => {
    const a = ask(rig.alice, 'stopping when lost');
    await settle();
    const { call, inputId } = sendOf('stopping when lost');
    call.answer({});
    await settle();
    rig.flow.onTurnStarted(rig.session, started('t1', inputId));
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    rig.flow.onBackendLost(rig.session, { state: 'restarting' });
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs);
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_BACKEND_UNAVAILABLE');
    expect(a.settles).toBe(1);
    expect(endsSeen()).toEqual([{ turnEnded: 'interrupted', promptId: inputId }]);
  });

  it('a send cut off by the exit is answered once, by the loss, not by the send’s own failure', async () => {
    const a = ask(rig.alice, 'in flight');
    await settle();
    sendOf('in flight').call.fail('gone');
    await settle();
    expect(a.settles).toBe(0);
    rig.flow.onBackendLost(rig.session, { state: 'restarting' });
    await settle();
    expect(a.settles).toBe(1);
    expect((a.error as HubError).details).toMatchObject({ backend: 'restarting' });
  });

  it('failed (crash loop): running and queued prompts all fail at once, naming what an admin can do; nothing is sent', async () => {
    const a = ask(rig.alice, 'running');
    const b = ask(rig.bob, 'queued');
    await settle();
    sendOf('running').call.answer({});
    await settle();
    rig.flow.onBackendLost(rig.session, { state: 'failed' });
    await settle();
    expect([hubCode(a.error), hubCode(b.error)]).toEqual(['HUB_ERR_BACKEND_UNAVAILABLE', 'HUB_ERR_BACKEND_UNAVAILABLE']);
    expect(String((b.error as Error).message)).toMatch(/admin/);
    expect([a.settles, b.settles]).toEqual([1, 1]);
    rig.flow.pump(rig.session);
    await settle();
    expect(sendsOf('queued')).toBe(0);
    expect(() => rig.flow.refuseWhileFailed()).toThrow(HubError);
  });

  it('the hub shutting down fails every prompt of the session once', async () => {
    const a = ask(rig.alice, 'running');
    const b = ask(rig.bob, 'queued');
    await settle();
    rig.flow.shutDown(rig.session);
    await settle();
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(hubCode(b.error)).toBe('HUB_ERR_BACKEND_UNAVAILABLE');
    // The send's late answer ends nothing twice.
    rig.backend.only('session/send').answer({});
    await settle();
    expect([a.settles, b.settles]).toEqual([1, 1]);
  });
});
