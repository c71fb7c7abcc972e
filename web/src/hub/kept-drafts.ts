/**
 * Text that must outlive a sign-out: when the hub stops taking this device's token (revoked,
 * expired) the page becomes the pairing screen, and the prompts waiting for the link and what the
 * composer held would go with it. They are kept per session in this browser's localStorage (on
 * this device only, never sent anywhere) and given back to that session's composer once paired
 * again — never sent by themselves: the user presses Send. Images are not kept (too large for
 * localStorage); the text is.
 */
import { store } from './app-state.js';

const KEY = 'zcode-hub.kept-drafts';

/** What each session's composer holds now (PromptBox writes it as the user types). */
const composers = new Map<string, string>();

export function noteComposer(sessionId: string, text: string): void {
  if (text.trim()) composers.set(sessionId, text);
  else composers.delete(sessionId);
}

function read(): Record<string, string> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    // Only texts: anything else in the entry (another version's, edited by hand) is not given back.
    return Object.fromEntries(
      Object.entries(v && typeof v === 'object' ? v : {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}

function write(kept: Record<string, string>): void {
  try {
    if (Object.keys(kept).length) localStorage.setItem(KEY, JSON.stringify(kept));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage blocked or full: nothing is kept, as before.
  }
}

/** Keeps the home hub's waiting prompts and every composer's text, each session's joined, after what was kept before. */
export function keepDrafts(): void {
  const kept = read();
  const add = (sessionId: string, text: string) => {
    const t = text.trim();
    if (!t) return;
    const cur = kept[sessionId];
    kept[sessionId] = cur ? `${cur}\n${t}` : t;
  };
  for (const [sessionId, waiting] of Object.entries(store.get().waitingPrompts))
    for (const p of waiting) if (p.hubId === undefined) add(sessionId, p.text);
  for (const [sessionId, text] of composers) add(sessionId, text);
  composers.clear();
  write(kept);
}

/** How many sessions have text kept (the pairing screen says so). */
export function keptDraftCount(): number {
  return Object.keys(read()).length;
}

/** The text kept for a session, handed over once (its composer shows it); undefined when none. */
export function takeKeptDraft(sessionId: string): string | undefined {
  const kept = read();
  const text = kept[sessionId];
  if (text === undefined) return undefined;
  delete kept[sessionId];
  write(kept);
  return text;
}
