/**
 * PromptFlow's stop (src/domain/prompts/prompt-flow.ts, stop-turn.ts, stop-watchdog.ts, busy-retry.ts) on
 * its own, in milliseconds, over the real HubCore and a RecordingBackend (prompt-flow-rig.ts):
 * cancel, the stops held before the next send, and the child's stop quirks the simulator
 * switches on (--ignore-stop, --late-stop, --silent-stop) as sequences of events, each checked
 * for: every prompt ends exactly once with the right outcome, the queue moves on, nothing is
 * sent twice. The watchdog and busy-retry timers run on vitest's fake clock.
 */
import { describe, expect, it, vi } from 'vitest';
import { BUSY, ended, type FlowRig, hubCode, settle, started, useFlowRig } from './prompt-flow-rig.js';

let rig: FlowRig;
useFlowRig((r) => {
  rig = r;
});

describe('PromptFlow: stop', () => {
  it('cancel stops with legacy and v4 stop together, returns the caller’s queued prompts cancelled, leaves others’ queued', async () => {
    const a = rig.ask(rig.alice, 'running');
    const a2 = rig.ask(rig.alice, 'alice queued');
    const b = rig.ask(rig.bob, 'bob queued');
    await settle();
    const { inputId } = await rig.take('running', 't1');
    const cancelling = rig.flow.cancel(rig.alice, rig.session);
    await settle();
    expect(rig.backend.open('session/stop')).toHaveLength(1);
    expect(rig.backend.open('v4/command').map((c) => c.params['type'])).toEqual(['stop']);
    expect(rig.session.turn.state).toBe('stopping');
    expect(a2.result).toEqual({ stopReason: 'cancelled', queuedBehind: 1 });
    expect(rig.cancelledInteractions.map((by) => by.name)).toEqual(['alice']);
    rig.answerStops();
    await cancelling;

    rig.flow.onTurnEnded(rig.session, ended('t1', inputId, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(a.result).toEqual({ stopReason: 'cancelled', turnId: 't1', queuedBehind: 0 });
    await rig.runTurn('bob queued', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, a2.settles, b.settles]).toEqual([1, 1, 1]);
    expect(rig.sendsOf('alice queued')).toBe(0);
  });

  it('the next prompt is not sent while a stop is still on its way (it could stop the new turn instead)', async () => {
    rig.ask(rig.alice, 'one');
    rig.ask(rig.bob, 'two');
    await settle();
    const { inputId } = await rig.take('one', 't1');
    void rig.flow.cancel(rig.alice, rig.session);
    await settle();
    // The child ends the turn at the legacy stop; the v4 stop is still unanswered.
    rig.backend.only('session/stop').answer({});
    rig.flow.onTurnEnded(rig.session, ended('t1', inputId, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(rig.sendsOf('two')).toBe(0);
    rig.answerStops();
    await settle();
    expect(rig.sendsOf('two')).toBe(1);
  });

  it('a stop asked before the send was answered goes out again once the send is answered', async () => {
    const a = rig.ask(rig.alice, 'slow to take');
    await settle();
    const { call, inputId } = rig.sendOf('slow to take');
    const cancelling = rig.flow.cancel(rig.alice, rig.session);
    await settle();
    rig.answerStops();
    await cancelling;
    expect(rig.backend.all('session/stop')).toHaveLength(1);
    call.answer({});
    await settle();
    expect(rig.backend.all('session/stop')).toHaveLength(2);
    rig.answerStops();
    rig.flow.onTurnStarted(rig.session, started('t1', inputId));
    rig.flow.onTurnEnded(rig.session, ended('t1', inputId, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    await settle();
    expect(a.result?.stopReason).toBe('cancelled');
    expect(a.settles).toBe(1);
  });

  it('--ignore-stop: the watchdog ends the turn cancelled; the real end and boundary later end nothing twice', async () => {
    const a = rig.ask(rig.alice, 'keeps going');
    const b = rig.ask(rig.bob, 'next one');
    await settle();
    const first = await rig.take('keeps going', 't1');
    await rig.stopTaken();
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs - 1);
    expect(a.settles).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(a.result).toEqual({ stopReason: 'cancelled', turnId: 't1', queuedBehind: 0 });
    // The synthesised end counts as the boundary: the next prompt is tried, the child still runs t1.
    rig.sendOf('next one').call.refuse(BUSY.code, BUSY.message);
    await settle();
    rig.flow.onTurnEnded(rig.session, ended('t1', first.inputId));
    rig.flow.onReady(rig.session, false);
    await settle();
    await rig.runTurn('next one', 't2');
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(b.result?.stopReason).toBe('end_turn');
    expect(rig.endsSeen()).toEqual([
      { turnComplete: 'cancelled', turnId: 't1' },
      { turnComplete: 'end_turn', turnId: 't2' },
    ]);
    expect(rig.sendsOf('next one')).toBe(2);
    // The real boundary settled the busy retry: no third send later.
    await vi.advanceTimersByTimeAsync(rig.config.limits.busyRetryMs * 3);
    expect(rig.sendsOf('next one')).toBe(2);
  });

  it('--late-stop: the stopped turn ends only as the next send arrives; its boundary does not end the next prompt', async () => {
    const a = rig.ask(rig.alice, 'stopped late');
    const b = rig.ask(rig.bob, 'arrives');
    await settle();
    const first = await rig.take('stopped late', 't1');
    await rig.stopTaken();
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs);
    await settle();
    expect(a.result?.stopReason).toBe('cancelled');

    // The send finalises the stopped turn first (its end and boundary), then is taken.
    const second = rig.sendOf('arrives');
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
    expect(rig.endsSeen()).toEqual([
      { turnComplete: 'cancelled', turnId: 't1' },
      { turnComplete: 'end_turn', turnId: 't2' },
    ]);
    expect(rig.sendsOf('arrives')).toBe(1);
  });

  it('--silent-stop: no end, no boundary; the next prompt is refused busy and retried every busyRetryMs until taken', async () => {
    const a = rig.ask(rig.alice, 'aborted silently');
    const b = rig.ask(rig.bob, 'retried');
    await settle();
    await rig.take('aborted silently', 't1');
    await rig.stopTaken();
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs);
    await settle();
    expect(a.result?.stopReason).toBe('cancelled');
    // The synthesised end counts as the boundary: the next prompt is sent at once.
    expect(rig.session.turn.by?.name).toBe('bob');

    // The lock is still held: refused, twice, with no boundary to wait for.
    rig.sendOf('retried').call.refuse(BUSY.code, BUSY.message);
    await settle();
    expect(rig.backend.open('session/send')).toEqual([]);
    await vi.advanceTimersByTimeAsync(rig.config.limits.busyRetryMs);
    await settle();
    rig.sendOf('retried').call.refuse(BUSY.code, BUSY.message);
    await settle();
    await vi.advanceTimersByTimeAsync(rig.config.limits.busyRetryMs);
    await settle();
    // The lock freed silently: the third try is taken and runs its own turn.
    await rig.runTurn('retried', 't2');
    expect(b.result?.stopReason).toBe('end_turn');
    expect([a.settles, b.settles]).toEqual([1, 1]);
    expect(rig.sendsOf('retried')).toBe(3);
    // Taken: no more retries armed.
    await vi.advanceTimersByTimeAsync(rig.config.limits.busyRetryMs * 3);
    expect(rig.sendsOf('retried')).toBe(3);
  });

  it('the watchdog never ends a turn that really ended, nor a prompt started since', async () => {
    const a = rig.ask(rig.alice, 'ends in time');
    const b = rig.ask(rig.bob, 'new turn');
    await settle();
    const first = await rig.take('ends in time', 't1');
    await rig.stopTaken();
    rig.flow.onTurnEnded(rig.session, ended('t1', first.inputId, 'cancelled'));
    rig.flow.onReady(rig.session, false);
    await settle();
    await rig.take('new turn', 't2');
    await vi.advanceTimersByTimeAsync(rig.config.limits.stopSettleMs * 2);
    await settle();
    expect(b.settles).toBe(0);
    expect(rig.session.turn.state).toBe('running');
    expect(a.settles).toBe(1);
  });

  it('the watchdog of a stopped prompt whose send was then refused leaves the next prompt alone', async () => {
    const a = rig.ask(rig.alice, 'refused after stop');
    const b = rig.ask(rig.bob, 'runs on');
    await settle();
    const first = rig.sendOf('refused after stop');
    await rig.stopTaken();
    first.call.refuse(-32602, 'Invalid params');
    await settle();
    expect(hubCode(a.error)).toBe('HUB_ERR_BAD_REQUEST');
    const second = await rig.take('runs on', 't2');
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
