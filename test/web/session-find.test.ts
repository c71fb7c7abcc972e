import { describe, expect, it } from 'vitest';
import { ageOf, lastActivity, matchesQuery } from '../../web/src/hub/session-find.js';
import type { SessionSummary } from '../../web/src/hub/session-list.js';

const s = (over: Partial<SessionSummary>): SessionSummary => ({
  sessionId: 'a',
  cwd: '/home/ann/shop',
  state: 'idle',
  clients: 0,
  pendingInteractions: 0,
  ...over,
});

describe('session search and age', () => {
  it('matches every word against title and workspace, case-insensitively', () => {
    const x = s({ title: 'Fix the Login bug' });
    expect(matchesQuery(x, '')).toBe(true);
    expect(matchesQuery(x, 'login')).toBe(true);
    expect(matchesQuery(x, 'LOGIN shop')).toBe(true);
    expect(matchesQuery(x, 'login cart')).toBe(false);
    expect(matchesQuery(s({}), 'shop')).toBe(true);
  });

  it('last activity is the later of updatedAt and the end of the last turn', () => {
    expect(lastActivity(s({ updatedAt: '2026-01-01T00:00:00Z', finishedAt: Date.parse('2026-01-02T00:00:00Z') }))).toBe(
      Date.parse('2026-01-02T00:00:00Z'),
    );
    expect(lastActivity(s({ updatedAt: 'garbage' }))).toBeUndefined();
  });

  it('ages read as now, minutes, hours, days', () => {
    const now = 10 * 86_400_000;
    expect(ageOf(now - 5_000, now)).toEqual({ n: 0, unit: 'now' });
    expect(ageOf(now - 5 * 60_000, now)).toEqual({ n: 5, unit: 'min' });
    expect(ageOf(now - 3 * 3_600_000, now)).toEqual({ n: 3, unit: 'h' });
    expect(ageOf(now - 2 * 86_400_000, now)).toEqual({ n: 2, unit: 'd' });
    expect(ageOf(now + 1000, now)).toEqual({ n: 0, unit: 'now' });
  });
});
