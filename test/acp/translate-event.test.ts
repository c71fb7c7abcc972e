import { describe, expect, it } from 'vitest';
import { translateEvent, translateRawEvent } from '../../src/acp/translate-event.js';
import { createTranslationContext } from '../../src/acp/translation-context.js';
import { parseSessionEvent } from '../../src/acp/zcode-event-schema.js';
import { event, rawEvent } from './fixtures.js';

const ctx = () => createTranslationContext('sess_9f2c');

describe('[PRM-02] one translation test per ZCode session/event type (APP-SERVER.md §5.4)', () => {
  it('session.created: nothing shown, context window remembered', () => {
    const c = ctx();
    const r = translateEvent(event('session.created', { mode: 'build', contextWindow: 200000, planEnabled: false }), c);
    expect(r).toEqual({ updates: [], signals: [] });
    expect(c.contextWindow).toBe(200000);
  });

  it('session.resumed: nothing shown', () => {
    const r = translateEvent(
      event('session.resumed', { directory: '/w/app', interruptedToolCount: 0, messageCount: 4, partCount: 9 }),
      ctx(),
    );
    expect(r).toEqual({ updates: [], signals: [] });
  });

  it('session.titleUpdated → session_info_update + title_changed', () => {
    const r = translateEvent(event('session.titleUpdated', { previousTitle: '', source: 'generated', title: 'Fix login tests' }), ctx());
    expect(r.updates).toEqual([{ sessionUpdate: 'session_info_update', title: 'Fix login tests', updatedAt: expect.any(String) }]);
    expect(r.signals).toEqual([{ type: 'title_changed', title: 'Fix login tests', source: 'generated' }]);
  });

  it('session.closed → session_closed signal', () => {
    const r = translateEvent(event('session.closed', { reason: 'closed' }), ctx());
    expect(r).toEqual({ updates: [], signals: [{ type: 'session_closed', reason: 'closed' }] });
  });

  it('turn.started → turn_started signal, no agent text', () => {
    const r = translateEvent(
      event('turn.started', { turnNumber: 1, input: 'run the tests', inputId: 'in_1', executionStartedAt: 1790000001000.5 }),
      ctx(),
    );
    expect(r.updates).toEqual([]);
    expect(r.signals).toEqual([{ type: 'turn_started', turnId: 'turn_1', inputId: 'in_1', background: false }]);
  });

  it('turn.steerQueued → steer_queued signal only', () => {
    const r = translateEvent(
      event('turn.steerQueued', {
        pendingInputId: 'pi_1',
        input: 'also lint',
        inputPreview: 'also lint',
        inputSize: 9,
        targetTurnId: 'turn_1',
        queueLength: 1,
        delivery: 'guide',
      }),
      ctx(),
    );
    expect(r).toEqual({ updates: [], signals: [{ type: 'steer_queued', pendingInputId: 'pi_1', queueLength: 1 }] });
  });

  it('turn.steerDrained → user_message_chunk with the steer text', () => {
    const r = translateEvent(
      event('turn.steerDrained', {
        pendingInputIds: ['pi_1'],
        targetTurnId: 'turn_1',
        injectedMessageIds: ['msg_7'],
        drainedInputs: [{ pendingInputId: 'pi_1', messageId: 'msg_7', text: 'also lint' }],
      }),
      ctx(),
    );
    expect(r.updates).toEqual([
      {
        sessionUpdate: 'user_message_chunk',
        content: { type: 'text', text: 'also lint' },
        messageId: 'msg_7',
        _meta: { zcode: { steer: { pendingInputId: 'pi_1' } } },
      },
    ]);
  });

  it('turn.completed → turn_ended (end_turn), stats only in _meta of usage_update', () => {
    const c = ctx();
    c.contextWindow = 200000;
    c.contextUsed = 1500;
    translateEvent(event('turn.started', { turnNumber: 1, input: 'hi', inputId: 'in_1' }), c);
    const usage = {
      source: 'provider',
      modelRequestCount: 1,
      inputTokens: 1200,
      outputTokens: 300,
      totalTokens: 1500,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      webFetchRequests: 0,
      webSearchRequests: 0,
    };
    const r = translateEvent(
      event('turn.completed', { response: 'Done.', tokenCount: 1500, toolCallCount: 1, duration: 4200, resultType: 'success', usage }),
      c,
    );
    expect(r.signals).toEqual([
      {
        type: 'turn_ended',
        turnId: 'turn_1',
        inputId: 'in_1',
        background: false,
        outcome: 'success',
        stopReason: 'end_turn',
        stats: { resultType: 'success', tokenCount: 1500, toolCallCount: 1, durationMs: 4200, usage },
      },
    ]);
    expect(r.updates).toHaveLength(1);
    expect(r.updates[0]).toMatchObject({ sessionUpdate: 'usage_update', used: 1500, size: 200000 });
    expect(r.updates.some((u) => u.sessionUpdate === 'agent_message_chunk')).toBe(false);
  });

  it('turn.failed → turn_ended failed with the ErrorDetail, no agent text', () => {
    const error = { type: 'provider_error', message: 'Rate limited', code: '1302', retryable: true };
    const r = translateEvent(event('turn.failed', { error, turnPhase: 'model_request', inputId: 'in_1' }), ctx());
    expect(r.updates).toEqual([]);
    expect(r.signals).toEqual([
      { type: 'turn_ended', turnId: 'turn_1', inputId: 'in_1', background: false, outcome: 'failed', stopReason: 'end_turn', error },
    ]);
  });

  it('message.upserted → nothing (user echoed by the hub, assistant already streamed)', () => {
    expect(translateEvent(event('message.upserted', { content: 'run the tests' }), ctx())).toEqual({ updates: [], signals: [] });
    expect(
      translateEvent(event('message.upserted', { content: 'Done.', toolCalls: [{ id: 'call_1', name: 'Bash', input: {} }] }), ctx()),
    ).toEqual({ updates: [], signals: [] });
    expect(translateEvent(event('message.upserted', { type: 'interrupted', content: '' }), ctx())).toEqual({ updates: [], signals: [] });
  });

  it('model.streaming text_delta → agent_message_chunk', () => {
    const r = translateEvent(
      event('model.streaming', { kind: 'text_delta', delta: 'Hello', done: false, assistantMessageId: 'msg_1', partId: 'prt_1' }),
      ctx(),
    );
    expect(r.updates).toEqual([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' }, messageId: 'msg_1' }]);
  });

  it('tool.updated scheduled → tool_call', () => {
    const r = translateEvent(
      event('tool.updated', { kind: 'scheduled', toolCallId: 'call_1', toolName: 'Read', input: { file_path: '/w/app/src/a.ts' } }),
      ctx(),
    );
    expect(r.updates).toEqual([
      expect.objectContaining({
        sessionUpdate: 'tool_call',
        toolCallId: 'call_1',
        kind: 'read',
        status: 'pending',
        title: 'Read /w/app/src/a.ts',
        locations: [{ path: '/w/app/src/a.ts' }],
      }),
    ]);
  });

  it('permission.requested → opens the card as pending (observer event)', () => {
    const r = translateEvent(
      event('permission.requested', {
        requestId: 'perm_1',
        toolCallId: 'call_1',
        toolName: 'Bash',
        riskLevel: 'medium',
        reason: 'Run command',
        input: { command: 'npm test' },
        options: [{ optionId: 'allow_once', kind: 'allow_once', name: 'Allow once', response: { decision: 'allow' } }],
      }),
      ctx(),
    );
    expect(r.updates).toEqual([
      expect.objectContaining({ sessionUpdate: 'tool_call', toolCallId: 'call_1', status: 'pending', kind: 'execute' }),
    ]);
  });

  it('permission.resolved → a denial fails the card; an approval shows nothing', () => {
    const c = ctx();
    translateEvent(
      event('tool.updated', { kind: 'scheduled', toolCallId: 'call_1', toolName: 'Bash', input: { command: 'rm -rf dist' } }),
      c,
    );
    expect(
      translateEvent(event('permission.resolved', { requestId: 'perm_1', toolCallId: 'call_1', decision: 'allow' }), c).updates,
    ).toEqual([]);
    const r = translateEvent(
      event('permission.resolved', { requestId: 'perm_1', toolCallId: 'call_1', decision: 'deny', reason: 'User denied' }),
      c,
    );
    expect(r.updates).toEqual([expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'failed' })]);
  });

  it('checkpoint.created → nothing', () => {
    const r = translateEvent(
      event('checkpoint.created', { checkpointId: 'cp_1', targetMessageId: 'msg_1', scope: 'turn', snapshotRef: 'ref' }),
      ctx(),
    );
    expect(r).toEqual({ updates: [], signals: [] });
  });

  it('rewind.triggered → nothing', () => {
    expect(translateEvent(event('rewind.triggered', { checkpointId: 'cp_1' }), ctx())).toEqual({ updates: [], signals: [] });
  });

  it('streamRecovery.updated → nothing (even with _meta.zcode.apiRetry)', () => {
    const r = translateEvent(
      event('streamRecovery.updated', { anchorId: 'a1', _meta: { zcode: { apiRetry: { kind: 'api_retry', attempt: 1 } } } }),
      ctx(),
    );
    expect(r).toEqual({ updates: [], signals: [] });
  });

  it('session.updated (session_mode_changed) → current_mode_update + mode_changed', () => {
    const r = translateEvent(event('session.updated', { mode: 'plan', previousMode: 'build', source: 'command' }), ctx());
    expect(r.updates).toEqual([{ sessionUpdate: 'current_mode_update', currentModeId: 'plan' }]);
    expect(r.signals).toEqual([{ type: 'mode_changed', mode: 'plan', previousMode: 'build' }]);
  });

  it.each(['message.removed', 'part.started', 'part.delta', 'part.upserted', 'part.removed', 'userInput.requested', 'userInput.resolved'])(
    '%s (declared, never produced by S) → nothing',
    (type) => {
      expect(translateEvent(event(type, { anything: 1 }), ctx())).toEqual({ updates: [], signals: [] });
    },
  );
});

describe('[PRM-02] leniency (APP-SERVER.md §5.6, §11 #25)', () => {
  it('an unknown type is ignored without error', () => {
    expect(parseSessionEvent(rawEvent('brand.newThing', { x: 1 })).kind).toBe('unknown');
    expect(translateRawEvent(rawEvent('brand.newThing', { x: 1 }), ctx())).toEqual({ updates: [], signals: [] });
  });

  it('unknown keys on the envelope and payload never drop an event', () => {
    const raw = rawEvent(
      'model.streaming',
      { kind: 'text_delta', delta: 'Hi', done: false, providerExecuted: false, futureKey: { a: 1 } },
      { futureEnvelopeKey: true },
    );
    expect(translateRawEvent(raw, ctx()).updates).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } },
    ]);
  });

  it('seed-000-style envelopes without eventId/timestamp and an empty turn.started payload still parse', () => {
    const parsed = parseSessionEvent({ sessionId: 'sess_abc123', seq: 43, type: 'turn.started', payload: {} });
    expect(parsed.kind).toBe('event');
  });

  it('an envelope without sessionId/seq is invalid and translates to nothing', () => {
    expect(parseSessionEvent({ type: 'turn.started' }).kind).toBe('invalid');
    // Nothing is translated, and the drop is reported for the log (§5.6: never silently).
    expect(translateRawEvent({ type: 'turn.started' }, ctx())).toMatchObject({
      updates: [],
      signals: [],
      dropped: { type: 'turn.started', wholeEvent: true },
    });
    expect(translateRawEvent(null, ctx())).toMatchObject({ updates: [], signals: [], dropped: { wholeEvent: true } });
  });

  it('legacy numeric error codes (APP-SERVER.md §10) parse', () => {
    const r = translateRawEvent(rawEvent('turn.failed', { error: { code: 1308, message: 'prompt is running' } }), ctx());
    expect(r.signals[0]).toMatchObject({ type: 'turn_ended', outcome: 'failed', error: { code: 1308 } });
  });

  it('an unknown tool.updated kind and an unknown streaming kind are ignored', () => {
    expect(translateEvent(event('tool.updated', { kind: 'teleported', toolCallId: 'c' }), ctx()).updates).toEqual([]);
    expect(translateEvent(event('model.streaming', { kind: 'text_end', delta: '', done: true }), ctx()).updates).toEqual([]);
  });

  it('empty deltas produce no chunk', () => {
    expect(translateEvent(event('model.streaming', { kind: 'text_delta', delta: '', done: false }), ctx()).updates).toEqual([]);
  });
});
