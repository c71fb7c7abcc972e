/**
 * Text that must outlive a sign-out: when the hub stops taking this device's token (revoked,
 * expired) the page becomes the pairing screen, and the prompts waiting for the link and the
 * sessions' drafts (what each prompt box held, composer-drafts.ts) would go with it. They are kept per session in this browser's localStorage (on
 * this device only, never sent anywhere) and given back to that session's composer once paired
 * again — never sent by themselves: the user presses Send. Images are not kept (too large for
 * localStorage); the text is.
 *
 * Kept text belongs to its person: each entry names the person the signed-out token was (as the
 * hub said in the handshake, never as the page says), and the first handshake after pairing again
 * drops every entry of another person — a shared tablet paired by someone else shows them nothing.
 * Nothing lingers: an entry older than WEB_LIMITS.keptDraftMs is dropped unread, and what is kept
 * is bounded (keptDraftSessions × keptDraftChars) so localStorage cannot fill.
 */
import { WEB_LIMITS } from '../limits.js';
import { store } from './app-state.js';
import { keepOnlyDraftsTypedBy, saveDraft, takeAllDrafts } from './composer-drafts.js';

const KEY = 'zcode-hub.kept-drafts';

interface Kept {
  text: string;
  /** Whose it is: the person of the token signed out. */
  person: string;
  /** When it was kept (ms since the epoch). */
  at: number;
}

/** What each session's composer holds now (PromptBox writes it as the user types). */
const composers = new Map<string, string>();

/** What `sessionId`'s box holds now; kept for the tab too, as the person the hub named (composer-drafts.ts). */
export function noteComposer(sessionId: string, text: string): void {
  if (text.trim()) composers.set(sessionId, text);
  else composers.delete(sessionId);
  const person = store.get().me?.person;
  if (person !== undefined) saveDraft(sessionId, person, text);
}

/** The box of `sessionId` is gone (the chat left): its draft stays in the tab, not in the sign-out's list. */
export function forgetComposer(sessionId: string): void {
  composers.delete(sessionId);
}

function isKept(v: unknown): v is Kept {
  if (!v || typeof v !== 'object') return false;
  const k = v as Record<string, unknown>;
  return typeof k['text'] === 'string' && typeof k['person'] === 'string' && typeof k['at'] === 'number';
}

/** The entries still current; anything else in the stored value (expired, another version's, edited by hand) is not given back. */
function read(): Record<string, Kept> {
  const now = Date.now();
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return Object.fromEntries(
      Object.entries(v && typeof v === 'object' ? v : {}).filter(
        (e): e is [string, Kept] => isKept(e[1]) && e[1].at <= now && now - e[1].at < WEB_LIMITS.keptDraftMs,
      ),
    );
  } catch {
    return {};
  }
}

/** Writes `kept` within its bounds: each text cut to keptDraftChars, the newest keptDraftSessions sessions. */
function write(kept: Record<string, Kept>): void {
  const bounded = Object.entries(kept)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, WEB_LIMITS.keptDraftSessions)
    .map(([sid, k]) => [sid, { ...k, text: k.text.slice(0, WEB_LIMITS.keptDraftChars) }] as const);
  try {
    if (bounded.length) localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(bounded)));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage blocked or full: nothing is kept, as before.
  }
}

/**
 * Keeps the home hub's waiting prompts, every draft of the tab and what the open box holds, each
 * session's joined, after what that person kept before: a draft for the person it was typed as,
 * the rest for the person the hub named. Nothing of the latter is kept when the hub never said who
 * this device is: text with no person could not be given back to the right one.
 */
export function keepDrafts(): void {
  const person = store.get().me?.person;
  const texts = new Map<string, { text: string; person: string }>();
  for (const [sessionId, d] of takeAllDrafts()) texts.set(sessionId, d);
  // The open box is the freshest (a draft is not written while the hub has not named anyone).
  if (person !== undefined) for (const [sessionId, text] of composers) texts.set(sessionId, { text, person });
  composers.clear();
  const kept = read();
  const now = Date.now();
  const add = (sessionId: string, text: string, who: string) => {
    const t = text.trim();
    if (!t) return;
    const cur = kept[sessionId];
    kept[sessionId] = { text: cur?.person === who ? `${cur.text}\n${t}` : t, person: who, at: now };
  };
  if (person !== undefined)
    for (const [sessionId, waiting] of Object.entries(store.get().waitingPrompts))
      for (const p of waiting) if (p.hubId === undefined) add(sessionId, p.text, person);
  for (const [sessionId, t] of texts) add(sessionId, t.text, t.person);
  write(kept);
}

/** The hub said who this device is now (a handshake): what another person kept is dropped, unseen. */
export function keepOnlyDraftsOf(person: string): void {
  keepOnlyDraftsTypedBy(person);
  const kept = read();
  write(Object.fromEntries(Object.entries(kept).filter(([, k]) => k.person === person)));
}

/** How many sessions have text kept (the pairing screen says so). */
export function keptDraftCount(): number {
  return Object.keys(read()).length;
}

/** The text `person` kept for a session, handed over once (its composer shows it); undefined when none of theirs. */
export function takeKeptDraft(sessionId: string, person: string): string | undefined {
  const kept = read();
  const k = kept[sessionId];
  if (k?.person !== person) return undefined;
  delete kept[sessionId];
  write(kept);
  return k.text;
}
