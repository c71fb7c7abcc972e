/**
 * The clients attached to one session, by client id (a Map, as the rest of the domain reads it),
 * and the fan-out's view of them: the live clients as a plain list, the replaying attachments
 * apart. Every streamed update goes to every attached client; reaching each one through its Map
 * entry and its attachment, objects the cache has dropped since the last turn, cost a team's
 * stream about 1 % of the hub's CPU (BENCHMARKS.md, thirty-first section). The view is built on
 * the first update after a change (an attach, a detach, a replay's end) and read by every update
 * until the next one; building it is one walk of the Map, what every update cost before.
 */
import type { Attachment, Broadcaster } from './broadcast.js';
import type { ClientPort } from './client-port.js';

/** Who a session's updates go to. */
export interface FanOutView {
  /** Clients whose attachment is live: an update goes straight to each. */
  readonly live: readonly ClientPort[];
  /** Attachments still replaying: their updates wait in their buffers (Broadcaster.deliver). */
  readonly replaying: readonly Attachment[];
}

export class SessionAttachments extends Map<string, Attachment> {
  private view: FanOutView | undefined = undefined;

  override set(clientId: string, attachment: Attachment): this {
    this.view = undefined;
    return super.set(clientId, attachment);
  }

  override delete(clientId: string): boolean {
    this.view = undefined;
    return super.delete(clientId);
  }

  override clear(): void {
    this.view = undefined;
    super.clear();
  }

  /**
   * Ends an attachment's replay: the updates that waited go first (Broadcaster.endReplay), and
   * from then on it counts as live. The only way a replay ends, so the view never misses one.
   */
  endReplay(attachment: Attachment, broadcaster: Broadcaster): void {
    broadcaster.endReplay(attachment);
    this.view = undefined;
  }

  /** Who an update goes to now, in attach order. */
  fanOut(): FanOutView {
    return (this.view ??= this.build());
  }

  private build(): FanOutView {
    const live: ClientPort[] = [];
    const replaying: Attachment[] = [];
    for (const a of this.values()) {
      if (a.replaying) replaying.push(a);
      else live.push(a.client);
    }
    return { live, replaying };
  }
}
