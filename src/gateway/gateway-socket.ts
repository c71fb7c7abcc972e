/**
 * The part of a `ws` WebSocket a gateway connection uses. Both transports of `/acp` provide it:
 * the WebSocket itself, and `HttpSocket` (http-socket.ts) for Streamable HTTP, so one
 * `ClientConnection` — outbound budget, close codes, heartbeat, pending requests — serves both.
 */
export interface GatewaySocket {
  /** Bytes accepted by `send` and not yet handed to the kernel (the outbound budget judges them). */
  readonly bufferedAmount: number;
  readonly readyState: number;
  /** The `readyState` of a socket that is fully closed. */
  readonly CLOSED: number;
  /** The `readyState` of an open socket (frames may be written). */
  readonly OPEN: number;
  /** Queues one encoded JSON-RPC message. */
  send(data: Buffer, options: { binary: false }): void;
  /** Heartbeat probe; the socket answers with a `pong` event while its peer keeps up. */
  ping(): void;
  /** Starts an orderly close with a close code (the peer may take `wsCloseGraceMs` to finish it). */
  close(code: number, reason: string): void;
  /** Drops the peer at once. */
  terminate(): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): unknown;
  on(event: 'pong', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
}
