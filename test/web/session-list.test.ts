import { describe, expect, it } from 'vitest';
import {
  applySessionState,
  badgeOf,
  fromListEntry,
  groupByWorkspace,
  modelLabel,
  previewOf,
  workspaceName,
} from '../../web/src/hub/session-list.js';
import { insideRoots } from '../../web/src/hub/workspace-picker.js';

describe('session list', () => {
  it('reads the archive flag and the last-message preview from session/list and _zcode/session_state', () => {
    const listed = fromListEntry({
      sessionId: 's1',
      cwd: '/w',
      _meta: { zcode: { state: 'idle', archived: true, preview: { role: 'agent', text: 'Done.' } } },
    });
    expect(listed).toMatchObject({ archived: true, preview: { role: 'agent', text: 'Done.' } });
    // A live update without the fields keeps what the list said; one with them replaces it.
    const kept = applySessionState(listed, { sessionId: 's1', state: 'running' }, 1);
    expect(kept).toMatchObject({ archived: true, preview: { role: 'agent', text: 'Done.' } });
    const changed = applySessionState(
      kept,
      { sessionId: 's1', state: 'idle', archived: false, preview: { role: 'user', text: 'Next' } },
      2,
    );
    expect(changed).toMatchObject({ archived: false, preview: { role: 'user', text: 'Next' } });
    expect(previewOf({ role: 'robot', text: 'x' })).toBeUndefined();
    expect(previewOf({ role: 'user', text: '' })).toBeUndefined();
  });

  it('a typed workspace is inside the roots only below one of them', () => {
    const roots = ['/srv/projects', '/home/me/work/'];
    expect(insideRoots('/srv/projects', roots)).toBe(true);
    expect(insideRoots('/srv/projects/shop/', roots)).toBe(true);
    expect(insideRoots('/home/me/work/api', roots)).toBe(true);
    expect(insideRoots('/srv/projects-old', roots)).toBe(false);
    expect(insideRoots('/srv', roots)).toBe(false);
    expect(insideRoots('projects/shop', roots)).toBe(false);
  });

  it('reads session/list entries with _meta.zcode', () => {
    const s = fromListEntry({
      sessionId: 's1',
      cwd: '/w/app',
      title: 'T',
      updatedAt: '2026-01-01T00:00:00Z',
      _meta: { zcode: { state: 'running', model: { providerId: 'p', modelId: 'glm-5' }, clients: [{}, {}], pendingInteractions: 1 } },
    });
    expect(s).toMatchObject({
      sessionId: 's1',
      cwd: '/w/app',
      title: 'T',
      state: 'running',
      model: 'glm-5',
      clients: 2,
      pendingInteractions: 1,
    });
    expect(fromListEntry({ nope: 1 })).toBeUndefined();
    expect(modelLabel('glm-4.6')).toBe('glm-4.6');
  });

  it('badges: needs you, running, just finished (until seen), idle', () => {
    const now = 1_000_000;
    let s = applySessionState(
      undefined,
      { sessionId: 's1', cwd: '/w', state: 'running', pendingInteractions: 0, clients: 1, updatedAt: now },
      now,
    );
    expect(s && badgeOf(s, now)).toBe('running');
    s = applySessionState(s, { sessionId: 's1', state: 'awaiting_input', pendingInteractions: 1 }, now);
    expect(s && badgeOf(s, now)).toBe('needs_you');
    s = applySessionState(s, { sessionId: 's1', state: 'idle', pendingInteractions: 0 }, now + 5);
    expect(s?.finishedAt).toBe(now + 5);
    expect(s && badgeOf(s, now + 10)).toBe('finished');
    expect(s && badgeOf(s, now + 10, now + 6)).toBe('idle');
    expect(s && badgeOf(s, now + 60 * 60_000)).toBe('idle');
  });

  it('groups by workspace, sessions needing you first, then newest', () => {
    const base = { state: 'idle' as const, clients: 0, pendingInteractions: 0 };
    const g = groupByWorkspace([
      { ...base, sessionId: 'a', cwd: '/w/one', updatedAt: '2026-01-01T00:00:00Z' },
      { ...base, sessionId: 'b', cwd: '/w/one', updatedAt: '2026-01-03T00:00:00Z' },
      { ...base, sessionId: 'c', cwd: '/w/one', updatedAt: '2026-01-02T00:00:00Z', pendingInteractions: 1 },
      { ...base, sessionId: 'd', cwd: '/w/two', updatedAt: '2026-02-01T00:00:00Z' },
    ]);
    expect(g.map((x) => x.cwd)).toEqual(['/w/two', '/w/one']);
    expect(g[1]?.sessions.map((s) => s.sessionId)).toEqual(['c', 'b', 'a']);
    expect(workspaceName('/home/me/project/')).toBe('project');
    expect(workspaceName('C:\\src\\app')).toBe('app');
  });
});
