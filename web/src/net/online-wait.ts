/**
 * Calls that wait for a link to come online (HubClient.whenOnline). What a user sends while the
 * link is down but will be back by itself — its socket opening, its handshake (`onOpen`) still
 * loading what the screen shows, or the hub unreachable between two reconnect attempts (a daemon
 * restarting, a phone in a dead spot) — waits for it, up to a bound, rather than being refused.
 * A link that will not come back by itself (its token revoked, the hub refusing it, the link
 * closed) fails what waits at once, saying which.
 */
import { ConnectionLost, type ConnStatus } from './rpc-errors.js';

/**
 * What a link's state promises what waits on it: `online`; `coming` — connecting, or offline
 * with its reconnect loop running; or, for good until someone acts, `revoked` (the token),
 * `refused` (the hub answers but does not accept this app: its origin, another hub at that URL,
 * the upgrade refused — each needs a fix on the machine) or `closed` (stopped: signed out, the
 * machine removed, or never started).
 */
export type Outlook = 'online' | 'coming' | 'revoked' | 'refused' | 'closed';

/** The outlook of a link in `status` whose reconnect loop runs (`running`) or was stopped. */
export function outlookOf(status: ConnStatus, running: boolean): Outlook {
  if (!running) return 'closed';
  switch (status) {
    case 'online':
      return 'online';
    case 'connecting':
    case 'offline':
      return 'coming';
    case 'unauthorized':
      return 'revoked';
    case 'not_allowed':
    case 'wrong_hub':
    case 'refused':
      return 'refused';
  }
}

/** A wait ended because the link will not come back by itself; `why` says how it stands. */
export class LinkGone extends Error {
  constructor(readonly why: Exclude<Outlook, 'online' | 'coming'>) {
    super(`link ${why}`);
    this.name = 'LinkGone';
  }
}

/** The user took back what waited (the waiting prompt's "Don't send"): nothing went. */
export class TakenBack extends Error {
  constructor() {
    super('taken back');
    this.name = 'TakenBack';
  }
}

interface Waiter {
  resolve(): void;
  reject(err: Error): void;
}

export class OnlineWait {
  private readonly waiters = new Set<Waiter>();

  /**
   * Resolves at once when the link is `online`, or once it turns online; rejects with LinkGone
   * when it is (or turns) gone, with ConnectionLost when `timeoutMs` pass first, and with
   * TakenBack when `signal` aborts first.
   */
  wait(outlook: Outlook, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (outlook === 'online') return Promise.resolve();
    if (outlook !== 'coming') return Promise.reject(new LinkGone(outlook));
    if (signal?.aborted) return Promise.reject(new TakenBack());
    return new Promise((resolve, reject) => {
      const settle = (then: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', takenBack);
        this.waiters.delete(waiter);
        then();
      };
      const waiter: Waiter = { resolve: () => settle(resolve), reject: (err) => settle(() => reject(err)) };
      const takenBack = () => waiter.reject(new TakenBack());
      const timer = setTimeout(() => waiter.reject(new ConnectionLost()), timeoutMs);
      signal?.addEventListener('abort', takenBack);
      this.waiters.add(waiter);
    });
  }

  /** The link's new outlook: online lets every waiter go on, gone fails them all, coming keeps them waiting. */
  changed(outlook: Outlook): void {
    if (outlook === 'coming') return;
    for (const w of [...this.waiters]) {
      if (outlook === 'online') w.resolve();
      else w.reject(new LinkGone(outlook));
    }
  }
}
