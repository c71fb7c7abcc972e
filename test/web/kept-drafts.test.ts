/**
 * A prompt waiting for the link when the hub refuses this device's token (revoked): the page
 * becomes the pairing screen, and the text of what waited, and of the composer, is kept per
 * session on the device (kept-drafts.ts) for the person the hub said the token was — handed back
 * once to that session's composer when the hub names the same person again, dropped when it names
 * another, dropped when too old, and bounded in size; never sent. A real HubClient against a
 * scripted hub on a real socket; localStorage, which Node lacks, is a plain in-memory Storage as a
 * page has.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { keptDraftCount, noteComposer, takeKeptDraft } from '../../web/src/hub/kept-drafts.js';
import { WEB_LIMITS } from '../../web/src/limits.js';
import { LinkGone } from '../../web/src/net/online-wait.js';
import { CLOSE } from '../../src/gateway/close-codes.js';
import { heldClient, SID, type Held } from '../helpers/held-reconnect.js';
import { memoryStorage } from '../helpers/memory-storage.js';
import { until } from '../helpers/until.js';

let h: Held;

/** The hub's `initialize` answer for a token of `person`. */
const initAs = (person: string) => ({
  protocolVersion: 1,
  _meta: { zcode: { identity: { name: `${person} phone`, scope: 'operate', person, tokenId: `tok_${person}` } } },
});

/** The hub refuses the token: the socket closes with 4401 and the page is the pairing screen. */
async function revoke(): Promise<void> {
  h.hub.socket.close(CLOSE.UNAUTHENTICATED, 'unauthenticated');
  await until(() => (store.get().paired === false ? true : undefined), 'signed out');
}

/** Paired again (main.tsx reopens the socket with the new token): the hub's handshake names `person`. */
async function pairAgainAs(person: string): Promise<void> {
  const inits = h.hub.frames.filter((f) => f.method === 'initialize').length;
  h.client.conn.reconnectNow();
  h.answer(await h.hub.request('initialize', inits), initAs(person));
  await until(() => (store.get().me?.person === person ? true : undefined), `the hub naming ${person}`);
}

beforeEach(async () => {
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
  h = await heldClient(initAs('ann'));
});
afterEach(async () => {
  vi.useRealTimers();
  await h.close();
});

describe('a prompt waiting when the token is refused', () => {
  it('keeps its text and the composer’s for that session, handed back once to the same person, and sends nothing', async () => {
    await h.reconnectHeld();
    let failed: unknown;
    const sent = h.client.prompt(SID, 'revoked meanwhile', []).catch((err: unknown) => {
      failed = err;
    });
    noteComposer(SID, 'and a draft');
    expect(keptDraftCount()).toBe(0);
    h.hub.socket.close(CLOSE.UNAUTHENTICATED, 'unauthenticated');
    await sent;
    expect(failed).toBeInstanceOf(LinkGone);
    expect(store.get().paired).toBe(false);
    // Who this device was is no longer known until a handshake says it again.
    expect(store.get().me).toBeUndefined();
    expect(keptDraftCount()).toBe(1);
    await pairAgainAs('ann');
    expect(takeKeptDraft(SID, 'ann')).toBe('revoked meanwhile\nand a draft');
    // Once: the composer that took it holds it now.
    expect(takeKeptDraft(SID, 'ann')).toBeUndefined();
    expect(keptDraftCount()).toBe(0);
    expect(h.hub.frames.filter((f) => f.method === 'session/prompt')).toEqual([]);
  });

  it('is dropped, unseen, when the next pairing is another person', async () => {
    await h.reconnectHeld();
    noteComposer(SID, 'ann’s private words');
    await revoke();
    expect(keptDraftCount()).toBe(1);
    await pairAgainAs('bob');
    expect(keptDraftCount()).toBe(0);
    expect(takeKeptDraft(SID, 'bob')).toBeUndefined();
    expect(localStorage.getItem('zcode-hub.kept-drafts') ?? '').not.toContain('private words');
    // Nor does ann get it back later: it is gone from the device.
    await revoke();
    await pairAgainAs('ann');
    expect(takeKeptDraft(SID, 'ann')).toBeUndefined();
  });

  it('is not given to a person it was not kept for, even before a handshake drops it', async () => {
    await h.reconnectHeld();
    noteComposer(SID, 'ann’s words');
    await revoke();
    expect(takeKeptDraft(SID, 'bob')).toBeUndefined();
    expect(takeKeptDraft(SID, 'ann')).toBe('ann’s words');
  });
});

describe('what is kept is bounded', () => {
  it(`is dropped once older than keptDraftMs (${WEB_LIMITS.keptDraftMs} ms)`, async () => {
    await h.reconnectHeld();
    vi.useFakeTimers({ toFake: ['Date'] });
    const keptAt = Date.now();
    noteComposer(SID, 'from long ago');
    await revoke();
    vi.setSystemTime(keptAt + WEB_LIMITS.keptDraftMs - 1);
    expect(keptDraftCount()).toBe(1);
    vi.setSystemTime(keptAt + WEB_LIMITS.keptDraftMs);
    expect(keptDraftCount()).toBe(0);
    expect(takeKeptDraft(SID, 'ann')).toBeUndefined();
  });

  it(`keeps the newest keptDraftSessions (${WEB_LIMITS.keptDraftSessions}) sessions, each cut to keptDraftChars (${WEB_LIMITS.keptDraftChars})`, async () => {
    await h.reconnectHeld();
    vi.useFakeTimers({ toFake: ['Date'] });
    noteComposer('sess_oldest', 'kept first');
    await revoke();
    await pairAgainAs('ann');
    // A moment later, a second sign-out keeps one session more than the bound allows.
    vi.setSystemTime(Date.now() + 1);
    const long = 'x'.repeat(WEB_LIMITS.keptDraftChars + 1);
    for (let i = 0; i < WEB_LIMITS.keptDraftSessions; i++) noteComposer(`sess_${i}`, i === 0 ? long : `draft ${i}`);
    await revoke();
    expect(keptDraftCount()).toBe(WEB_LIMITS.keptDraftSessions);
    expect(takeKeptDraft('sess_oldest', 'ann')).toBeUndefined();
    expect(takeKeptDraft('sess_0', 'ann')).toBe(long.slice(0, WEB_LIMITS.keptDraftChars));
    expect(takeKeptDraft(`sess_${WEB_LIMITS.keptDraftSessions - 1}`, 'ann')).toBe(`draft ${WEB_LIMITS.keptDraftSessions - 1}`);
  });
});
