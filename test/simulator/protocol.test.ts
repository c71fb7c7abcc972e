import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClient } from './sim-client.js';

// One simulator child for the envelope / params / session-state conformance checks.
let sim: SimClient;
beforeAll(async () => {
  sim = await SimClient.start({ args: ['--turn-delay-scale', '0.2'] });
});
afterAll(async () => sim.close());

const invalid = (m: any): boolean => m.id === 'invalid-message' && m.error?.code === -32600;

describe('§1.3/1.4 envelopes', () => {
  it.each([
    ['jsonrpc key', { jsonrpc: '2.0', id: 90, method: 'runtime/capabilities' }],
    ['extra key', { id: 91, method: 'runtime/capabilities', extra: 1 }],
    ['float id', { id: 1.5, method: 'runtime/capabilities' }],
    ['null id', { id: null, method: 'runtime/capabilities' }],
    ['empty method', { id: 92, method: '  ' }],
    ['array', [{ id: 93, method: 'runtime/capabilities' }]],
    ['result and error', { id: 94, result: {}, error: { code: 1, message: 'x' } }],
    ['error with empty message', { id: 95, error: { code: 1, message: '' } }],
  ])('%s → -32600 invalid-message with data.issues', async (_name, msg) => {
    const from = sim.messages.length;
    sim.send(msg);
    const m = await sim.waitFor(invalid, 10_000, 'invalid-message', from);
    expect(m.error.message).toBe('Invalid ZCode Protocol message');
    expect(Array.isArray(m.error.data.issues)).toBe(true);
    expect(Object.keys(m).sort()).toEqual(['error', 'id']);
  });

  it('non-JSON → -32700 with id "parse-error"; empty lines are skipped', async () => {
    const from = sim.messages.length;
    sim.sendRaw('\n   \nnot json at all\n');
    const m = await sim.waitFor((x) => x.id === 'parse-error', 10_000, 'parse-error', from);
    expect(m.error).toEqual({ code: -32700, message: 'Parse error' });
  });

  it('unknown and removed methods → -32601 Method not found: <m>', async () => {
    for (const method of ['nope/x', 'session/steer', 'v4/controller/subscribe']) {
      const r = await sim.request(method, {});
      expect(r.error).toEqual({ code: -32601, message: `Method not found: ${method}` });
    }
  });

  it('runtime/capabilities with an integer or a string id', async () => {
    expect((await sim.request('runtime/capabilities', undefined, 'str-id')).result).toEqual({ independentPlanState: true });
  });

  it('a client notification is ignored', async () => {
    sim.send({ method: 'process/networkCapture', params: { captureId: 'x' } });
    expect((await sim.request('runtime/capabilities', {})).result).toEqual({ independentPlanState: true });
  });
});

describe('§1.4 strict params (-32602)', () => {
  it('unknown root key', async () => {
    const r = await sim.request('session/create', { workspace: { workspacePath: '/w', workspaceKey: '/w' }, runtimeModel: 'x' });
    expect(r.error.code).toBe(-32602);
    expect(r.error.message).toBe('Invalid params — (root): Unrecognized key: "runtimeModel"');
  });
  it('nested path, and at most 5 issues then (+N more)', async () => {
    const r1 = await sim.request('session/create', { workspace: { workspacePath: '/w' } });
    expect(r1.error.message).toBe('Invalid params — workspace.workspaceKey: Invalid input: expected string, received undefined');
    const r2 = await sim.request('session/send', {
      sessionId: 1,
      content: 2,
      inputId: 3,
      queryId: 4,
      expectedRevision: 'x',
      toolDenylist: 'y',
      a: 1,
    });
    expect(r2.error.message).toMatch(/^Invalid params — .+; .+; .+; .+; [^;]+ \(\+\d+ more\)$/);
  });
  it('cross-field rules', async () => {
    const r = await sim.request('session/create', { workspace: { workspacePath: '/w', workspaceKey: '/w' }, sessionId: 'sess_x' });
    expect(r.error).toMatchObject({ code: -32602, message: 'sessionId is only supported for imported history creates' });
  });
});

describe('§4 session state', () => {
  it('-32004 on an unknown id for every [active] method; resume → Session not found', async () => {
    for (const method of [
      'session/read',
      'session/messages',
      'session/events',
      'session/send',
      'session/stop',
      'session/close',
      'session/compact',
      'session/setMode',
    ]) {
      const params: any = { sessionId: 'sess_unknown' };
      if (method === 'session/send') params.content = 'x';
      if (method === 'session/setMode') params.mode = 'yolo';
      const r = await sim.request(method, params);
      expect(r.error, method).toEqual({ code: -32004, message: 'Session is not active: sess_unknown' });
    }
    const s = await sim.request('session/subscribe', { sessionId: 'sess_unknown', deliveryKind: 'desktop-continuous' });
    expect(s.error.code).toBe(-32004);
    const r = await sim.request('session/resume', { sessionId: 'sess_unknown' });
    expect(r.error).toEqual({ code: -32004, message: 'Session not found: sess_unknown' });
  });

  it('snapshot has every required field; create lists all models', async () => {
    const snap = await sim.createSession({
      mode: 'yolo',
      model: { providerId: 'sim', modelId: 'sim-pro', options: { reasoningLevel: 'high' } },
      thoughtLevel: 'low',
    });
    expect(snap.protocol).toEqual({ name: 'ZCode Protocol', version: 1 });
    expect(snap.session).toMatchObject({
      sessionKind: 'interactive',
      title: '',
      mode: 'yolo',
      status: 'idle',
      model: { providerId: 'sim', modelId: 'sim-pro' },
    });
    expect(snap.settings.model.available.map((m: any) => m.ref.modelId)).toEqual(expect.arrayContaining(['sim-fast', 'sim-pro']));
    expect(snap.settings.thoughtLevel).toMatchObject({ enabled: true, current: 'low' });
    expect(snap.projection).toMatchObject({ turnCount: 0, pendingPermissions: [], activeToolCalls: [], backgroundJobs: [] });
    expect(snap.runtime).toMatchObject({ stateRevision: 0, pendingRequestIds: [] });
    expect(snap.messages).toEqual([]);
    const read = await sim.call('session/read', { sessionId: snap.session.sessionId });
    expect(read.settings.model.available).toHaveLength(1);
  });

  it('seq per delivery kind, events stored before subscribe, afterSeq replay', async () => {
    const snap = await sim.createSession();
    const sessionId = snap.session.sessionId;
    const from = sim.messages.length;
    await sim.prompt(sessionId, 'hello before subscribe');
    expect(sim.messages.slice(from).some((m) => m.method === 'session/event')).toBe(false);
    const sub = await sim.call('session/subscribe', { sessionId, deliveryKind: 'web-remote-replayable' });
    expect(sub.events).toEqual([]);
    expect(sub.eventSeq).toBeGreaterThan(5);
    const replay = await sim.call('session/subscribe', {
      sessionId,
      deliveryKind: 'web-remote-replayable',
      afterSeq: 0,
      includeSnapshot: true,
    });
    expect(replay.events.map((e: any) => e.seq)).toEqual(Array.from({ length: sub.eventSeq }, (_, i) => i + 1));
    expect(replay.events[0]).toMatchObject({ type: 'session.created', deliveryKind: 'web-remote-replayable', sessionId });
    expect(replay.snapshot.runtime.eventSeq).toBe(sub.eventSeq);
    const tail = await sim.call('session/subscribe', { sessionId, deliveryKind: 'web-remote-replayable', afterSeq: sub.eventSeq - 2 });
    expect(tail.events.map((e: any) => e.seq)).toEqual([sub.eventSeq - 1, sub.eventSeq]);
    const last = await sim.call('session/events', { sessionId, limit: 3 });
    expect(last.events.map((e: any) => e.seq)).toEqual([sub.eventSeq - 2, sub.eventSeq - 1, sub.eventSeq]);
    // live events continue the same seq space
    const before = sim.messages.length;
    await sim.prompt(sessionId, 'hello after subscribe');
    const live = sim.messages
      .slice(before)
      .filter((m) => m.method === 'session/event')
      .map((m) => m.params.seq);
    expect(live[0]).toBe(sub.eventSeq + 1);
    live.forEach((s, i) => expect(s).toBe(sub.eventSeq + 1 + i));
  });

  it('send: prompt_started before the ACK, -32010 while running, lock released before prompt_completed', async () => {
    const sessionId = await sim.openSession();
    const from = sim.messages.length;
    const ack = await sim.request('session/send', { sessionId, content: 'hello' }, 'send-1');
    expect(ack.result).toMatchObject({ sessionId, accepted: true });
    const idxStarted = sim.messages.findIndex((m, i) => i >= from && m.method === 'state.updated' && m.params.reason === 'prompt_started');
    const idxAck = sim.messages.indexOf(ack);
    expect(idxStarted).toBeGreaterThanOrEqual(from);
    expect(idxStarted).toBeLessThan(idxAck);
    expect(sim.messages[idxStarted]?.params.patch).toEqual({ status: 'running' });
    const busy = await sim.request('session/send', { sessionId, content: 'again' });
    expect(busy.error).toEqual({ code: -32010, message: 'A prompt is already running for this session' });
    const done = await sim.waitState(sessionId, 'prompt_completed', from);
    // a send issued on receipt of prompt_completed is accepted
    const next = await sim.request('session/send', { sessionId, content: 'third' });
    expect(next.result?.accepted).toBe(true);
    const completed = sim.events(sessionId, 'turn.completed');
    expect(sim.messages.indexOf(done)).toBeGreaterThan(sim.messages.findIndex((m) => m.params === completed[0]));
    await sim.waitState(sessionId, 'prompt_completed', sim.messages.indexOf(done) + 1);
  });

  it('stop ends a slow turn with turn.completed resultType cancelled', async () => {
    const sessionId = await sim.openSession();
    const from = sim.messages.length;
    await sim.call('session/send', { sessionId, content: 'be slow please' });
    await sim.waitFor(
      (m) => m.method === 'session/event' && m.params.sessionId === sessionId && m.params.payload?.kind === 'text_delta',
      20_000,
      'a delta',
      from,
    );
    expect(await sim.call('session/stop', { sessionId })).toEqual({});
    const done = await sim.waitFor(
      (m) => m.method === 'session/event' && m.params.sessionId === sessionId && m.params.type === 'turn.completed',
      20_000,
      'turn.completed',
      from,
    );
    expect(done.params.payload.resultType).toBe('cancelled');
    await sim.waitState(sessionId, 'prompt_completed', from);
    expect(await sim.call('session/stop', { sessionId })).toEqual({});
  });

  it('a stop written right behind the send (before the turn starts) still cancels it', async () => {
    const sessionId = await sim.openSession();
    const from = sim.messages.length;
    sim.send({ id: 'snd', method: 'session/send', params: { sessionId, content: 'hello' } });
    sim.send({ id: 'stp', method: 'session/stop', params: { sessionId } });
    const done = await sim.waitFor(
      (m) => m.method === 'session/event' && m.params.sessionId === sessionId && m.params.type === 'turn.completed',
      20_000,
      'turn.completed',
      from,
    );
    expect(done.params.payload.resultType).toBe('cancelled');
  });

  it('SIGUSR2 forgets every runtime: -32004, then resume brings the session back with seq from 1', async () => {
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'hello');
    sim.signal('SIGUSR2');
    await expect.poll(async () => (await sim.request('session/read', { sessionId })).error?.code, { timeout: 10_000 }).toBe(-32004);
    const snap = await sim.call('session/resume', { sessionId });
    expect(snap.messages.length).toBe(2);
    const sub = await sim.call('session/subscribe', { sessionId, deliveryKind: 'desktop-continuous', afterSeq: 0 });
    expect(sub.events[0]).toMatchObject({ seq: 1, type: 'session.resumed' });
  });

  it('close unloads the runtime but keeps the conversation', async () => {
    const sessionId = await sim.openSession();
    expect(await sim.call('session/close', { sessionId, expectedPersistence: 'deferred' })).toEqual({ closed: false });
    expect(await sim.call('session/close', { sessionId })).toEqual({ closed: true });
    expect((await sim.request('session/read', { sessionId })).error.code).toBe(-32004);
    const list = await sim.call('session/list', { sessionIds: [sessionId] });
    expect(list.sessions[0].sessionId).toBe(sessionId);
  });

  it('setMode / setModel / setThoughtLevel / fork / goal / compact / usage', async () => {
    const sessionId = await sim.openSession();
    const m = await sim.call('session/setMode', { sessionId, mode: 'plan' });
    expect(m.settings.mode.current).toBe('plan');
    const bad = await sim.request('session/setModel', { sessionId, model: { providerId: 'sim', modelId: 'sim-pro' } });
    expect(bad.error).toMatchObject({ code: -32603, message: 'Reasoning level is required for sim/sim-pro' });
    const unknown = await sim.request('session/setModel', { sessionId, model: { providerId: 'nope', modelId: 'x' } });
    expect(unknown.error.code).toBe(-32603);
    const ok = await sim.call('session/setModel', {
      sessionId,
      model: { providerId: 'sim', modelId: 'sim-pro', options: { reasoningLevel: 'high' } },
    });
    expect(ok.settings.model.current).toEqual({ providerId: 'sim', modelId: 'sim-pro', options: { reasoningLevel: 'high' } });
    expect((await sim.request('session/setThoughtLevel', { sessionId })).error.message).toBe('thoughtLevel is required');
    expect((await sim.call('session/setThoughtLevel', { sessionId, thoughtLevel: 'low' })).settings.thoughtLevel.current).toBe('low');
    const cas = await sim.request('session/setMode', { sessionId, mode: 'build', expectedRevision: 999 });
    expect(cas.error).toMatchObject({ code: -32009, message: 'Session state revision mismatch' });
    const shown = await sim.call('session/goal', { sessionId, action: 'show' });
    expect(shown.response).toBe('No goal is set. Use /goal <objective> to set one.');
    const planGoal = await sim.call('session/goal', { sessionId, action: 'set', objective: 'ship it' });
    expect(planGoal.startedTurn).toBeUndefined();
    await sim.call('session/setMode', { sessionId, mode: 'yolo' });
    await sim.call('session/goal', { sessionId, action: 'clear' });
    const from = sim.messages.length;
    const g = await sim.call('session/goal', { sessionId, action: 'set', objective: 'ship it' });
    expect(g.startedTurn).toBe(true);
    await sim.waitState(sessionId, 'goal_continuation_completed', from);
    const c = await sim.call('session/compact', { sessionId });
    expect(c.compact.state).toBe('accepted');
    await sim.waitState(sessionId, 'session_compacted', from);
    const f = await sim.call('session/fork', { sessionId, target: { kind: 'turn', turnIndex: 0 } });
    expect(f.snapshot.session).toMatchObject({ sessionKind: 'fork', parentSessionId: sessionId });
    expect((await sim.request('session/fork', { sessionId, target: { kind: 'turn', turnIndex: 99 } })).error.message).toBe(
      'Cannot resolve assistant message for turnIndex=99',
    );
    const u = await sim.call('session/usage', { sessionId });
    expect(u.totalTokens).toBeGreaterThan(0);
    expect((await sim.call('session/subagents', { sessionId })).childSessionIds).toEqual([]);
  });
});
