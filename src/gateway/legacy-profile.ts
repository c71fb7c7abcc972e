/**
 * The zcode-acp-remote compatibility profile (ARCHITECTURE.md §5.1). That app lists "instances"
 * (bridges) and connects to one with `/acp?instance=<id>&token=<t>`; this daemon is the single
 * instance, under a fixed id so the app's saved connection survives hub restarts.
 */
import type { ProfileNotice } from '../domain/delivery/client-port.js';
import { assertNever } from '../errors.js';

export { LEGACY_INSTANCE_ID } from '../compat-instance.js';

/** The wire profile a connection gets from its query: `instance=` selects `legacy`. */
export function profileFor(instance: string | undefined): 'acp' | 'legacy' {
  return instance === undefined ? 'acp' : 'legacy';
}

/**
 * The compat profile's own notifications for a domain notice (ARCHITECTURE.md §5.1): zcode-acp-remote
 * shows its running indicator from `$/zcode/turnState`. It has no handler for a settled
 * interaction (a card answered elsewhere is withdrawn with `$/cancel_request`), so that notice
 * sends it nothing.
 */
export function legacyNotice(notice: ProfileNotice): { method: string; params: Record<string, unknown> } | undefined {
  switch (notice.type) {
    case 'turn_state':
      return { method: '$/zcode/turnState', params: { sessionId: notice.sessionId, running: notice.running } };
    case 'interaction_settled':
      return undefined;
    default:
      return assertNever(notice, 'profile notice');
  }
}

/**
 * Whether zcode-acp-remote reads a notification: it handles `session/update`,
 * `$/zcode/turnState` and `$/cancel_request` and ignores the rest, so the hub's `_zcode/*`
 * extensions (turn_state, presence, session_state, own_update …) are not sent to it.
 */
export function legacyReads(method: string | undefined): boolean {
  return method === undefined || !method.startsWith('_zcode/');
}
