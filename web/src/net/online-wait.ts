/**
 * Calls that wait for a link to come online (HubClient.whenOnline): a link that is
 * connecting — its socket opening, or its handshake (`onOpen`) still loading what the screen
 * shows — is seconds from online, and what a user sent meanwhile should go then, not be refused.
 */
import { ConnectionLost, type ConnStatus } from './rpc-errors.js';

interface Waiter {
  resolve(): void;
  reject(err: Error): void;
}

export class OnlineWait {
  private readonly waiters = new Set<Waiter>();

  /**
   * Resolves at once when `status` is online, or once the link turns online; rejects with
   * ConnectionLost when it is (or turns) anything but connecting, or when `timeoutMs` pass first.
   */
  wait(status: ConnStatus, timeoutMs: number): Promise<void> {
    if (status === 'online') return Promise.resolve();
    if (status !== 'connecting') return Promise.reject(new ConnectionLost());
    return new Promise((resolve, reject) => {
      const settle = (then: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        then();
      };
      const waiter: Waiter = { resolve: () => settle(resolve), reject: (err) => settle(() => reject(err)) };
      const timer = setTimeout(() => waiter.reject(new ConnectionLost()), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** The link's new status: online lets every waiter go on, any other end but connecting fails them. */
  statusChanged(status: ConnStatus): void {
    if (status === 'connecting') return;
    for (const w of [...this.waiters]) {
      if (status === 'online') w.resolve();
      else w.reject(new ConnectionLost());
    }
  }
}
