import { afterEach, describe, expect, it } from 'vitest';
import { RECOMMENDED_PREFERENCES, SimClient, type Message } from './sim-client.js';

let sim: SimClient | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const isPerm = (m: Message): boolean => m.method === 'interaction/requestPermission';

describe('§1.7 reverse requests', () => {
  it('re-announces an unanswered permission (same params and requestId, new ids); any id answers; first answer wins', async () => {
    const held: Message[] = [];
    sim = await SimClient.start({
      args: ['--reannounce-scale', '0.01', '--turn-delay-scale', '0.2'],
      onReverse: (m) => {
        if (m.method === 'session/requestRuntimePreferences') return { result: RECOMMENDED_PREFERENCES };
        if (isPerm(m)) held.push(m);
        return undefined;
      },
    });
    const sessionId = await sim.openSession();
    const from = sim.messages.length;
    await sim.call('session/send', { sessionId, content: 'needs permission' });
    await expect.poll(() => held.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    const ids = new Set(held.map((m) => m.id));
    expect(ids.size).toBe(held.length);
    for (const id of ids) expect(String(id)).toMatch(/^server-\d+$/);
    const first = held[0]!;
    for (const m of held) expect(m.params).toEqual(first.params);
    expect(first.params.options.map((o: any) => [o.optionId, o.kind, o.name])).toEqual([
      ['allow_once', 'allow_once', 'Allow once'],
      ['allow_project', 'allow_always', 'Always allow in this project'],
      ['deny', 'deny', 'Deny'],
    ]);
    expect(first.params.options[1].response.permissionUpdates[0].rules[0]).toEqual({ toolName: 'Bash', ruleContent: 'npm test' });
    // answer an older id with allow, then a newer one with deny: the first wins
    sim.send({ id: held[1]!.id, result: first.params.options[0].response });
    sim.send({ id: held[2]!.id, result: first.params.options[2].response });
    const resolved = await sim.waitFor(
      (m) => m.method === 'session/event' && m.params.type === 'permission.resolved',
      10_000,
      'resolved',
      from,
    );
    expect(resolved.params.payload.decision).toBe('allow');
    await sim.waitState(sessionId, 'prompt_completed', from);
    expect(sim.events(sessionId, 'tool.updated').some((e) => e.payload.kind === 'result' && e.payload.toolName === 'Bash')).toBe(true);
    const count = held.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(held.length).toBe(count); // no more re-announcements after settlement
    // late answers are ignored silently
    sim.send({ id: held[3]!.id, result: first.params.options[2].response });
    expect((await sim.request('runtime/capabilities', {})).result).toEqual({ independentPlanState: true });
  });

  it('requestRuntimePreferences: no answer → create fails -32022 (scaled timeout); nothing registered', async () => {
    sim = await SimClient.start({ args: ['--reverse-timeout-scale', '0.01'], onReverse: () => undefined });
    const r = await sim.request('session/create', { workspace: { workspacePath: '/w', workspaceKey: '/w' } });
    expect(r.error.code).toBe(-32022);
    expect(r.error.message).toBe('Client request timed out: session/requestRuntimePreferences');
    expect(typeof r.error.data.timeoutMs).toBe('number');
    expect((await sim.call('session/list', {})).sessions).toEqual([]);
  });

  it('requestRuntimePreferences: -32601 → defaults; other error → create fails with that code and message', async () => {
    let mode: 'missing' | 'error' = 'missing';
    sim = await SimClient.start({
      onReverse: () =>
        mode === 'missing'
          ? { error: { code: -32601, message: 'Method not found' } }
          : { error: { code: -32050, message: 'host says no' } },
    });
    const ok = await sim.createSession();
    expect(ok.session.sessionId).toMatch(/^sess_/);
    mode = 'error';
    const r = await sim.request('session/create', { workspace: { workspacePath: '/w', workspaceKey: '/w' } });
    expect(r.error).toMatchObject({ code: -32050, message: 'host says no' });
  });

  it('requestRuntimePreferences: an invalid result → -32603', async () => {
    sim = await SimClient.start({ onReverse: () => ({ result: { nativeSearchEnhancementsEnabled: true, bogus: 1 } }) });
    const r = await sim.request('session/create', { workspace: { workspacePath: '/w', workspaceKey: '/w' } });
    expect(r.error.code).toBe(-32603);
  });

  it('AskUserQuestion auto-resolves (scaled 300 s) when the preference allows it', async () => {
    sim = await SimClient.start({
      args: ['--reannounce-scale', '0.001', '--turn-delay-scale', '0.2'],
      onReverse: (m) =>
        m.method === 'session/requestRuntimePreferences'
          ? { result: { nativeSearchEnhancementsEnabled: true, askUserQuestionAutoResolutionEnabled: true } }
          : undefined,
    });
    const sessionId = await sim.openSession();
    const end = await sim.prompt(sessionId, 'a question for you');
    expect(end.params.reason).toBe('prompt_completed');
    const completed = sim.events(sessionId, 'turn.completed')[0]!;
    expect(completed.payload.response).toContain('(skipped)');
    expect(sim.events(sessionId, 'session.updated').some((e) => e.payload.autoResolution?.state === 'hiddenGrace')).toBe(true);
  });

  it('v4 resolveInteraction settles a pending permission (interactionId = requestId)', async () => {
    sim = await SimClient.start({
      args: ['--turn-delay-scale', '0.2'],
      onReverse: (m) => (m.method === 'session/requestRuntimePreferences' ? { result: RECOMMENDED_PREFERENCES } : undefined),
    });
    const sessionId = await sim.openSession();
    const from = sim.messages.length;
    await sim.call('session/send', { sessionId, content: 'permission please' });
    const req = await sim.waitFor(isPerm, 10_000, 'permission', from);
    const ack = await sim.call('v4/command', {
      commandId: 'c-1',
      clientId: 't',
      sessionId,
      type: 'resolveInteraction',
      payload: { interactionId: req.params.requestId, answer: { optionId: 'deny' } },
      issuedAt: Date.now(),
    });
    expect(ack).toMatchObject({ commandId: 'c-1', status: 'accepted' });
    const resolved = await sim.waitFor(
      (m) => m.method === 'session/event' && m.params.type === 'permission.resolved',
      10_000,
      'resolved',
      from,
    );
    expect(resolved.params.payload.decision).toBe('deny');
    await sim.waitState(sessionId, 'prompt_completed', from);
    // late: still accepted
    const late = await sim.call('v4/command', {
      commandId: 'c-2',
      clientId: 't',
      sessionId,
      type: 'resolveInteraction',
      payload: { interactionId: req.params.requestId, answer: { optionId: 'allow_once' } },
      issuedAt: Date.now(),
    });
    expect(late.status).toBe('accepted');
  });
});
