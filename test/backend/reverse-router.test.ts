import { describe, expect, it, vi } from 'vitest';
import type { BackendInteractionRequest } from '../../src/ports/backend-port.js';
import { InteractionDedupe, Lru } from '../../src/backend/interaction-dedupe.js';
import { PROVIDER_HEADERS_UNAVAILABLE, ReverseRouter } from '../../src/backend/reverse-router.js';
import { quietLogger } from './helpers.js';

function router(handler?: (r: BackendInteractionRequest) => Promise<unknown>, askUserQuestionAutoResolution = false) {
  return new ReverseRouter({ epoch: 3, askUserQuestionAutoResolution, getHandler: () => handler, logger: quietLogger() });
}

const permission = (requestId: string) => ({
  requestId,
  sessionId: 'sess_1',
  toolCallId: 'call_1',
  toolName: 'Bash',
  reason: 'Run command',
  riskLevel: 'medium',
  input: { command: 'npm test' },
  options: [{ optionId: 'allow_once', kind: 'allow_once', name: 'Allow once', response: { decision: 'allow', reason: 'Approved once' } }],
});

describe('reverse-request router (APP-SERVER.md §6)', () => {
  it('answers session/requestRuntimePreferences at once from config (§6.1)', async () => {
    await expect(
      router().handle('session/requestRuntimePreferences', { sessionId: 's', scope: 'runtime-materialization' }, 'server-1'),
    ).resolves.toEqual({
      result: { nativeSearchEnhancementsEnabled: true, memoryEnabled: false, askUserQuestionAutoResolutionEnabled: false },
    });
    await expect(router(undefined, true).handle('session/requestRuntimePreferences', {}, 'server-1')).resolves.toHaveProperty(
      'result.askUserQuestionAutoResolutionEnabled',
      true,
    );
  });

  it('answers browserList with no browsers and provider headers with headersApplied:false (§6.4, §6.5)', async () => {
    await expect(router().handle('interaction/browserList', {}, 'server-2')).resolves.toEqual({ result: { browsers: [] } });
    await expect(router().handle('interaction/requestProviderRuntimeHeaders', {}, 'server-3')).resolves.toEqual({
      result: { headersApplied: false, errorMessage: PROVIDER_HEADERS_UNAVAILABLE },
    });
  });

  it('answers -32601 "Method not found" for anything unhandled (§1.7 rule 1, §6.6)', async () => {
    for (const m of ['automation/list', 'interaction/browserExecute', 'subagents/readRuntimeConfig', 'made/up']) {
      await expect(router().handle(m, {}, 'server-9')).resolves.toEqual({ error: { code: -32601, message: 'Method not found' } });
    }
  });

  it('passes interaction requests to the handler with requestId, sessionId and epoch', async () => {
    const handler = vi.fn(async () => ({ decision: 'allow', reason: 'Approved once' }));
    const params = permission('perm_1');
    await expect(router(handler).handle('interaction/requestPermission', params, 'server-4')).resolves.toEqual({
      result: { decision: 'allow', reason: 'Approved once' },
    });
    expect(handler).toHaveBeenCalledWith({
      method: 'interaction/requestPermission',
      params,
      requestId: 'perm_1',
      sessionId: 'sess_1',
      epoch: 3,
    });
  });

  it('[CHD-07] re-announcements share one handler call; every id is answered once it settles; later ones at once with the same answer', async () => {
    let release!: (v: unknown) => void;
    const handler = vi.fn(() => new Promise<unknown>((r) => (release = r)));
    const r = router(handler);
    const answers = ['server-1', 'server-2', 'server-3'].map((id) =>
      r.handle('interaction/requestUserInput', { requestId: 'q1', sessionId: 's' }, id),
    );
    await Promise.resolve();
    expect(handler).toHaveBeenCalledTimes(1);
    expect(r.dedupe.inflightCount).toBe(1);
    const answer = { action: 'accept', content: { answers: { 'Which?': 'A' } } };
    release(answer);
    expect(await Promise.all(answers)).toEqual([{ result: answer }, { result: answer }, { result: answer }]);
    await expect(r.handle('interaction/requestUserInput', { requestId: 'q1', sessionId: 's' }, 'server-7')).resolves.toEqual({
      result: answer,
    });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(r.dedupe.inflightCount).toBe(0);
  });

  it('answers an error with a non-empty message when the handler rejects or there is none', async () => {
    const rejecting = router(() => Promise.reject(new Error('no answer policy for this session')));
    await expect(rejecting.handle('interaction/requestPermission', permission('p2'), 'server-1')).resolves.toEqual({
      error: { code: -32603, message: 'no answer policy for this session' },
    });
    const blank = router(() => Promise.reject(new Error('')));
    const out = await blank.handle('interaction/requestPermission', permission('p3'), 'server-1');
    expect('error' in out && out.error.message.trim().length > 0).toBe(true);
    const none = await router().handle('interaction/requestPermission', permission('p4'), 'server-1');
    expect(none).toMatchObject({ error: { code: -32603 } });
    const undef = await router(async () => undefined).handle('interaction/requestPermission', permission('p5'), 'server-1');
    expect(undef).toMatchObject({ error: { code: -32603 } });
  });

  it('answers -32602 for an interaction without requestId/sessionId', async () => {
    await expect(router(async () => ({})).handle('interaction/requestPermission', { sessionId: 's' }, 'server-1')).resolves.toMatchObject({
      error: { code: -32602 },
    });
  });
});

describe('interaction de-duplication bounds', () => {
  it('keeps at most N settled answers (LRU)', async () => {
    const d = new InteractionDedupe(2, 10);
    for (const id of ['a', 'b', 'c']) await d.run(id, async () => ({ result: id })).outcome;
    expect(d.settledCount).toBe(2);
    const again = d.run('a', async () => ({ result: 'a2' }));
    expect(again.first).toBe(true); // 'a' was evicted
    const cached = d.run('c', async () => ({ result: 'c2' }));
    expect(cached.first).toBe(false);
    await expect(cached.outcome).resolves.toEqual({ result: 'c' });
  });

  it('refuses more in-flight interactions than its bound with an error answer', async () => {
    const d = new InteractionDedupe(10, 1);
    d.run('a', () => new Promise(() => undefined));
    await expect(d.run('b', async () => ({ result: 1 })).outcome).resolves.toMatchObject({ error: { code: -32603 } });
  });

  it('Lru refreshes on get', () => {
    const l = new Lru<string, number>(2);
    l.set('a', 1);
    l.set('b', 2);
    l.get('a');
    l.set('c', 3);
    expect(l.get('b')).toBeUndefined();
    expect(l.get('a')).toBe(1);
  });
});
