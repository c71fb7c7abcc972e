import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { SessionStatePublisher } from '../../src/domain/sessions/session-state-publisher.js';
import type { SessionState } from '../../src/domain/sessions/session-state.js';

interface Summary {
  sessionId: string;
  state: string;
  title: string;
}

/** The publisher keys on the session object and its id only; a bare object stands in for a live session. */
const sessionObject = (sessionId = 'a') => ({ sessionId }) as SessionState;
/** The hub's sessions as the publisher sees them. */
const listing = (...sessions: SessionState[]) => new Map(sessions.map((s) => [s.sessionId, s]));
const silent = createLogger({ level: 'silent' });
const line = (s: Summary) => `${s.sessionId}:${s.state}:${s.title}`;

afterEach(() => {
  vi.useRealTimers();
});

describe('session state publisher', () => {
  it('sends a summary to the clients and the listeners once per change, per session', () => {
    const sent: Summary[] = [];
    const heard: Summary[] = [];
    const p = new SessionStatePublisher<Summary>((s) => sent.push(s), silent, 0, new Map());
    p.onState((s) => heard.push(s));
    const a = sessionObject('a');
    const b = sessionObject('b');
    p.publish(a, { sessionId: 'a', state: 'idle', title: '' });
    p.publish(a, { sessionId: 'a', state: 'idle', title: '' });
    p.publish(b, { sessionId: 'b', state: 'idle', title: '' });
    p.publish(a, { sessionId: 'a', state: 'running', title: '' });
    p.publish(a, { sessionId: 'a', state: 'running', title: 'named' });
    p.publish(a, { sessionId: 'a', state: 'running', title: 'named' });
    expect(sent.map(line)).toEqual(['a:idle:', 'b:idle:', 'a:running:', 'a:running:named']);
    expect(heard).toEqual(sent);
  });

  it('a listener that throws is logged and the others still hear the state', () => {
    const heard: string[] = [];
    const p = new SessionStatePublisher<Summary>(() => undefined, silent, 0, new Map());
    p.onState(() => {
      throw new Error('listener broke');
    });
    p.onState((s) => heard.push(s.state));
    p.publish(sessionObject(), { sessionId: 'a', state: 'idle', title: '' });
    expect(heard).toEqual(['idle']);
  });

  it("batches the clients' copies: every change, in order, when the window closes; the listeners hear each at once", () => {
    vi.useFakeTimers();
    const sent: Summary[] = [];
    const heard: Summary[] = [];
    const a = sessionObject('a');
    const b = sessionObject('b');
    const p = new SessionStatePublisher<Summary>((s) => sent.push(s), silent, 100, listing(a, b));
    p.onState((s) => heard.push(s));
    p.publish(a, { sessionId: 'a', state: 'running', title: '' });
    p.publish(b, { sessionId: 'b', state: 'idle', title: '' });
    p.publish(a, { sessionId: 'a', state: 'running', title: '' });
    p.publish(a, { sessionId: 'a', state: 'idle', title: '' });
    expect(heard.map(line)).toEqual(['a:running:', 'b:idle:', 'a:idle:']);
    vi.advanceTimersByTime(99);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    // A turn that ran and ended inside one window still reaches the lists as both (the app stamps "just finished").
    expect(sent.map(line)).toEqual(['a:running:', 'b:idle:', 'a:idle:']);
    // The next change opens a new window.
    p.publish(b, { sessionId: 'b', state: 'running', title: '' });
    expect(sent).toHaveLength(3);
    vi.advanceTimersByTime(100);
    expect(sent.map(line).slice(3)).toEqual(['b:running:']);
  });

  it('drops the waiting copies of a session the hub no longer has, and every copy when it closes', () => {
    vi.useFakeTimers();
    const sent: Summary[] = [];
    const a = sessionObject('a');
    const b = sessionObject('b');
    const sessions = listing(a, b);
    const p = new SessionStatePublisher<Summary>((s) => sent.push(s), silent, 100, sessions);
    p.publish(a, { sessionId: 'a', state: 'running', title: '' });
    p.publish(b, { sessionId: 'b', state: 'running', title: '' });
    // Deleted, then a new session under the same id: the old object's copies are not its.
    sessions.set('a', sessionObject('a'));
    vi.advanceTimersByTime(100);
    expect(sent.map(line)).toEqual(['b:running:']);
    p.publish(b, { sessionId: 'b', state: 'idle', title: '' });
    p.close();
    vi.advanceTimersByTime(1_000);
    expect(sent.map(line)).toEqual(['b:running:']);
  });
});
