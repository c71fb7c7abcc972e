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
import { sessionWaits } from '../../web/src/hub/session-waits.js';
import type { PendingInteraction } from '../../web/src/hub/interactions.js';

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

  it('a session whose requests wait only for someone else is "waiting for …", not "Needs you"', () => {
    const now = Date.UTC(2026, 0, 1);
    const s = applySessionState(undefined, { sessionId: 's1', cwd: '/w', state: 'awaiting_input', pendingInteractions: 1 }, now);
    if (!s) throw new Error('no summary');
    const ix = (id: string, over: Partial<PendingInteraction>): PendingInteraction => ({
      interactionId: id,
      sessionId: 's1',
      kind: 'permission',
      title: 't',
      ...over,
    });
    const theirs = ix('i1', {
      createdAt: 2,
      mayAnswer: false,
      approval: { rule: { id: 'r' }, waitingFor: 'waiting for ann', quorum: 1, allowed: [], state: 'open' },
    });
    const older = ix('i0', {
      createdAt: 1,
      mayAnswer: false,
      approval: { rule: { id: 'r' }, waitingFor: 'waiting for an admin', quorum: 1, allowed: [], state: 'open' },
    });
    const elsewhere = ix('i9', { sessionId: 's2' });
    const onMachine = ix('i8', { hubId: 'other' });
    const waits = sessionWaits({ i1: theirs, i0: older, i9: elsewhere, i8: onMachine }, 's1', undefined);
    expect(waits).toEqual({ mine: 0, others: 2, waitingFor: 'waiting for an admin' });
    expect(badgeOf(s, now, 0, waits)).toBe('waiting');
    // One this device may answer (a live request, or the hub's mayAnswer absent or true) makes it need you.
    const mine = ix('i2', { rpc: { id: 3, method: 'session/request_permission', params: {} } });
    expect(badgeOf(s, now, 0, sessionWaits({ i1: theirs, i2: mine }, 's1', undefined))).toBe('needs_you');
    expect(badgeOf(s, now, 0, sessionWaits({ i1: theirs, i3: ix('i3', { mayAnswer: true }) }, 's1', undefined))).toBe('needs_you');
    // Nothing known yet (the inbox not loaded): a pending request needs you, as without rules.
    expect(badgeOf(s, now, 0, sessionWaits({}, 's1', undefined))).toBe('needs_you');
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
