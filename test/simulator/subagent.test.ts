import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIO_NAMES, selectBehaviour } from '../../src/simulator/scenarios/select.js';
import { SimClient, type Json, type Message } from './sim-client.js';

// The `subagent` scenario against the real simulator child (APP-SERVER.md §3.4, §4.8, §4.16,
// §5.2, §5.5.7, §5.5.9). Scale 4: the child runs for about two seconds, ample for a
// `session/subagents` sent on receipt of `subagent_spawned` to find it running.
let sim: SimClient;
beforeAll(async () => {
  sim = await SimClient.start({ args: ['--turn-delay-scale', '4'] });
});
afterAll(async () => sim.close());

const isSpawned =
  (sessionId: string) =>
  (m: Message): boolean =>
    m.method === 'session/event' &&
    m.params.sessionId === sessionId &&
    m.params.type === 'session.updated' &&
    typeof m.params.payload.agentId === 'string' &&
    typeof m.params.payload.childSessionId === 'string';

describe('subagent keyword', () => {
  it('a prompt with "subagent(s)" and --scenario subagent pick it', () => {
    expect(selectBehaviour('please use a subagent for this')).toBe('subagent');
    expect(selectBehaviour('Spawn SUBAGENTS')).toBe('subagent');
    expect(selectBehaviour('subagent', 'subagent')).toBe('subagent');
    expect(SCENARIO_NAMES).toContain('subagent');
  });
});

describe('subagent scenario, end to end', () => {
  let sessionId: string;
  let childSessionId: string;
  let runningRoster: Json;

  beforeAll(async () => {
    sessionId = await sim.openSession();
    const from = sim.messages.length;
    await sim.call('session/send', { sessionId, content: 'Ask a subagent to survey the project' });
    const spawned = await sim.waitFor(isSpawned(sessionId), 20_000, 'subagent_spawned', from);
    childSessionId = spawned.params.payload.childSessionId;
    runningRoster = await sim.call('session/subagents', { sessionId });
    await sim.waitState(sessionId, 'prompt_completed', from);
  });

  it('parent stream: Agent call, spawned, mirrored child tools, stopped, Agent result with the summary', () => {
    const evs = sim.events(sessionId);
    const agentResult = evs.findIndex((e) => e.type === 'tool.updated' && e.payload.kind === 'result' && e.payload.toolName === 'Agent');
    const agentStarted = evs.findIndex((e) => e.type === 'tool.updated' && e.payload.kind === 'started' && e.payload.toolName === 'Agent');
    const spawned = evs.findIndex(
      (e) => e.type === 'session.updated' && e.payload.childSessionId !== undefined && e.payload.status === undefined,
    );
    const stopped = evs.findIndex(
      (e) => e.type === 'session.updated' && e.payload.childSessionId !== undefined && e.payload.status === 'success',
    );
    const mirrored = evs.map((e, i) => ({ e, i })).filter(({ e }) => e.type === 'tool.updated' && e.payload.source === 'subagent');
    expect(agentStarted).toBeGreaterThan(-1);
    expect(agentStarted).toBeLessThan(spawned);
    expect(mirrored.length).toBeGreaterThan(0);
    expect(mirrored.every(({ i }) => i > spawned && i < stopped)).toBe(true);
    expect(stopped).toBeLessThan(agentResult);

    const call = evs.find((e) => e.type === 'model.streaming' && e.payload.kind === 'tool_call' && e.payload.toolName === 'Agent')!;
    expect(call.payload.input).toMatchObject({ subagent_type: 'Explore', description: expect.any(String), prompt: expect.any(String) });
    const parentToolCallId = call.payload.toolCallId;
    const spawnedPayload = evs[spawned]!.payload;
    expect(spawnedPayload).toMatchObject({ childSessionId, agentType: 'Explore', parentToolCallId });
    expect(childSessionId).toBe(`sess_subagent_${spawnedPayload.agentId}`);
    expect(evs[stopped]!.payload).toMatchObject({ agentId: spawnedPayload.agentId, childSessionId });

    // Every mirror carries the §5.5.7 sub-agent fields and is published under the parent (§5.2).
    for (const { e } of mirrored) {
      expect(e.sessionId).toBe(sessionId);
      expect(e.payload).toMatchObject({
        parentToolCallId,
        source: 'subagent',
        agentId: spawnedPayload.agentId,
        agentType: 'Explore',
        childSessionId,
      });
      expect(e.payload.toolCallId).not.toBe(parentToolCallId);
    }
    const kinds = (id: string): string[] => mirrored.filter(({ e }) => e.payload.toolCallId === id).map(({ e }) => e.payload.kind);
    const childCalls = [...new Set(mirrored.map(({ e }) => e.payload.toolCallId as string))];
    expect(childCalls.length).toBe(2);
    for (const id of childCalls) expect(kinds(id)).toEqual(['scheduled', 'started', 'result']);
    const scheduled = mirrored.find(({ e }) => e.payload.kind === 'scheduled')!.e.payload;
    expect(scheduled.input).toBeDefined();
    expect(scheduled.inputOmitted).toBeUndefined();
    // No child event reaches the child's own session id on this stream.
    expect(sim.events(childSessionId)).toEqual([]);

    const result = evs[agentResult]!.payload;
    expect(result.result).toMatchObject({ success: true });
    expect(result.result.content).toBe(evs[stopped]!.payload.summary);
    const done = sim.events(sessionId, 'turn.completed')[0]!.payload;
    expect(done).toMatchObject({ resultType: 'success', toolCallCount: 1 });
    expect(done.response).toContain(childSessionId);
  });

  it('session/subagents: running while the child works, ended success after (§4.16)', async () => {
    expect(runningRoster).toMatchObject({ childSessionIds: [childSessionId], ended: { total: 0, items: [] } });
    expect(runningRoster.running).toHaveLength(1);
    expect(runningRoster.running[0]).toMatchObject({
      childSessionId,
      subagentType: 'Explore',
      title: 'Survey the project layout',
      status: 'running',
      agentId: expect.any(String),
      toolCallId: expect.any(String),
      startedAt: expect.any(Number),
    });
    expect(runningRoster.running[0].endedAt).toBeUndefined();

    const after = await sim.call('session/subagents', { sessionId });
    expect(after.running).toEqual([]);
    expect(after.childSessionIds).toEqual([childSessionId]);
    expect(after.ended.total).toBe(1);
    expect(after.ended.nextCursor).toBeUndefined();
    const sub = after.ended.items[0];
    expect(sub).toMatchObject({
      childSessionId,
      status: 'success',
      summary: expect.stringContaining('src/server.ts'),
      endedAt: expect.any(Number),
    });
    expect(Object.keys(sub).sort()).toEqual([
      'agentId',
      'childSessionId',
      'endedAt',
      'startedAt',
      'status',
      'subagentType',
      'summary',
      'title',
      'toolCallId',
    ]);
    expect(after.revision).toBeGreaterThan(runningRoster.revision);
    // The child itself has no children.
    expect((await sim.call('session/subagents', { sessionId: childSessionId })).childSessionIds).toEqual([]);
  });

  it('the child is read-only (-32010 guard.subagentReadOnly) and hidden from session/list', async () => {
    const r = await sim.request('session/send', { sessionId: childSessionId, content: 'hello child' });
    expect(r.error).toEqual({ code: -32010, message: 'Subagent sessions are read-only', data: { reasonCode: 'guard.subagentReadOnly' } });
    const listed = (await sim.call('session/list', {})).sessions.map((s: Json) => s.sessionId);
    expect(listed).toContain(sessionId);
    expect(listed).not.toContain(childSessionId);
    const child = (await sim.call('session/read', { sessionId: childSessionId })).session;
    expect(child).toMatchObject({
      sessionId: childSessionId,
      sessionKind: 'subagent_child',
      parentSessionId: sessionId,
      title: 'Survey the project layout',
    });
  });

  it('history: the parent has the subagent part and the Agent tool part; the child has its own work', async () => {
    const { messages } = await sim.call('session/messages', { sessionId });
    const assistant = messages.find((m: Json) => m.info.role === 'assistant');
    const sub = assistant.parts.find((p: Json) => p.type === 'subagent');
    expect(sub).toMatchObject({
      agent: 'Explore',
      description: 'Survey the project layout',
      prompt: expect.stringContaining('survey the project'),
      sessionId,
      messageId: assistant.info.messageId,
    });
    const tool = assistant.parts.find((p: Json) => p.type === 'tool' && p.tool === 'Agent');
    expect(tool.state).toMatchObject({
      status: 'completed',
      input: { subagent_type: 'Explore' },
      output: expect.stringContaining('src/server.ts'),
      metadata: { childSessionId },
    });
    expect(assistant.parts.some((p: Json) => p.type === 'tool' && p.tool !== 'Agent')).toBe(false);

    const child = (await sim.call('session/messages', { sessionId: childSessionId })).messages;
    expect(child.map((m: Json) => m.info.role)).toEqual(['user', 'assistant']);
    expect(child[1].parts.filter((p: Json) => p.type === 'tool').map((p: Json) => p.tool)).toEqual(['Glob', 'Read']);
    for (const m of child) for (const p of m.parts) expect(p).toMatchObject({ sessionId: childSessionId, messageId: m.info.messageId });
  });
});

describe('subagent roster paging, stop and restart', () => {
  it('ended items page by endedLimit with an opaque nextCursor, most recently ended first', async () => {
    const fast = await SimClient.start({ args: ['--turn-delay-scale', '0.2', '--scenario', 'subagent'] });
    try {
      const sessionId = await fast.openSession();
      for (let i = 0; i < 3; i++) await fast.prompt(sessionId, `survey ${i}`);
      const all = await fast.call('session/subagents', { sessionId });
      expect(all.childSessionIds).toHaveLength(3);
      expect(all.ended.total).toBe(3);
      const ends = all.ended.items.map((s: Json) => s.endedAt);
      expect(ends).toEqual([...ends].sort((a, b) => b - a));
      const p1 = await fast.call('session/subagents', { sessionId, endedLimit: 2 });
      expect(p1.ended.items).toHaveLength(2);
      expect(p1.ended.total).toBe(3);
      expect(typeof p1.ended.nextCursor).toBe('string');
      const p2 = await fast.call('session/subagents', { sessionId, endedLimit: 2, endedCursor: p1.ended.nextCursor });
      expect(p2.ended.items).toHaveLength(1);
      expect(p2.ended.nextCursor).toBeUndefined();
      expect([...p1.ended.items, ...p2.ended.items]).toEqual(all.ended.items);
      for (const bad of [{ endedLimit: 0 }, { endedLimit: 101 }, { endedCursor: '' }, { extra: 1 }]) {
        expect((await fast.request('session/subagents', { sessionId, ...bad })).error.code).toBe(-32602);
      }
      expect((await fast.request('session/subagents', { sessionId: 'sess_nope' })).error).toEqual({
        code: -32004,
        message: 'Session not found: sess_nope',
      });
    } finally {
      await fast.close();
    }
  });

  it('stop while the child works: subagent_stopped cancelled, ended cancelled', async () => {
    const sessionId = await sim.openSession();
    const from = sim.messages.length;
    await sim.call('session/send', { sessionId, content: 'subagent please' });
    const spawned = await sim.waitFor(isSpawned(sessionId), 20_000, 'subagent_spawned', from);
    await sim.call('session/stop', { sessionId });
    await sim.waitState(sessionId, 'prompt_completed', from);
    const { childSessionId } = spawned.params.payload;
    const stopped = sim
      .events(sessionId, 'session.updated')
      .find((e) => e.payload.childSessionId === childSessionId && e.payload.status !== undefined);
    expect(stopped!.payload.status).toBe('cancelled');
    expect(sim.events(sessionId, 'turn.completed')[0]!.payload.resultType).toBe('cancelled');
    const roster = await sim.call('session/subagents', { sessionId });
    expect(roster.running).toEqual([]);
    expect(roster.ended.items[0]).toMatchObject({ childSessionId, status: 'cancelled' });
  });

  it('cold parent after a restart: ended stays, a child killed mid-run is lost', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-sim-'));
    const a = await SimClient.start({ home });
    const sessionId = await a.openSession();
    await a.prompt(sessionId, 'subagent one');
    const from = a.messages.length;
    await a.call('session/send', { sessionId, content: 'subagent two' });
    const spawned = await a.waitFor(isSpawned(sessionId), 20_000, 'second subagent_spawned', from);
    a.signal('SIGKILL');
    await a.close(true);

    const b = await SimClient.start({ home });
    try {
      const roster = await b.call('session/subagents', { sessionId });
      expect(roster.running).toEqual([]);
      expect(roster.childSessionIds).toHaveLength(2);
      const statuses = Object.fromEntries(roster.ended.items.map((s: Json) => [s.childSessionId, s.status]));
      expect(statuses[spawned.params.payload.childSessionId]).toBe('lost');
      expect(Object.values(statuses).sort()).toEqual(['lost', 'success']);
      // Resumed, the child is still a read-only sub-agent session.
      const child = roster.childSessionIds[0];
      expect((await b.call('session/resume', { sessionId: child })).session.sessionKind).toBe('subagent_child');
      expect((await b.request('session/send', { sessionId: child, content: 'x' })).error.code).toBe(-32010);
    } finally {
      await b.close();
    }
  });
});
