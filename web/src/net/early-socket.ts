/**
 * The home hub's socket, opened by the app's first and smallest script (web/src/early.ts) while
 * the app's own scripts are still downloading, with `initialize` sent the moment it opens: on a
 * slow link the TCP handshake, the upgrade and the handshake's answer then overlap the download
 * instead of following it (BENCHMARKS.md, "B-PHONE through a real round-trip proxy"). The app's
 * RpcConnection takes the socket over (`RpcConnection.adopt`) with every frame that arrived
 * meanwhile, in order. Nothing here decides anything: a refused token still ends in the app's
 * own checks, exactly as with a socket it opened itself.
 */

/** What the app takes over: the socket, the request already sent on it (if it opened), and the frames received since. */
export interface EarlySocket {
  ws: WebSocket;
  sent: { id: number; method: string } | undefined;
  received: string[];
}

/** The id of the early request: the app's own ids start at 1. */
export const EARLY_ID = 0;

let early: EarlySocket | undefined;

/** The home hub's socket address on this page's origin. */
export function homeSocketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/acp`;
}

/** Opens the socket and sends `first` once it is open; frames are kept until `takeEarlySocket`. */
export function openEarlySocket(first: { method: string; params: unknown }): void {
  if (early !== undefined || typeof WebSocket === 'undefined') return;
  const ws = new WebSocket(homeSocketUrl());
  const held: EarlySocket = { ws, sent: undefined, received: [] };
  ws.onopen = () => {
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: EARLY_ID, method: first.method, params: first.params }));
    held.sent = { id: EARLY_ID, method: first.method };
  };
  ws.onmessage = (ev: MessageEvent) => {
    if (typeof ev.data === 'string') held.received.push(ev.data);
  };
  early = held;
}

/** The early socket, once (undefined when none was opened or it was taken already). */
export function takeEarlySocket(): EarlySocket | undefined {
  const taken = early;
  early = undefined;
  return taken;
}

/**
 * Hands `queue`'s frames to `deliver` one per task, as the socket would have delivered them, so
 * what an answer's awaiter does next (applying the handshake) runs before the notifications that
 * followed it; frames pushed onto `queue` meanwhile follow in order. Stops when `deliver` answers
 * false (the socket is gone); `done` runs once the queue is empty or delivery stopped.
 */
export function handOver(queue: string[], deliver: (text: string) => boolean, done: () => void): void {
  const text = queue.shift();
  if (text === undefined || !deliver(text)) {
    done();
    return;
  }
  setTimeout(() => handOver(queue, deliver, done), 0);
}
