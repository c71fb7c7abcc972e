/**
 * A session deleted for good (`_zcode/session_deleted`, or this device's own `session/delete`):
 * it leaves the list, its chat and its interactions; a device showing one of its pages goes back
 * to the list, told why when the delete came from somewhere else.
 */
import { store, toast } from './app-state.js';
import type { HubClient } from './hub-client.js';
import { t } from '../i18n.js';

/** Leaves a page of the session if one shows (router.ts, set by main.tsx: the store layer holds no routes); true when it did. */
let leavePages: (sessionId: string) => boolean = () => false;

/** Sets how a deleted session's open page is left. */
export function setSessionPageLeaver(fn: (sessionId: string) => boolean): void {
  leavePages = fn;
}

/** Drops a deleted session from what the app shows; `by` names who deleted it elsewhere (undefined: this device). */
export function dropSession(client: HubClient, sessionId: string, elsewhere: { by: string | undefined } | undefined): void {
  client.forgetSession(sessionId);
  for (const i of Object.values(store.get().interactions)) if (i.sessionId === sessionId) client.forget(i.interactionId);
  store.update((s) => {
    const { [sessionId]: _s, ...sessions } = s.sessions;
    const { [sessionId]: _c, ...chats } = s.chats;
    const { [sessionId]: _p, ...presence } = s.presence;
    return { ...s, sessions, chats, presence };
  });
  if (leavePages(sessionId) && elsewhere)
    toast(elsewhere.by ? t('sessionDeletedBy', elsewhere.by) : t('sessionDeletedElsewhere'), `deleted:${sessionId}`);
}

/** Deletes a session for good (ACP `session/delete`, the agent's deleteSession); the hub tells every device. */
export async function deleteSession(client: HubClient, sessionId: string): Promise<void> {
  client.deletingHere.add(sessionId);
  try {
    await client.conn.call('session/delete', { sessionId });
  } finally {
    client.deletingHere.delete(sessionId);
  }
  dropSession(client, sessionId, undefined);
}
