/**
 * Broadcast (ARCHITECTURE.md §4.3): one event is serialized and UTF-8-encoded once and the same
 * {@link Frame} goes to every attached client. Replay and live never interleave for one client: while a client replays,
 * live frames for it wait in its own buffer and follow the replay (§4.2).
 */
import type { NotificationParams } from '../../zcode-ext/schemas.js';
import type { ClientPort } from './client-port.js';
import { Frame } from './frame.js';
import { HUB_ERRORS } from '../../errors.js';

/** Counters for FAN-03 (serializations, not sends) and /metrics. */
export interface BroadcastStats {
  serializations: number;
  framesSent: number;
  bytesSent: number;
}

/** One client attached to one session. */
/** Multi-client draft roles (ACP RFD "Multi-Client Session Attach"): controller = operate, observer = view. */
export type AttachRole = 'controller' | 'observer';

export interface Attachment {
  client: ClientPort;
  sessionId: string;
  /** Asked for at attach; `observer` caps an operate token to reading this session. Unset: by scope. */
  role?: AttachRole;
  /** True while a replay is being sent; live frames are buffered meanwhile. */
  replaying: boolean;
  buffer: Frame[];
  /** Set when live frames overflowed the buffer during a replay: the client must resume instead. */
  overflowed?: boolean;
  attachedAt: number;
}

/** Serializes and sends frames, counting both. */
export class Broadcaster {
  readonly stats: BroadcastStats = { serializations: 0, framesSent: 0, bytesSent: 0 };

  /** @param maxReplayBuffer frames buffered per replaying client (LIMITS.journalMaxUpdates). */
  constructor(private readonly maxReplayBuffer: number) {}

  /** JSON-RPC notification → encoded frame, counted once however many clients receive it. */
  serialize<M extends string>(method: M, params: NotificationParams<M>): Frame {
    this.stats.serializations += 1;
    const kind =
      method === 'session/update' ? (params as { update?: { sessionUpdate?: unknown } } | null)?.update?.sessionUpdate : undefined;
    return new Frame(JSON.stringify({ jsonrpc: '2.0', method, params }), method, typeof kind === 'string' ? kind : undefined);
  }

  /** Sends a frame to one client now (no replay buffering: connection-level notifications). */
  sendNow(client: ClientPort, frame: Frame): void {
    if (!client.open) return;
    try {
      client.sendFrame(frame);
    } catch {
      // One client failing to take a frame must not stop the fan-out to the others: it is closed.
      try {
        client.close(1011, 'send failed');
      } catch {
        // Already gone.
      }
      return;
    }
    this.stats.framesSent += 1;
    this.stats.bytesSent += frame.bytes.length;
  }

  /** Sends a session frame to one attachment, or buffers it while the attachment replays. */
  deliver(attachment: Attachment, frame: Frame): void {
    if (attachment.replaying) {
      // The buffer only grows while a history request to the child is in flight (bounded by its timeout).
      if (attachment.buffer.length < this.maxReplayBuffer) attachment.buffer.push(frame);
      else attachment.overflowed = true;
      return;
    }
    this.sendNow(attachment.client, frame);
  }

  /** Ends a replay: flushes what arrived meanwhile, in order, then goes live. */
  endReplay(attachment: Attachment): void {
    const pending = attachment.buffer;
    attachment.buffer = [];
    attachment.replaying = false;
    if (attachment.overflowed) {
      // Never a silent gap: a client that fell this far behind is closed like a slow consumer
      // and resumes from its last seq (ARCHITECTURE.md §4.3).
      attachment.client.close(HUB_ERRORS.HUB_ERR_SLOW_CONSUMER.close, 'fell behind during replay');
      return;
    }
    for (const frame of pending) this.sendNow(attachment.client, frame);
  }
}
