/**
 * A session's open tool calls are bounded by the configured `openToolCallsMax`: an agent that
 * announces more than that while its turn runs makes the session forget the oldest, and when the
 * turn is then cut only the ones remembered are closed.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { connectionAuthor } from '../../src/domain/people/author.js';
import { SessionState, sessionLimits } from '../../src/domain/sessions/session-state.js';
import { LIMITS } from '../../src/limits.js';

const call = (toolCallId: string): SessionUpdate => ({ sessionUpdate: 'tool_call', toolCallId, title: toolCallId, status: 'pending' });

function session(openToolCallsMax: number): { state: SessionState; closed: string[] } {
  const closed: string[] = [];
  const state: SessionState = new SessionState('sess_open', '/work', sessionLimits({ ...LIMITS, openToolCallsMax }), 'epoch-1', {
    publish: () => undefined,
    announce: () => undefined,
    settled: () => undefined,
    toolsEnded: (close) => {
      for (const u of state.openTools.end(close)) closed.push((u as { toolCallId: string }).toolCallId);
    },
  });
  return { state, closed };
}

describe('a session over openToolCallsMax', () => {
  it(`keeps the configured bound (default ${LIMITS.openToolCallsMax}); a cut turn closes only the calls it still remembers`, () => {
    expect(sessionLimits(LIMITS).openToolsMax).toBe(LIMITS.openToolCallsMax);
    const { state, closed } = session(3);
    state.turn.start(
      connectionAuthor({ clientId: 'c-alice', identity: { tokenId: 't-alice', name: 'alice', person: 'alice', scope: 'operate' } }),
    );
    for (const id of ['t1', 't2', 't3', 't4', 't5']) state.openTools.note(call(id));
    expect(state.openTools.size).toBe(3);
    state.turn.fail({ error: { message: 'the agent went away', type: 'backend_restarting' } });
    expect(closed).toEqual(['t3', 't4', 't5']);
    expect(state.openTools.size).toBe(0);
  });
});
