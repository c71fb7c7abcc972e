/**
 * The `session/event` payloads (src/wire/*-events.ts): the strict reading refuses what the CLI
 * would never send, the lenient one (the hub's, through parseSessionEvent) takes each
 * documented drift, and the hub reads with the lenient reading of the same definition.
 */
import { describe, expect, it } from 'vitest';
import { EVENT_PAYLOAD_SCHEMAS, parseSessionEvent } from '../../src/acp/zcode-event-schema.js';
import { permissionOptions } from '../../src/simulator/scenarios/tools.js';
import { EVENT_PAYLOADS, strictPayload } from '../../src/wire/event-payloads.js';
import { toolUpdated } from '../../src/wire/tool-events.js';
import { turnCompleted, turnFailed, turnStarted } from '../../src/wire/turn-events.js';

const envelope = (type: string, payload: unknown) => ({ eventId: 'e1', sessionId: 's1', seq: 1, timestamp: 1, type, payload });
const strictOk = (type: string, payload: unknown) => strictPayload(type)?.safeParse(payload).success;

describe('event payloads, one definition', () => {
  it('the hub parses every type with the lenient reading of its definition', () => {
    expect(Object.keys(EVENT_PAYLOAD_SCHEMAS)).toEqual(Object.keys(EVENT_PAYLOADS));
    expect(Object.keys(EVENT_PAYLOADS)).toHaveLength(25);
    for (const [type, def] of Object.entries(EVENT_PAYLOADS))
      expect(EVENT_PAYLOAD_SCHEMAS[type as keyof typeof EVENT_PAYLOADS]).toBe(def.lenient);
    expect(strictPayload('turn.unknown')).toBeUndefined();
  });

  it('turn.started: strict wants the number and the input; an older CLI without them still starts a turn', () => {
    expect(strictOk('turn.started', { turnNumber: 1, input: 'hi', inputVisibility: 'model-only' })).toBe(true);
    expect(strictOk('turn.started', { input: 'hi' })).toBe(false);
    expect(strictOk('turn.started', { turnNumber: 1, input: 'hi', inputVisibility: 'hidden' })).toBe(false);
    const parsed = parseSessionEvent(envelope('turn.started', { inputVisibility: 'hidden', planEnabled: true }));
    expect(parsed).toMatchObject({ kind: 'event', dropped: [], event: { payload: { inputVisibility: 'hidden', planEnabled: true } } });
    expect(turnStarted.lenient.parse({})).toEqual({});
  });

  it('turn.completed: strict wants every total and a known resultType; leniently the result defaults to success', () => {
    const done = { response: 'ok', tokenCount: 3, toolCallCount: 0, duration: 5, resultType: 'success' };
    expect(strictOk('turn.completed', done)).toBe(true);
    expect(strictOk('turn.completed', { ...done, resultType: 'maybe' })).toBe(false);
    expect(strictOk('turn.completed', { ...done, workflowResultConsumed: true })).toBe(false);
    expect(turnCompleted.lenient.parse({ response: 'ok', workflowResultConsumed: true })).toEqual({
      response: 'ok',
      resultType: 'success',
      workflowResultConsumed: true,
    });
  });

  it('turn.failed: strict wants a full ErrorDetail; leniently a numeric code, a bare string or nothing', () => {
    expect(strictOk('turn.failed', { error: { type: 'provider', message: 'down', code: 'E1' }, turnPhase: 'model' })).toBe(true);
    expect(strictOk('turn.failed', { error: { type: 'provider', message: 'down', code: 503 }, turnPhase: 'model' })).toBe(false);
    expect(strictOk('turn.failed', { error: 'down', turnPhase: 'model' })).toBe(false);
    expect(turnFailed.lenient.parse({ error: { message: 'down', code: 503 } }).error).toEqual({ message: 'down', code: 503 });
    expect(turnFailed.lenient.parse({ error: 'down' }).error).toEqual({ message: 'down' });
    expect(turnFailed.lenient.parse({}).error).toEqual({ message: '' });
  });

  it('tool.updated: strictly each kind has exactly its fields; the hub reads one loose object', () => {
    expect(strictOk('tool.updated', { kind: 'started', toolCallId: 'c1', toolName: 'Bash', startedAt: 5 })).toBe(true);
    expect(strictOk('tool.updated', { kind: 'batch', toolCallIds: ['c1'], successCount: 1, errorCount: 0 })).toBe(true);
    // A batch has no tool call id; a scheduled call needs its tool name; a start time is a number.
    expect(strictOk('tool.updated', { kind: 'batch', toolCallId: 'c1', toolCallIds: ['c1'], successCount: 1, errorCount: 0 })).toBe(false);
    expect(strictOk('tool.updated', { kind: 'scheduled', toolCallId: 'c1' })).toBe(false);
    expect(strictOk('tool.updated', { kind: 'started', toolCallId: 'c1', startedAt: '5' })).toBe(false);
    expect(strictOk('tool.updated', { kind: 'teleported', toolCallId: 'c1' })).toBe(false);
    expect(toolUpdated.lenient.parse({ kind: 'started', toolCallId: 'c1', startedAt: '5' }).startedAt).toBe('5');
    expect(toolUpdated.lenient.parse({ kind: 'teleported', toolCallId: 'c1' })).toEqual({ kind: 'teleported', toolCallId: 'c1' });
    expect(toolUpdated.lenient.parse({ kind: 'batch', toolCallIds: ['c1'] })).toEqual({ kind: 'batch', toolCallIds: ['c1'] });
  });

  it('tool.updated with a drifted field the hub cannot read: dropped and reported, the event kept', () => {
    const parsed = parseSessionEvent(envelope('tool.updated', { kind: 'progress', toolCallId: 'c1', elapsedMs: 'soon', stdoutTail: 'ok' }));
    expect(parsed).toMatchObject({ kind: 'event', dropped: ['payload.elapsedMs (string)'], event: { payload: { stdoutTail: 'ok' } } });
  });

  it('permission.requested: strict wants the options of §6.2; the hub passes them through as they come', () => {
    const requested = {
      toolCallId: 'c1',
      toolName: 'Bash',
      riskLevel: 'low',
      reason: 'run',
      input: {},
      options: permissionOptions('Bash', {}),
    };
    expect(strictOk('permission.requested', requested)).toBe(true);
    expect(strictOk('permission.requested', { ...requested, options: [] })).toBe(false);
    expect(strictOk('permission.requested', { ...requested, riskLevel: 'severe' })).toBe(false);
    const drifted = { toolCallId: 'c1', riskLevel: 'severe', options: [{ label: 'ok' }], fullAccessSupported: true };
    expect(parseSessionEvent(envelope('permission.requested', drifted))).toMatchObject({
      kind: 'event',
      dropped: [],
      event: { payload: drifted },
    });
  });

  it('model.streaming, message.upserted, the session events: an unknown key or kind refused strictly, kept leniently', () => {
    expect(strictOk('model.streaming', { kind: 'text_delta', delta: 'a', done: false })).toBe(true);
    expect(strictOk('model.streaming', { kind: 'image_delta', delta: 'a' })).toBe(false);
    expect(parseSessionEvent(envelope('model.streaming', { kind: 'image_delta' }))).toMatchObject({ kind: 'event', dropped: [] });
    expect(strictOk('message.upserted', { content: 'a', role: 'user' })).toBe(false);
    expect(parseSessionEvent(envelope('message.upserted', {}))).toMatchObject({ kind: 'event', event: { payload: { content: '' } } });
    expect(strictOk('session.created', { mode: 'build', contextWindow: 1000 })).toBe(true);
    expect(strictOk('session.created', { mode: 'build', contextWindow: 1000, planEnabled: false })).toBe(false);
    expect(parseSessionEvent(envelope('session.created', { mode: 'build', planEnabled: false }))).toMatchObject({
      kind: 'event',
      dropped: [],
    });
    expect(strictOk('session.titleUpdated', { title: 'T', previousTitle: '', source: 'guessed' })).toBe(false);
    expect(strictOk('session.updated', { anything: 1 })).toBe(true);
  });

  it('what both readings require, both refuse: a title update without its title', () => {
    expect(strictOk('session.titleUpdated', { previousTitle: '', source: 'custom' })).toBe(false);
    expect(parseSessionEvent(envelope('session.titleUpdated', { previousTitle: '' })).kind).toBe('invalid');
  });
});
