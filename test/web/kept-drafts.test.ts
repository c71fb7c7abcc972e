/**
 * A prompt waiting for the link when the hub refuses this device's token (revoked): the page
 * becomes the pairing screen, and the text of what waited, and of the composer, is kept per
 * session on the device (kept-drafts.ts) — handed back once to that session's composer, never
 * sent. A real HubClient against a scripted hub on a real socket; localStorage, which Node lacks,
 * is a plain in-memory Storage as a page has.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { keptDraftCount, noteComposer, takeKeptDraft } from '../../web/src/hub/kept-drafts.js';
import { LinkGone } from '../../web/src/net/online-wait.js';
import { CLOSE } from '../../src/gateway/close-codes.js';
import { heldClient, SID, type Held } from '../helpers/held-reconnect.js';

let h: Held;

/** The Storage a page has, in memory. */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

beforeEach(async () => {
  h = await heldClient();
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
});
afterEach(async () => {
  await h.close();
});

describe('a prompt waiting when the token is refused', () => {
  it('keeps its text and the composer’s for that session, handed back once, and sends nothing', async () => {
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
    expect(keptDraftCount()).toBe(1);
    expect(takeKeptDraft(SID)).toBe('revoked meanwhile\nand a draft');
    // Once: the composer that took it holds it now.
    expect(takeKeptDraft(SID)).toBeUndefined();
    expect(keptDraftCount()).toBe(0);
    expect(h.hub.frames.filter((f) => f.method === 'session/prompt')).toEqual([]);
  });
});
