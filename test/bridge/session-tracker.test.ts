import { describe, expect, it } from 'vitest';
import { SessionTracker } from '../../src/bridge/session-tracker.js';

const update = (sessionId: string, seq: number, epoch = 'e1') => ({ sessionId, update: {}, _meta: { zcode: { seq, epoch } } });

describe('stdio bridge session tracker', () => {
  it('remembers initialize, opened sessions and their last seq, and resumes them from it', () => {
    const t = new SessionTracker();
    t.editorRequest(0, 'initialize', { protocolVersion: 1 });
    t.editorRequest(1, 'session/new', { cwd: '/w', mcpServers: [] });
    t.hubResponse(1, { sessionId: 's1', _meta: { zcode: { seq: 0, epoch: 'e1' } } });
    t.hubNotification('session/update', update('s1', 7));
    t.editorRequest(2, 'session/load', { sessionId: 's2', cwd: '/v', mcpServers: [] });
    t.hubResponse(2, { _meta: { zcode: { seq: 3, epoch: 'e1' } } });
    expect(t.initializeParams()).toEqual({ protocolVersion: 1 });
    expect(t.sessionsToResume()).toEqual([
      { sessionId: 's1', cwd: '/w', mcpServers: [], _meta: { zcode: { afterSeq: 7, epoch: 'e1' } } },
      { sessionId: 's2', cwd: '/v', mcpServers: [], _meta: { zcode: { afterSeq: 3, epoch: 'e1' } } },
    ]);
    t.editorRequest(3, 'session/close', { sessionId: 's2' });
    t.hubResponse(3, {});
    expect(t.sessionsToResume()).toHaveLength(1);
  });

  it('fails in-flight requests on a drop but keeps prompts, settling them when the turn goes idle', () => {
    const t = new SessionTracker();
    t.editorRequest(1, 'session/new', { cwd: '/w' });
    t.hubResponse(1, { sessionId: 's1', _meta: { zcode: { seq: 0, epoch: 'e1' } } });
    t.editorRequest(2, 'session/prompt', { sessionId: 's1', prompt: [] });
    t.editorRequest(3, 'session/set_mode', { sessionId: 's1', modeId: 'plan' });
    const answers = t.connectionLost();
    expect(answers).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32603, message: expect.stringContaining('interrupted') } }]);
    expect(t.hasOrphans()).toBe(true);
    t.internalRequest('b/1', 'session/resume', { sessionId: 's1', cwd: '/w' });
    t.internalResponse('b/1', { _meta: { zcode: { seq: 9, epoch: 'e1' } } }, false);
    expect(t.drainOrphanAnswers()).toEqual([]);
    t.hubNotification('_zcode/turn_state', { sessionId: 's1', state: 'idle', queue: [] });
    expect(t.drainOrphanAnswers()).toEqual([{ jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } }]);
    expect(t.hasOrphans()).toBe(false);
  });

  it('answers an orphaned prompt cancelled when the hub restarted (new epoch) and resumes without a stale seq', () => {
    const t = new SessionTracker();
    t.editorRequest(1, 'session/new', { cwd: '/w' });
    t.hubResponse(1, { sessionId: 's1', _meta: { zcode: { seq: 0, epoch: 'e1' } } });
    t.hubNotification('session/update', update('s1', 4));
    t.editorRequest(2, 'session/prompt', { sessionId: 's1', prompt: [] });
    t.connectionLost();
    t.internalRequest('b/1', 'session/resume', { sessionId: 's1', cwd: '/w' });
    t.internalResponse('b/1', { _meta: { zcode: { seq: 0, epoch: 'e2' } } }, false);
    expect(t.drainOrphanAnswers()).toEqual([{ jsonrpc: '2.0', id: 2, result: { stopReason: 'cancelled' } }]);
    expect(t.sessionsToResume()[0]).toMatchObject({ _meta: { zcode: { afterSeq: 0, epoch: 'e2' } } });
  });

  it('settles orphans whose session the state probe reports idle', () => {
    const t = new SessionTracker();
    t.editorRequest(1, 'session/new', { cwd: '/w' });
    t.hubResponse(1, { sessionId: 's1', _meta: { zcode: { seq: 0, epoch: 'e1' } } });
    t.editorRequest(2, 'session/prompt', { sessionId: 's1', prompt: [] });
    t.connectionLost();
    t.internalRequest('b/2', 'session/list', {});
    t.internalResponse('b/2', { sessions: [{ sessionId: 's1', _meta: { zcode: { state: 'idle' } } }] }, false);
    expect(t.drainOrphanAnswers()).toEqual([{ jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } }]);
  });

  it("counts the seq of the editor's own echoed prompt (_zcode/own_update) so a resume has no gap", () => {
    const t = new SessionTracker();
    t.editorRequest(1, 'session/new', { cwd: '/w' });
    t.hubResponse(1, { sessionId: 's1', _meta: { zcode: { seq: 0, epoch: 'e1' } } });
    t.hubNotification('_zcode/own_update', { sessionId: 's1', _meta: { zcode: { seq: 1, epoch: 'e1' } } });
    t.hubNotification('session/update', update('s1', 2));
    t.hubNotification('_zcode/own_update', { sessionId: 's1', _meta: { zcode: { seq: 3, epoch: 'e1' } } });
    expect(t.sessionsToResume()[0]).toMatchObject({ _meta: { zcode: { afterSeq: 3, epoch: 'e1' } } });
  });
});
