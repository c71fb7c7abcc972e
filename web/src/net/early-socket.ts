/**
 * The home hub's socket, opened by the app's first and smallest script (web/src/early.ts) while
 * the app's own scripts are still downloading, with the handshake's requests sent the moment it
 * opens — `initialize`, and behind it the session list and the load of the chat the address
 * shows: on a slow link the TCP handshake, the upgrade and their answers then overlap the download
 * instead of following it (BENCHMARKS.md, "B-PHONE through a real round-trip proxy"). The app's
 * RpcConnection takes the socket over (`RpcConnection.adopt`) with every frame that arrived
 * meanwhile, in order; each of its calls that asks what was asked already takes that request's
 * answer. Nothing here decides anything: a refused token still ends in the app's own checks,
 * exactly as with a socket it opened itself.
 */

/** A request sent on the early socket: its id, its method and its params as sent (JSON). */
export interface EarlyRequest {
  id: number;
  method: string;
  params: string;
}

/** What the app takes over: the socket, the requests already sent on it (once it opened), and the frames received since. */
export interface EarlySocket {
  ws: WebSocket;
  sent: EarlyRequest[];
  received: string[];
}

/** The ids of the early requests: 0, -1, -2 …; the app's own start at 1. */
const earlyId = (k: number): number => (k === 0 ? 0 : -k);

let early: EarlySocket | undefined;

/** The home hub's socket address on this page's origin. */
export function homeSocketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/acp`;
}

/**
 * Opens the socket and sends `requests` once it is open, in order, without waiting for any answer
 * (the first is `initialize`: the hub serves what follows it after it); frames are kept until
 * `takeEarlySocket`.
 */
export function openEarlySocket(requests: ReadonlyArray<{ method: string; params: unknown }>): void {
  if (early !== undefined || typeof WebSocket === 'undefined') return;
  const ws = new WebSocket(homeSocketUrl());
  const held: EarlySocket = { ws, sent: [], received: [] };
  ws.onopen = () => {
    requests.forEach(({ method, params }, k) => {
      const id = earlyId(k);
      const text = JSON.stringify(params);
      ws.send(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${text}}`);
      held.sent.push({ id, method, params: text });
    });
  };
  ws.onmessage = (ev: MessageEvent) => {
    if (typeof ev.data === 'string') held.received.push(ev.data);
  };
  early = held;
}

/**
 * The requests an adopted socket sent already (RpcConnection's first connect): each is taken, once,
 * by the first call on that socket that asks the same — method and params — which then waits for
 * its answer instead of asking again.
 */
export class SentEarly {
  constructor(
    private readonly ws: WebSocket,
    private readonly requests: EarlyRequest[],
  ) {}

  /** The id of the early request that asks exactly this on `ws`, taken; undefined when none does. */
  take(ws: WebSocket, method: string, params: unknown): number | undefined {
    if (ws !== this.ws) return undefined;
    const text = JSON.stringify(params);
    const k = this.requests.findIndex((r) => r.method === method && r.params === text);
    return k < 0 ? undefined : this.requests.splice(k, 1)[0]?.id;
  }
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
 *
 * The next task is a message on a channel of its own, not a timer: a browser makes a timer nested
 * five deep wait at least 4 ms, and a chat's load the first script asked for arrives as dozens of
 * frames (its history's updates) before the app runs.
 */
export function handOver(queue: string[], deliver: (text: string) => boolean, done: () => void): void {
  const channel = new MessageChannel();
  const step = (): void => {
    const text = queue.shift();
    if (text === undefined || !deliver(text)) {
      channel.port1.close();
      done();
      return;
    }
    channel.port2.postMessage(null);
  };
  channel.port1.onmessage = step;
  step();
}
