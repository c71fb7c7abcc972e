/**
 * Prompts sent while this device's link reconnects (prompt-send.ts): shown at once, marked as
 * waiting for the connection, and kept beside the chat rather than in it. The reconnect's
 * `session/load` rebuilds the chat — a replay that did not continue what was held starts it
 * afresh, and the attach writes the chat it built from what it held before the load — so a bubble
 * in the chat's items would be wiped, or shown twice beside the replay. Once the link is online
 * one store update moves the prompt into the chat as it is sent (addLocalPrompt), so the hub's
 * echo claims it as usual; a wait that fails just removes it (the prompt box gets its text back),
 * and so does taking it back before it went (its "Don't send").
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { blockText, imageOf } from './chat-parts.js';
import type { WaitingPrompt } from './chat-types.js';
import { type AppState, store } from './app-state.js';
import { addLocalPrompt } from './local-prompts.js';

/** What takes back each waiting prompt, by its local id (only while it waits). */
const takeBacks = new Map<string, AbortController>();

/**
 * Shows a prompt waiting for its link (`hubId`: another machine's; undefined: the home hub's),
 * after the chat's messages; the signal aborts when the user takes it back (takeBackPrompt).
 */
export function showWaitingPrompt(hubId: string | undefined, sessionId: string, localId: string, blocks: ContentBlock[]): AbortSignal {
  const takeBack = new AbortController();
  takeBacks.set(localId, takeBack);
  const prompt: WaitingPrompt = {
    localId,
    text: blocks.map(blockText).join(''),
    images: blocks.map(imageOf).filter((i): i is string => !!i),
    ...(hubId !== undefined ? { hubId } : {}),
  };
  store.update((s) => ({
    ...s,
    waitingPrompts: { ...s.waitingPrompts, [sessionId]: [...(s.waitingPrompts[sessionId] ?? []), prompt] },
  }));
  return takeBack.signal;
}

/** The user takes back a prompt still waiting: it will not go (its wait ends with TakenBack). A prompt already sent is not waiting. */
export function takeBackPrompt(localId: string): void {
  takeBacks.get(localId)?.abort();
}

/** Takes back every prompt waiting in `sessionId` on the link `hubId` (Stop pressed there). */
export function takeBackSession(hubId: string | undefined, sessionId: string): void {
  for (const p of store.get().waitingPrompts[sessionId] ?? []) if (p.hubId === hubId) takeBackPrompt(p.localId);
}

/**
 * The link is online and the prompt goes now: it leaves the waiting ones (when it was one) and
 * joins the chat as a prompt of this device, in the same update (no frame without it).
 */
export function promptJoinsChat(sessionId: string, localId: string, blocks: ContentBlock[]): void {
  takeBacks.delete(localId);
  store.update((s) => {
    const chat = s.chats[sessionId];
    return {
      ...withoutWaiting(s, sessionId, localId),
      ...(chat ? { chats: { ...s.chats, [sessionId]: addLocalPrompt(chat, localId, blocks) } } : {}),
    };
  });
}

/** The prompt was not sent: no longer shown as waiting. */
export function dropWaitingPrompt(sessionId: string, localId: string): void {
  takeBacks.delete(localId);
  store.update((s) => withoutWaiting(s, sessionId, localId));
}

/** True when a prompt sent on the link `hubId` (undefined: the home hub's) waits for it to be back. */
export function promptWaitsOn(s: Pick<AppState, 'waitingPrompts'>, hubId: string | undefined): boolean {
  return Object.values(s.waitingPrompts).some((held) => held.some((p) => p.hubId === hubId));
}

function withoutWaiting<S extends { waitingPrompts: Record<string, WaitingPrompt[]> }>(s: S, sessionId: string, localId: string): S {
  const held = s.waitingPrompts[sessionId];
  if (!held?.some((p) => p.localId === localId)) return s;
  const rest = held.filter((p) => p.localId !== localId);
  const waitingPrompts = { ...s.waitingPrompts };
  if (rest.length) waitingPrompts[sessionId] = rest;
  else delete waitingPrompts[sessionId];
  return { ...s, waitingPrompts };
}
