/**
 * A prompt's way into its session's FIFO (ARCHITECTURE.md §4.4). Admission awaits I/O (the child's
 * open, the workspace-root check), so two things can happen while a prompt is still on its way:
 * a later prompt of the same session arrives — it must still join after this one (InOrder) — and
 * its client sends `session/cancel`, which must cancel it too, as it cancels the client's
 * prompts already queued: a client that prompts and cancels at once never sees that prompt run.
 */
import type { ClientPort } from '../delivery/client-port.js';
import { InOrder } from './in-order.js';
import type { SessionState } from '../sessions/session-state.js';

export class PromptAdmission {
  private readonly order = new InOrder<SessionState>();
  /** Cancels per connection and session; dropped with the connection. */
  private readonly cancels = new WeakMap<ClientPort, Map<string, number>>();

  /**
   * Runs `open` after every earlier admission of the session; resolves with the session, or with
   * `undefined` when the same client cancelled the session while this prompt was being admitted.
   */
  async admit(client: ClientPort, sessionId: string, open: () => Promise<SessionState>): Promise<SessionState | undefined> {
    const before = this.cancelCount(client, sessionId);
    const session = await this.order.run(sessionId, open);
    return this.cancelCount(client, sessionId) === before ? session : undefined;
  }

  /** `session/cancel` from `client`: its prompts of this session still being admitted are cancelled. */
  cancel(client: ClientPort, sessionId: string): void {
    let counts = this.cancels.get(client);
    if (!counts) {
      counts = new Map();
      this.cancels.set(client, counts);
    }
    counts.set(sessionId, this.cancelCount(client, sessionId) + 1);
  }

  private cancelCount(client: ClientPort, sessionId: string): number {
    return this.cancels.get(client)?.get(sessionId) ?? 0;
  }
}
