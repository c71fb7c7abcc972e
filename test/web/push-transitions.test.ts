import { describe, expect, it } from 'vitest';
import { SessionTransitions } from '../../src/push/session-transitions.js';

describe('push on session state transitions', () => {
  it('notifies "needs you" once per wait and "turn finished" when a busy session goes idle', () => {
    const t = new SessionTransitions();
    expect(t.next('s', 'idle')).toBeUndefined();
    expect(t.next('s', 'running')).toBeUndefined();
    expect(t.next('s', 'awaiting_input')).toBe('needs_you');
    expect(t.next('s', 'awaiting_input')).toBeUndefined();
    expect(t.next('s', 'running')).toBeUndefined();
    expect(t.next('s', 'idle')).toBe('turn_finished');
    expect(t.next('s', 'idle')).toBeUndefined();
    expect(t.next('other', 'idle')).toBeUndefined();
  });
});
