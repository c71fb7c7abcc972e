/**
 * Each session's draft, kept for the browser tab (web/src/hub/composer-drafts.ts): given back only
 * to the person who typed it, bounded in sessions and characters, gone once empty; a sign-out hands
 * every draft of the tab — also of chats no longer open — to the kept text (kept-drafts.ts) for the
 * person who typed it, leaving none in the tab; a handshake naming another person drops them.
 * sessionStorage and localStorage, which Node lacks, are plain in-memory Storages as a page has.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { draftOf, saveDraft, takeAllDrafts } from '../../web/src/hub/composer-drafts.js';
import { forgetComposer, keepDrafts, keepOnlyDraftsOf, noteComposer, takeKeptDraft } from '../../web/src/hub/kept-drafts.js';
import { WEB_LIMITS } from '../../web/src/limits.js';
import { memoryStorage } from '../helpers/memory-storage.js';

const as = (person: string | undefined) =>
  store.update((s) => ({ ...s, me: person === undefined ? undefined : { name: `${person} phone`, scope: 'operate', person } }));

beforeEach(() => {
  vi.stubGlobal('sessionStorage', memoryStorage());
  vi.stubGlobal('localStorage', memoryStorage());
  store.update((s) => ({ ...s, waitingPrompts: {} }));
  as('ann');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  as(undefined);
});

describe('a session’s draft in this tab', () => {
  it('is given back to the person who typed it, to no one else, and goes once the box is empty', () => {
    saveDraft('s1', 'ann', 'half a thought');
    expect(draftOf('s1', 'ann')).toBe('half a thought');
    expect(draftOf('s1', 'bob')).toBeUndefined();
    expect(draftOf('s2', 'ann')).toBeUndefined();
    saveDraft('s1', 'ann', '   ');
    expect(draftOf('s1', 'ann')).toBeUndefined();
    expect(sessionStorage.length).toBe(0);
  });

  it('is written as the person the hub named, and not at all before it named anyone', () => {
    noteComposer('s1', 'typed as ann');
    expect(draftOf('s1', 'ann')).toBe('typed as ann');
    as(undefined);
    noteComposer('s1', 'typed before the handshake');
    expect(draftOf('s1', 'ann')).toBe('typed as ann');
  });

  it(`keeps the newest keptDraftSessions (${WEB_LIMITS.keptDraftSessions}) sessions, each cut to keptDraftChars (${WEB_LIMITS.keptDraftChars})`, () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const long = 'y'.repeat(WEB_LIMITS.keptDraftChars + 5);
    for (let i = 0; i <= WEB_LIMITS.keptDraftSessions; i++) {
      vi.setSystemTime(1_000 + i);
      saveDraft(`s${i}`, 'ann', i === 1 ? long : `draft ${i}`);
    }
    expect(sessionStorage.length).toBe(WEB_LIMITS.keptDraftSessions);
    expect(draftOf('s0', 'ann')).toBeUndefined();
    expect(draftOf('s1', 'ann')).toBe(long.slice(0, WEB_LIMITS.keptDraftChars));
    // Typing again in a session already kept drops nothing.
    saveDraft('s2', 'ann', 'draft 2, longer');
    expect(sessionStorage.length).toBe(WEB_LIMITS.keptDraftSessions);
  });

  it('a sign-out keeps every draft of the tab for its person — a chat left too — and leaves none in the tab', () => {
    noteComposer('left', 'typed, then back to the list');
    forgetComposer('left');
    noteComposer('open', 'still in the box');
    keepDrafts();
    expect(takeAllDrafts()).toEqual([]);
    expect(takeKeptDraft('left', 'ann')).toBe('typed, then back to the list');
    expect(takeKeptDraft('open', 'ann')).toBe('still in the box');
  });

  it('a handshake naming another person drops the drafts typed as someone else, unseen', () => {
    saveDraft('s1', 'ann', 'ann’s words');
    saveDraft('s2', 'bob', 'bob’s words');
    keepOnlyDraftsOf('bob');
    expect(draftOf('s1', 'ann')).toBeUndefined();
    expect(draftOf('s2', 'bob')).toBe('bob’s words');
  });
});
