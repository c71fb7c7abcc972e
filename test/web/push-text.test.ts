import { describe, expect, it } from 'vitest';
import type { InteractionView } from '../../src/domain/interactions/interactions.js';
import { pushContent, waitingLine } from '../../src/push/push-text.js';

const base = { sessionId: 's 1', createdAt: 1, state: 'pending' as const };

describe('push notification content', () => {
  it('"needs you" names the session and what waits, and links to that sheet', () => {
    const perm: InteractionView = { ...base, interactionId: 'int/1', kind: 'permission', title: 'Bash `npm test`' };
    const c = pushContent('needs_you', 's 1', 'Fix the login bug', perm);
    expect(c).toEqual({
      title: 'Needs you · Fix the login bug',
      body: 'Allow Bash `npm test`?',
      url: '/s/s%201?answer=int%2F1',
      tag: 'session:s 1',
      requireInteraction: true,
    });
  });

  it('questions and plans say what they ask; long text is cut', () => {
    const q: InteractionView = {
      ...base,
      interactionId: 'q',
      kind: 'question',
      title: 'Questions',
      questions: [
        { question: 'Which package manager?', header: 'Tooling', options: [], multiSelect: false },
        { question: 'Which checks?', header: 'Checks', options: [], multiSelect: true },
      ],
    };
    expect(waitingLine(q)).toBe('Which package manager? (+1 more)');
    const plan: InteractionView = {
      ...base,
      interactionId: 'p',
      kind: 'plan_approval',
      title: 'Plan',
      plan: '# Plan\n\n1. Read the code\n2. Fix it',
    };
    expect(waitingLine(plan)).toBe('Approve the plan? 1. Read the code');
    const long = pushContent('needs_you', 's', 'x'.repeat(300)).title;
    expect(long.length).toBeLessThanOrEqual('Needs you · '.length + 140);
    expect(long.endsWith('…')).toBe(true);
  });

  it('"done" reads differently, opens the chat and replaces the same session’s "needs you"', () => {
    const done = pushContent('turn_finished', 's1', 'Fix the login bug');
    const needs = pushContent('needs_you', 's1', 'Fix the login bug');
    expect(done.title).toBe('Done · Fix the login bug');
    expect(done.requireInteraction).toBe(false);
    expect(done.url).toBe('/s/s1');
    expect(needs.body).toBe('The agent is waiting for your answer.');
    expect(done.tag).toBe(needs.tag);
    expect(done.title).not.toBe(needs.title);
  });

  it('a hub that names itself links the app’s deep link to its machine', () => {
    const perm: InteractionView = { ...base, interactionId: 'int/1', kind: 'permission', title: 'Bash' };
    const machine = { hubId: '0f8b2c1e-3d4a-4b5c-8d6e-7f8091a2b3c4', name: 'desktop' };
    expect(pushContent('needs_you', 's 1', 'Fix', perm, machine).url).toBe(`/m/${machine.hubId}/s/s%201?answer=int%2F1`);
    expect(pushContent('turn_finished', 's1', 'Fix', undefined, machine).url).toBe(`/m/${machine.hubId}/s/s1`);
  });
});
