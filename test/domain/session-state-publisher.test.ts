import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { SessionStatePublisher } from '../../src/domain/sessions/session-state-publisher.js';
import type { SessionState } from '../../src/domain/sessions/session-state.js';

interface Summary {
  sessionId: string;
  state: string;
  title: string;
}

/** The publisher keys on the session object only; a bare object stands in for a live session. */
const sessionObject = () => ({}) as SessionState;

describe('session state publisher', () => {
  it('sends a summary to the clients and the listeners once per change, per session', () => {
    const sent: Summary[] = [];
    const heard: Summary[] = [];
    const p = new SessionStatePublisher<Summary>((s) => sent.push(s), createLogger({ level: 'silent' }));
    p.onState((s) => heard.push(s));
    const a = sessionObject();
    const b = sessionObject();
    p.publish(a, { sessionId: 'a', state: 'idle', title: '' });
    p.publish(a, { sessionId: 'a', state: 'idle', title: '' });
    p.publish(b, { sessionId: 'b', state: 'idle', title: '' });
    p.publish(a, { sessionId: 'a', state: 'running', title: '' });
    p.publish(a, { sessionId: 'a', state: 'running', title: 'named' });
    p.publish(a, { sessionId: 'a', state: 'running', title: 'named' });
    const seen = sent.map((s) => `${s.sessionId}:${s.state}:${s.title}`);
    expect(seen).toEqual(['a:idle:', 'b:idle:', 'a:running:', 'a:running:named']);
    expect(heard).toEqual(sent);
  });

  it('a listener that throws is logged and the others still hear the state', () => {
    const heard: string[] = [];
    const p = new SessionStatePublisher<Summary>(() => undefined, createLogger({ level: 'silent' }));
    p.onState(() => {
      throw new Error('listener broke');
    });
    p.onState((s) => heard.push(s.state));
    p.publish(sessionObject(), { sessionId: 'a', state: 'idle', title: '' });
    expect(heard).toEqual(['idle']);
  });
});
