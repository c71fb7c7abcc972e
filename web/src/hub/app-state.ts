/** The one state object of the app and its store. */
import { WEB_LIMITS } from '../limits.js';
import type { ConnStatus } from '../net/rpc-connection.js';
import { Store } from '../store.js';
import type { ChatState, WaitingPrompt } from './chat-types.js';
import type { PendingInteraction } from './interactions.js';
import type { SessionSummary } from './session-list.js';

export interface Toast {
  id: number;
  text: string;
  /** Groups toasts that replace each other (e.g. one interaction's "answered by"). */
  key?: string;
}
export interface PresenceClient {
  clientId: string;
  name: string;
  scope?: string;
}

/** Another machine, as the app shows it; its credential lives in IndexedDB (machines/cred-store.ts). */
export interface MachineState {
  hubId: string;
  name: string;
  url: string;
  scope: string;
  status: ConnStatus;
  /** When it went down (for "offline since …"). */
  downSince?: number;
  /** With status `refused`: what the machine said (or UPGRADE_REFUSED). */
  refusal?: string | undefined;
  defaultWorkspace?: string;
  backend?: string;
  /** This page's connection to it, as its last handshake named it (its prompts in the queue are ours). */
  clientId?: string;
}

export interface AppState {
  /** `paired` false → the pairing screen; undefined → not known yet. */
  paired?: boolean;
  conn: { status: ConnStatus; downSince?: number };
  /** Who this connection is: the token's name, person and scope, and the device name it announced (`clientInfo.name`). */
  me?: { name: string; scope: string; device?: string; tokenId?: string; person?: string; clientId?: string };
  backend?: { state: string; nextRetryMs?: number };
  /** The hub's default workspace (initialize `_meta.zcode.defaultWorkspace`) for new sessions. */
  defaultWorkspace?: string;
  sessions: Record<string, SessionSummary>;
  sessionsLoaded: boolean;
  chats: Record<string, ChatState>;
  /** Prompts sent while their link reconnects, by session: shown marked waiting, kept out of `chats` (waiting-prompts.ts). */
  waitingPrompts: Record<string, WaitingPrompt[]>;
  presence: Record<string, PresenceClient[]>;
  interactions: Record<string, PendingInteraction>;
  /** Answers given while their link reconnects, by interaction: the choice, shown on the sheet until it goes or is refused. */
  answersWaiting: Record<string, { hubId?: string; choice: string }>;
  /** Interactions the user closed without answering (dismiss is not deny, ARCHITECTURE.md §4.5). */
  dismissed: Record<string, true>;
  /** The interaction shown in the bottom sheet (picked from the inbox), if any. */
  activeInteraction?: string;
  /** When each session was last looked at (for the "just finished" badge). */
  seenAt: Record<string, number>;
  loadingEarlier: Record<string, boolean>;
  toasts: Toast[];
  /** The other machines by hubId (the home hub is not in here). */
  machines: Record<string, MachineState>;
  /** True once the stored machines have been read (deep links to them wait for it). */
  machinesLoaded?: boolean;
  /** The home hub's identity (initialize `_meta.zcode.hub`). */
  homeHub?: { hubId: string; name: string };
  /** The session list's machine filter: undefined = all, '' = the home hub, else a hubId. */
  machineFilter?: string;
}

export const store = new Store<AppState>({
  conn: { status: 'offline' },
  sessions: {},
  sessionsLoaded: false,
  chats: {},
  waitingPrompts: {},
  presence: {},
  interactions: {},
  answersWaiting: {},
  dismissed: {},
  seenAt: {},
  loadingEarlier: {},
  toasts: [],
  machines: {},
});

/** Updates one machine (no-op when it is not listed, e.g. removed meanwhile). */
export function setMachine(hubId: string, fn: (m: MachineState) => MachineState): void {
  store.update((s) => {
    const m = s.machines[hubId];
    return m ? { ...s, machines: { ...s.machines, [hubId]: fn(m) } } : s;
  });
}

let toastSeq = 1;

/** Shows a short message; a toast with the same key replaces the previous one. */
export function toast(text: string, key?: string): void {
  const id = toastSeq++;
  store.update((s) => ({
    ...s,
    toasts: [...s.toasts.filter((t) => key === undefined || t.key !== key), { id, text, ...(key ? { key } : {}) }].slice(
      -WEB_LIMITS.maxToasts,
    ),
  }));
  setTimeout(() => store.update((s) => ({ ...s, toasts: s.toasts.filter((t) => t.id !== id) })), toastLifetime(text));
}

/** How long a toast of `text` stays: long enough to read it (WEB_LIMITS.toastMs … toastMaxMs). */
export function toastLifetime(text: string): number {
  return Math.min(WEB_LIMITS.toastMaxMs, Math.max(WEB_LIMITS.toastMs, text.length * WEB_LIMITS.toastMsPerChar));
}

/** Replaces one chat through `fn` (no-op when the chat is not held). */
export function updateChat(sessionId: string, fn: (c: ChatState) => ChatState): void {
  store.update((s) => {
    const chat = s.chats[sessionId];
    if (!chat) return s;
    const next = fn(chat);
    return next === chat ? s : { ...s, chats: { ...s.chats, [sessionId]: next } };
  });
}

/**
 * This device's scope on the machine `hubId` (the home hub when undefined), as that hub said it;
 * undefined until the home hub's `initialize` answer (a machine's is kept from its pairing).
 */
export function knownScope(s: AppState, hubId: string | undefined): string | undefined {
  return hubId !== undefined ? s.machines[hubId]?.scope : s.me?.scope;
}

/**
 * Whether this device may read the workspace (files, git) on the machine `hubId`: only once that
 * hub has said so. Those reads go over REST at once, and a view device's would be refused, so
 * neither they nor the buttons that start them come before its scope is known.
 */
export function mayBrowse(s: AppState, hubId: string | undefined): boolean {
  const scope = knownScope(s, hubId);
  return scope !== undefined && scope !== 'view';
}

/** This device's scope on the machine `hubId` (the home hub when undefined); `operate` until known. */
export function scopeOn(s: AppState, hubId: string | undefined): string {
  return knownScope(s, hubId) ?? 'operate';
}

/** Pending interactions, oldest first. */
export function pendingList(s: AppState): PendingInteraction[] {
  return Object.values(s.interactions).sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
}
