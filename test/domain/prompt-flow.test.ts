/**
 * PromptFlow (src/domain/prompts/prompt-flow.ts) on its own, in milliseconds, over the real HubCore and a
 * RecordingBackend (prompt-flow-rig.ts): the queue, -32010, background turns, turns nobody here
 * prompted and the backend lost. Each of the child's quirks the simulator switches on is one
 * sequence of events, checked for: every prompt ends exactly once with the right outcome, the
 * queue moves on, nothing is sent twice. Timers (send timeout) run on vitest's fake clock.
 */
import { describe, expect, it, vi } from 'vitest';
import { HubError } from '../../src/errors.js';
import type { RecorderClient } from './helpers.js';
import { BUSY, ended, type FlowRig, hubCode, settle, started, useFlowRig } from './prompt-flow-rig.js';

let rig: FlowRig;
useFlowRig((r) => {
  rig = r;
});

describe('PromptFlow: the queue', () => {
  it('sends one prompt at a time, each at the ready boundary after the one before, and answers each at its own turn end', async () => {
    const a = rig.ask(rig.alice, 'first');
    const b = rig.ask(rig.bob, 'second');
    await settle();
    const first = rig.sendOf('first');
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
    expect(rig.sendsOf('second')).toBe(0);

    rig.flow.onReady(rig.session, false);
    await settle();
    await rig.runTurn('second', 't2');
    expect(b.result).toEqual({ stopReason: 'end_turn', turnId: 't2', queuedBehind: 1 });
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(rig.endsSeen()).toEqual([
      { turnComplete: 'end_turn', turnId: 't1' },
      { turnComplete: 'end_turn', turnId: 't2' },
    ]);
    expect([rig.sendsOf('first'), rig.sendsOf('second')]).toEqual([1, 1]);
    expect(rig.session.turn.state).toBe('idle');
  });

  it('echoes each prompt once to the other clients, the prompter getting only its seq', async () => {
    rig.ask(rig.alice, 'hello there');
    await settle();
    const echoed = (c: RecorderClient): unknown[] => c.updates().filter((u) => u.update.sessionUpdate === 'user_message_chunk');
    expect(echoed(rig.bob)).toEqual([
      expect.objectContaining({ update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hello there' } } }),
    ]);
    expect(echoed(rig.alice)).toEqual([]);
    expect(rig.alice.notes('_zcode/own_update')).toHaveLength(1);
  });

  it('a prompt the child refuses before any turn (--reject-sends) fails with the child’s reason, once, and the queue moves on', async () => {
    const a = rig.ask(rig.alice, 'refused');
    const b = rig.ask(rig.bob, 'next');
    await settle();
    const { call } = rig.sendOf('refused');
    call.answer({});
    await settle();
    rig.flow.onTerminalFailure(rig.session, { type: 'model_creation', message: 'reasoning level required' });
    rig.flow.onReady(rig.session, true);
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_TURN_FAILED');
    expect(String((a.error as Error).message)).toContain('reasoning level required');
    expect(rig.endsSeen()).toEqual([{ turnEnded: 'failed', promptId: call.params['inputId'] }]);
    await rig.runTurn('next', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(rig.sendsOf('refused')).toBe(1);
  });

  it('a failed turn answers HUB_ERR_TURN_FAILED with the agent’s error, never end_turn', async () => {
    const a = rig.ask(rig.alice, 'breaks');
    await settle();
    const { inputId } = await rig.take('breaks', 't1');
    rig.flow.onTurnEnded(rig.session, ended('t1', inputId, 'failed', { error: { type: 'provider', message: 'quota exceeded' } }));
    rig.flow.onReady(rig.session, true);
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_TURN_FAILED');
    expect((a.error as HubError).details).toMatchObject({ promptId: inputId, turnId: 't1', error: { message: 'quota exceeded' } });
    expect(a.settles).toBe(1);
    expect(rig.endsSeen()).toEqual([{ turnEnded: 'failed', promptId: inputId }]);
    expect(rig.session.turn.state).toBe('idle');
  });

  it('a send the child never answers fails after sendAnswerTimeoutMs and is never written again; the next prompt goes', async () => {
    const a = rig.ask(rig.alice, 'stuck');
    const b = rig.ask(rig.bob, 'after');
    await settle();
    rig.sendOf('stuck');
    await vi.advanceTimersByTimeAsync(rig.config.limits.sendAnswerTimeoutMs);
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_BACKEND_TIMEOUT');
    expect(rig.sendsOf('stuck')).toBe(1);
    await rig.runTurn('after', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, b.settles]).toEqual([1, 1]);
  });
});

describe('PromptFlow: a prompt withdrawn by its client ($/cancel_request)', () => {
  it('while it waits: out of the queue, answered cancelled once, never sent; the turn in front runs on', async () => {
    const a = rig.ask(rig.alice, 'running');
    const withdraw = new AbortController();
    const b = rig.ask(rig.bob, 'waiting', withdraw.signal);
    const c = rig.ask(rig.bob, 'after it');
    await settle();
    expect(rig.session.queue.queued.map((p) => p.preview)).toEqual(['waiting', 'after it']);
    withdraw.abort();
    await settle();
    expect(b.result).toEqual({ stopReason: 'cancelled', queuedBehind: 1 });
    expect(rig.session.queue.queued.map((p) => p.preview)).toEqual(['after it']);
    withdraw.abort();
    await rig.runTurn('running', 't1');
    await rig.runTurn('after it', 't2');
    expect([a.result?.stopReason, c.result?.stopReason]).toEqual(['end_turn', 'end_turn']);
    expect([a.settles, b.settles, c.settles]).toEqual([1, 1, 1]);
    expect(rig.sendsOf('waiting')).toBe(0);
  });

  it('once sent it is not withdrawn (only session/cancel stops a turn); withdrawn before it was queued, it is never queued', async () => {
    const withdraw = new AbortController();
    const a = rig.ask(rig.alice, 'running', withdraw.signal);
    await settle();
    withdraw.abort();
    await rig.runTurn('running', 't1');
    expect(a.result).toMatchObject({ stopReason: 'end_turn' });
    const gone = new AbortController();
    gone.abort();
    const b = rig.ask(rig.alice, 'never queued', gone.signal);
    await settle();
    expect(b.result).toEqual({ stopReason: 'cancelled', queuedBehind: 0 });
    expect(rig.sendsOf('never queued')).toBe(0);
  });
});

describe('PromptFlow: -32010 (busy)', () => {
  it('a refused prompt goes back to the head unseen, is sent again once at the boundary, and is echoed once', async () => {
    const a = rig.ask(rig.alice, 'waits');
    const b = rig.ask(rig.bob, 'behind');
    await settle();
    rig.sendOf('waits').call.refuse(BUSY.code, BUSY.message);
    await settle();
    expect(a.settles).toBe(0);
    expect(rig.backend.open('session/send')).toEqual([]);
    expect(rig.session.queue.queued.map((p) => p.preview)).toEqual(['waits', 'behind']);

    rig.flow.onReady(rig.session, false);
    await settle();
    await rig.runTurn('waits', 't1');
    await rig.runTurn('behind', 't2');
    expect([a.result?.stopReason, b.result?.stopReason]).toEqual(['end_turn', 'end_turn']);
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect([rig.sendsOf('waits'), rig.sendsOf('behind')]).toEqual([2, 1]);
    expect(rig.bob.updates().filter((u) => u.update.sessionUpdate === 'user_message_chunk')).toHaveLength(1);
  });

  it('a -32010 whose boundary already passed is sent again at once, not left waiting for a boundary that came', async () => {
    // A turn nobody here prompted holds the child's lock when the prompt is sent.
    rig.flow.onTurnStarted(rig.session, started('t0'));
    const a = rig.ask(rig.alice, 'races the boundary');
    await settle();
    const first = rig.sendOf('races the boundary');
    // The child ends its turn and frees the lock before it answers the send it had refused.
    rig.flow.onTurnEnded(rig.session, ended('t0', undefined));
    rig.flow.onReady(rig.session, false);
    first.call.refuse(BUSY.code, BUSY.message);
    await settle();
    expect(rig.sendsOf('races the boundary')).toBe(2);
    await rig.runTurn('races the boundary', 't1');
    expect(a.result).toEqual({ stopReason: 'end_turn', turnId: 't1', queuedBehind: 0 });
    expect(a.settles).toBe(1);
  });

  it('a prompt refused while a turn of the child’s own runs leaves that turn running, and a cancel still stops it', async () => {
    rig.flow.onTurnStarted(rig.session, started('t0'));
    const a = rig.ask(rig.alice, 'behind t0');
    await settle();
    rig.sendOf('behind t0').call.refuse(BUSY.code, BUSY.message);
    await settle();
    expect([rig.session.turn.state, rig.session.turn.turnId]).toEqual(['running', 't0']);

    // Bob stops the child's turn; alice's prompt stays queued and goes at the boundary.
    void rig.flow.cancel(rig.bob, rig.session);
    await settle();
    expect(rig.backend.open('session/stop')).toHaveLength(1);
    rig.answerStops();
    rig.flow.onTurnEnded(rig.session, ended('t0', undefined, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    await settle();
    await rig.runTurn('behind t0', 't1');
    expect(a.result).toEqual({ stopReason: 'end_turn', turnId: 't1', queuedBehind: 0 });
    expect(a.settles).toBe(1);
  });

  it('another -32010 meaning is an error for its prompter, not a wait', async () => {
    const a = rig.ask(rig.alice, 'other');
    await settle();
    rig.sendOf('other').call.refuse(-32010, 'Session is archived');
    await settle();
    expect(a.settles).toBe(1);
    expect(hubCode(a.error)).toBe('HUB_ERR_SESSION_BUSY');
    expect(rig.sendsOf('other')).toBe(1);
    expect(rig.session.turn.state).toBe('idle');
  });
});

describe('PromptFlow: background turns', () => {
  it('a prompt the child queued behind a background turn ends with its own turn, not at the early boundary', async () => {
    rig.flow.onTurnStarted(rig.session, started('bg1', undefined, true));
    const a = rig.ask(rig.alice, 'behind background');
    const b = rig.ask(rig.bob, 'then this');
    await settle();
    const first = rig.sendOf('behind background');
    rig.flow.onSteerQueued(rig.session, { type: 'steer_queued', inputId: first.inputId });
    first.call.answer({});
    await settle();
    rig.flow.onTurnEnded(rig.session, ended('bg1', undefined, 'success', { background: true }));
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(a.settles).toBe(0);
    expect(rig.sendsOf('then this')).toBe(0);

    rig.flow.onTurnStarted(rig.session, started('t2', first.inputId));
    rig.flow.onTurnEnded(rig.session, ended('t2', first.inputId));
    await settle();
    expect(a.result).toEqual({ stopReason: 'end_turn', turnId: 't2', queuedBehind: 0 });
    // The lock boundary came before the queued turn ran: the next prompt goes at its end.
    await rig.runTurn('then this', 't3');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect([rig.sendsOf('behind background'), rig.sendsOf('then this')]).toEqual([1, 1]);
  });

  it('a prompt_completed while a background turn still runs is not the end of a prompt with no turn yet', async () => {
    rig.flow.onTurnStarted(rig.session, started('bg1', undefined, true));
    const a = rig.ask(rig.alice, 'waits its turn');
    await settle();
    const { call, inputId } = rig.sendOf('waits its turn');
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
    const a = rig.ask(rig.alice, 'mine');
    await settle();
    const { inputId } = await rig.take('mine', 't1');
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
    expect(rig.endsSeen()).toEqual([{ turnEnded: 'failed' }]);
  });

  it('a cancel of it stops it; the watchdog ends it when the child never confirms', async () => {
    rig.flow.onTurnStarted(rig.session, started('t0'));
    await rig.stopTaken();
    expect(rig.session.turn.state).toBe('stopping');
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs);
    expect(rig.session.turn.state).toBe('idle');
    expect(rig.endsSeen()).toEqual([]);
  });

  it('a cancel with nothing running sends no stop', async () => {
    await rig.flow.cancel(rig.alice, rig.session);
    expect(rig.backend.calls).toEqual([]);
    expect(rig.session.turn.state).toBe('idle');
  });
});

describe('PromptFlow: the backend lost', () => {
  it('mid-turn (restarting): the running prompt fails once, everyone sees `interrupted`, the queued one waits and goes later', async () => {
    const a = rig.ask(rig.alice, 'cut off');
    const b = rig.ask(rig.bob, 'survives');
    await settle();
    const { inputId } = await rig.take('cut off', 't1');
    rig.flow.onBackendLost(rig.session, { state: 'restarting' });
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_BACKEND_UNAVAILABLE');
    expect(rig.endsSeen()).toEqual([{ turnEnded: 'interrupted', promptId: inputId }]);
    expect(rig.session.turn.state).toBe('idle');
    expect(rig.session.turn.tail?.kept).toBe(true);
    expect(b.settles).toBe(0);
    expect(rig.sendsOf('survives')).toBe(0);

    // A late event of the gone child's turn changes nothing.
    rig.flow.onTurnEnded(rig.session, ended('t1', inputId));
    await settle();
    expect(a.settles).toBe(1);
    // The new child is subscribed: the queue moves (event-ingest.ts pumps after the resubscribe).
    rig.flow.pump(rig.session);
    await settle();
    await rig.runTurn('survives', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect(b.settles).toBe(1);
  });

  it('while stopping: the prompt fails once as lost and the stop watchdog is cleared with it', async () => {
    const a = rig.ask(rig.alice, 'stopping when lost');
    await settle();
    const { inputId } = await rig.take('stopping when lost', 't1');
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    rig.flow.onBackendLost(rig.session, { state: 'restarting' });
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs);
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_BACKEND_UNAVAILABLE');
    expect(a.settles).toBe(1);
    expect(rig.endsSeen()).toEqual([{ turnEnded: 'interrupted', promptId: inputId }]);
  });

  it('a send cut off by the exit is answered once, by the loss, not by the send’s own failure', async () => {
    const a = rig.ask(rig.alice, 'in flight');
    await settle();
    rig.sendOf('in flight').call.fail('gone');
    await settle();
    expect(a.settles).toBe(0);
    rig.flow.onBackendLost(rig.session, { state: 'restarting' });
    await settle();
    expect(a.settles).toBe(1);
    expect((a.error as HubError).details).toMatchObject({ backend: 'restarting' });
  });

  it('failed (crash loop): running and queued prompts all fail at once, naming what an admin can do; nothing is sent', async () => {
    const a = rig.ask(rig.alice, 'running');
    const b = rig.ask(rig.bob, 'queued');
    await settle();
    rig.sendOf('running').call.answer({});
    await settle();
    rig.flow.onBackendLost(rig.session, { state: 'failed' });
    await settle();
    expect([hubCode(a.error), hubCode(b.error)]).toEqual(['HUB_ERR_BACKEND_UNAVAILABLE', 'HUB_ERR_BACKEND_UNAVAILABLE']);
    expect(String((b.error as Error).message)).toMatch(/admin/);
    // Only the running prompt's ending is journaled (the interrupted marker names it); the queued one never ran.
    expect((a.error as HubError).details).toMatchObject({ backend: 'failed', promptId: expect.any(String) });
    expect((b.error as HubError).details).toEqual({ backend: 'failed' });
    expect([a.settles, b.settles]).toEqual([1, 1]);
    rig.flow.pump(rig.session);
    await settle();
    expect(rig.sendsOf('queued')).toBe(0);
    expect(() => rig.flow.refuseWhileFailed()).toThrow(HubError);
  });

  it('the hub shutting down fails every prompt of the session once, and every prompt after it at once', async () => {
    const a = rig.ask(rig.alice, 'running');
    const b = rig.ask(rig.bob, 'queued');
    await settle();
    rig.flow.end([rig.session]);
    await settle();
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect([hubCode(a.error), hubCode(b.error)]).toEqual(['HUB_ERR_BACKEND_UNAVAILABLE', 'HUB_ERR_BACKEND_UNAVAILABLE']);
    // The running prompt's ending will be journaled, so its answer names it; the queued one never ran.
    expect((a.error as HubError).details).toEqual({ backend: 'stopped', promptId: expect.any(String) });
    expect((b.error as HubError).details).toEqual({ backend: 'stopped' });
    // The send's late answer ends nothing twice.
    rig.backend.only('session/send').answer({});
    await settle();
    expect([a.settles, b.settles]).toEqual([1, 1]);
    // A prompt admitted after the end is not queued behind a turn that will never run.
    const late = rig.ask(rig.alice, 'too late');
    await settle();
    expect(late.settles).toBe(1);
    expect(String((late.error as Error).message)).toMatch(/shutting down/);
    expect(rig.session.queue.drain()).toEqual([]);
  });
});
