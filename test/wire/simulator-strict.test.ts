/**
 * The simulator speaks the contract: what it sends (the real child, over stdio) parses with the
 * strict readings of src/wire — so the hub's lenient readings are tested against messages
 * that are exactly what the definition allows, not against what the simulator happens to send.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KEYWORDS } from '../../src/simulator/scenarios/select.js';
import { strictPayload } from '../../src/wire/event-payloads.js';
import { sessionEventEnvelope } from '../../src/wire/events.js';
import { messageWithParts } from '../../src/wire/history.js';
import { sessionInfo } from '../../src/wire/session-info.js';
import { settings } from '../../src/wire/settings.js';
import { snapshot } from '../../src/wire/snapshot.js';
import { requestPermissionParams } from '../../src/wire/interactions.js';
import { commandAck } from '../../src/wire/v4.js';
import { RECOMMENDED_PREFERENCES, SimClient, type Message } from '../simulator/sim-client.js';

let sim: SimClient | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('the simulator sends what the strict readings accept', () => {
  it('session events, a permission request and a v4 ACK of one turn', async () => {
    sim = await SimClient.start({
      args: ['--turn-delay-scale', '0.2'],
      onReverse: (m: Message) => {
        if (m.method === 'session/requestRuntimePreferences') return { result: RECOMMENDED_PREFERENCES };
        if (m.method === 'interaction/requestPermission') return { result: m.params.options[0].response };
        return { error: { code: -32601, message: 'Method not found' } };
      },
    });
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'needs permission');
    const ack = await sim.call('v4/command', {
      commandId: 'c-strict-1',
      clientId: 'test',
      sessionId,
      type: 'renameSession',
      payload: { title: 'Strict' },
      issuedAt: Date.now(),
    });

    const events = sim.messages.filter((m) => m.method === 'session/event');
    const permissions = sim.messages.filter((m) => m.method === 'interaction/requestPermission');
    expect(events.length).toBeGreaterThan(3);
    expect(permissions.length).toBeGreaterThan(0);
    for (const e of events) expect(sessionEventEnvelope.strict.safeParse(e.params).error).toBeUndefined();
    for (const p of permissions) expect(requestPermissionParams.strict.safeParse(p.params).error).toBeUndefined();
    expect(commandAck.strict.parse(ack)).toMatchObject({ commandId: 'c-strict-1', status: 'accepted' });
  });
});

/** Every way a strict reading refuses an event's payload, as `type: issue at path`. */
function refusals(events: Message[]): string[] {
  return events.flatMap((e) => {
    const schema = strictPayload(e.params.type);
    if (!schema) return [`${e.params.type}: not one of the 25 types`];
    const r = schema.safeParse(e.params.payload);
    return r.success
      ? []
      : r.error.issues.map(
          (i) => `${e.params.type}${e.params.payload?.kind ? `/${e.params.payload.kind}` : ''}: ${i.message} at ${i.path.join('.')}`,
        );
  });
}

describe('every scenario’s events pass the strict payload readings', () => {
  it('each keyword, a plain answer, the plan feedback loop, a rename, a close and a resume', async () => {
    let planAnswers = 0;
    let denyIn: string | undefined;
    sim = await SimClient.start({
      args: ['--turn-delay-scale', '0.2'],
      onReverse: (m: Message) => {
        if (m.method === 'session/requestRuntimePreferences') return { result: RECOMMENDED_PREFERENCES };
        if (m.method === 'interaction/requestPermission')
          return { result: m.params.options[m.params.sessionId === denyIn ? 2 : 0].response };
        if (m.method === 'interaction/requestUserInput') {
          // The second plan review asks for changes: the steer events of §5.5.2.
          if (m.params.toolName === 'ExitPlanMode' && ++planAnswers === 2)
            return { result: { action: 'accept', content: { answers: { 'Review this implementation plan.': 'add docs too' } } } };
          return { result: { action: 'accept', content: { answer: 'approve' } } };
        }
        return { error: { code: -32601, message: 'Method not found' } };
      },
    });
    const sessions: string[] = [];
    for (const prompt of ['explain this repo', ...KEYWORDS.map((k) => `please ${k}`), 'make a plan']) {
      const sessionId = await sim.openSession(prompt === 'make a plan' ? { mode: 'plan' } : {});
      sessions.push(sessionId);
      await sim.prompt(sessionId, prompt);
    }
    // A denied permission: the tool's `error` kind.
    denyIn = await sim.openSession();
    sessions.push(denyIn);
    await sim.prompt(denyIn, 'permission');
    // The background keyword's task ends in a model-only follow-up turn of its own.
    const background = sessions[1 + KEYWORDS.indexOf('background')] as string;
    await sim.waitFor(
      (m) =>
        m.method === 'session/event' &&
        m.params.sessionId === background &&
        m.params.type === 'turn.completed' &&
        sim!.events(background, 'turn.completed').length >= 2,
      30_000,
      'the background follow-up turn',
    );
    const [first] = sessions as [string];
    await sim.call('v4/command', {
      commandId: 'c-rename',
      clientId: 'test',
      sessionId: first,
      type: 'renameSession',
      payload: { title: 'Renamed' },
      issuedAt: Date.now(),
    });
    await sim.call('session/close', { sessionId: first });
    await sim.call('session/resume', { sessionId: first });
    await sim.call('session/subscribe', { sessionId: first, deliveryKind: 'web-remote-replayable' });

    // Every answer that carries a snapshot, a session list or a history.
    const answers: { what: string; issues: string[] }[] = [];
    const check = (
      what: string,
      schema: { safeParse(v: unknown): { error?: { issues: { message: string; path: PropertyKey[] }[] } } },
      v: unknown,
    ) =>
      answers.push({
        what,
        issues: (schema.safeParse(v).error?.issues ?? []).map((i) => `${i.message} at ${i.path.map(String).join('.')}`),
      });
    for (const sessionId of sessions) {
      check('session/read', snapshot.strict, await sim.call('session/read', { sessionId }));
      const history = await sim.call('session/messages', { sessionId });
      expect(history.messages.length).toBeGreaterThan(0);
      for (const m of history.messages) check('session/messages', messageWithParts.strict, m);
    }
    const subscribed = await sim.call('session/subscribe', {
      sessionId: first,
      deliveryKind: 'web-remote-replayable',
      includeSnapshot: true,
    });
    check('session/subscribe', snapshot.strict, subscribed.snapshot);
    check('session/setMode', snapshot.strict, await sim.call('session/setMode', { sessionId: first, mode: 'edit' }));
    const model = { providerId: 'sim', modelId: 'sim-pro', options: { reasoningLevel: 'medium' } };
    check('session/setModel', snapshot.strict, await sim.call('session/setModel', { sessionId: first, model }));
    check(
      'session/setThoughtLevel',
      snapshot.strict,
      await sim.call('session/setThoughtLevel', { sessionId: first, thoughtLevel: 'high' }),
    );
    check('session/create', snapshot.strict, await sim.createSession());
    const listed = await sim.call('session/list', {});
    expect(listed.sessions.length).toBeGreaterThan(3);
    for (const info of listed.sessions) check('session/list', sessionInfo.strict, info);
    const settingsPatches = sim.messages.filter((m) => m.method === 'state.updated' && m.params.patch?.model);
    expect(settingsPatches.length).toBeGreaterThan(0);
    for (const m of settingsPatches) check('state.updated', settings.strict, m.params.patch);
    expect(answers.filter((a) => a.issues.length > 0)).toEqual([]);

    // Live events, and each session's stored ones from seq 1: those written before the subscribe too.
    const stored = await Promise.all(sessions.map((sessionId) => sim!.call('session/events', { sessionId, afterSeq: 0 })));
    const events = [
      ...sim.messages.filter((m) => m.method === 'session/event'),
      ...stored.flatMap((r: { events: unknown[] }) => r.events.map((params) => ({ method: 'session/event', params }) as Message)),
    ];
    const types = new Set(events.map((e) => e.params.type));
    for (const t of [
      'session.created',
      'session.resumed',
      'session.titleUpdated',
      'session.closed',
      'turn.steerQueued',
      'turn.steerDrained',
      'turn.failed',
      'permission.requested',
      'permission.resolved',
    ])
      expect(types).toContain(t);
    const kinds = new Set(events.filter((e) => e.params.type === 'tool.updated').map((e) => e.params.payload.kind));
    expect([...kinds].sort()).toEqual(['batch', 'error', 'progress', 'result', 'scheduled', 'started']);
    expect(refusals(events)).toEqual([]);
  });

  it('bench mode: its send stamp is the one key outside the contract', async () => {
    sim = await SimClient.start({ args: ['--event-rate', '200', '--event-bytes', '64', '--event-duration-ms', '100'] });
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'bench');
    const events = sim.messages.filter((m) => m.method === 'session/event');
    const deltas = events.filter((e) => e.params.type === 'model.streaming');
    expect(deltas.length).toBeGreaterThan(0);
    expect(new Set(refusals(events))).toEqual(new Set(['model.streaming/text_delta: Unrecognized key: "simSentAt" at ']));
  });
});
