/**
 * A transport that tells observers what passes through another one (the wire recorder, the
 * doctor probe's reverse-request check): `out` after each message is queued for the child,
 * `in` before each message of the child is handed on, `exit` when it ends. Everything else is
 * the inner transport's.
 */
import type { IncomingMessage, OutgoingMessage } from './envelope.js';
import type { LinkTransport } from './link-options.js';
import type { TransportCloseInfo } from './transport.js';

export interface TransportObserver {
  out?: (message: OutgoingMessage) => void;
  in?: (message: IncomingMessage) => void;
  exit?: (info: TransportCloseInfo) => void;
}

/** What BackendLinkOptions.wireRecorder and createBackend's `taps` take: wraps each child's transport. */
export interface TransportTap {
  wrap(transport: LinkTransport): LinkTransport;
  close(): void;
}

/** Several taps as one (the first wraps outermost). */
export function composeTaps(taps: readonly TransportTap[]): TransportTap | undefined {
  if (taps.length === 0) return undefined;
  return {
    wrap: (t) => taps.reduceRight((inner, tap) => tap.wrap(inner), t),
    close: () => {
      for (const tap of taps) tap.close();
    },
  };
}

/** `inner`, observed. */
export class TappedTransport implements LinkTransport {
  onmessage?: LinkTransport['onmessage'];
  onclose?: LinkTransport['onclose'];
  onerror?: LinkTransport['onerror'];
  onoversize?: LinkTransport['onoversize'];

  constructor(
    private readonly inner: LinkTransport,
    private readonly observer: TransportObserver,
  ) {
    inner.onmessage = (message, receivedAt) => {
      observer.in?.(message);
      this.onmessage?.(message, receivedAt);
    };
    inner.onclose = (info) => {
      observer.exit?.(info);
      this.onclose?.(info);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onoversize = (info) => this.onoversize?.(info);
  }

  get pid(): number | undefined {
    return this.inner.pid;
  }

  get queuedBytes(): number | undefined {
    return this.inner.queuedBytes;
  }

  get junkLines(): number | undefined {
    return this.inner.junkLines;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: OutgoingMessage, method: string): void {
    this.inner.send(message, method);
    this.observer.out?.(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  abort(reason: string): void {
    this.inner.abort(reason);
  }
}
