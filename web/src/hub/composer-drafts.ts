/**
 * What each session's prompt box holds, kept for this browser tab (sessionStorage) so that a draft
 * survives leaving the chat, a reload, and a phone browser discarding the tab in the background
 * (it reloads the page when the tab comes back) — and goes with the tab. Each draft names the
 * person the hub said this device was when it was typed, and is given back only to that person;
 * a sign-out moves every draft to the kept text of kept-drafts.ts (person-scoped, in
 * localStorage), leaving none here. Bounded like kept text: at most WEB_LIMITS.keptDraftSessions
 * sessions (the newest), WEB_LIMITS.keptDraftChars characters each. Never sent by itself.
 */
import { WEB_LIMITS } from '../limits.js';

const PREFIX = 'zcode-hub.draft.';

export interface Draft {
  text: string;
  /** Whose words: the person of the token, as the hub named it. */
  person: string;
  /** When it was last typed (ms since the epoch). */
  at: number;
}

function isDraft(v: unknown): v is Draft {
  if (!v || typeof v !== 'object') return false;
  const d = v as Record<string, unknown>;
  return typeof d['text'] === 'string' && typeof d['person'] === 'string' && typeof d['at'] === 'number';
}

function readAt(key: string): Draft | undefined {
  try {
    const v: unknown = JSON.parse(sessionStorage.getItem(key) ?? 'null');
    return isDraft(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Every draft's storage key. */
function keys(): string[] {
  try {
    const out: string[] = [];
    for (let i = 0; i < sessionStorage.length; i++) {
      const k = sessionStorage.key(i);
      if (k?.startsWith(PREFIX)) out.push(k);
    }
    return out;
  } catch {
    return [];
  }
}

/** The draft of `sessionId` typed as `person`; undefined when there is none of theirs. */
export function draftOf(sessionId: string, person: string): string | undefined {
  const d = readAt(PREFIX + sessionId);
  return d?.person === person ? d.text : undefined;
}

/**
 * Keeps what `sessionId`'s box holds for `person` (empty text: the draft goes). A new session past
 * the bound drops the oldest draft; a blocked or full storage keeps nothing, as before.
 */
export function saveDraft(sessionId: string, person: string, text: string): void {
  const key = PREFIX + sessionId;
  try {
    if (!text.trim()) {
      sessionStorage.removeItem(key);
      return;
    }
    if (sessionStorage.getItem(key) === null) {
      const others = keys()
        .map((k) => [k, readAt(k)?.at ?? 0] as const)
        .sort((a, b) => a[1] - b[1]);
      for (const [k] of others.slice(0, Math.max(0, others.length - WEB_LIMITS.keptDraftSessions + 1))) sessionStorage.removeItem(k);
    }
    const draft: Draft = { text: text.slice(0, WEB_LIMITS.keptDraftChars), person, at: Date.now() };
    sessionStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage blocked or full: the box still holds the text.
  }
}

/** Every draft, by session, removed from the tab (a sign-out hands them to kept-drafts.ts). */
export function takeAllDrafts(): Array<[string, Draft]> {
  const out: Array<[string, Draft]> = [];
  for (const k of keys()) {
    const d = readAt(k);
    if (d) out.push([k.slice(PREFIX.length), d]);
    try {
      sessionStorage.removeItem(k);
    } catch {
      // Blocked: nothing was stored either.
    }
  }
  return out;
}

/** The hub named this device's person: another person's drafts in this tab go, unseen. */
export function keepOnlyDraftsTypedBy(person: string): void {
  for (const k of keys())
    if (readAt(k)?.person !== person)
      try {
        sessionStorage.removeItem(k);
      } catch {
        // Blocked: nothing was stored either.
      }
}
