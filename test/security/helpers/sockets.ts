import net from 'node:net';
import WebSocket from 'ws';

/** A raw client socket that remembers whether the server closed it. */
export interface TrackedSocket {
  socket: net.Socket;
  closed: boolean;
  /** Everything the server sent. */
  data: string;
}

/** Opens one TCP connection (optionally from another loopback address) and tracks it; `head` is written at once. */
export function openTracked(port: number, localAddress?: string, head?: string): Promise<TrackedSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, ...(localAddress ? { localAddress } : {}) });
    const t: TrackedSocket = { socket, closed: false, data: '' };
    socket.on('data', (c: Buffer) => (t.data += c.toString('utf8')));
    socket.on('close', () => (t.closed = true));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      if (head) socket.write(head);
      resolve(t);
    });
    socket.once('error', reject);
  });
}

/** Opens `n` idle connections, a few at a time (the accept queue stays small); each writes `head` if given. */
export async function openIdle(port: number, n: number, localAddress?: string, head?: string): Promise<TrackedSocket[]> {
  const out: TrackedSocket[] = [];
  for (let i = 0; i < n; i += 50) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => openTracked(port, localAddress, head)))));
  }
  return out;
}

/**
 * Resolves true once the server closed `t`, false if it is still open after `boundMs` — a
 * generous bound on "never", not a timing assertion on the hub.
 */
export function closedWithin(t: TrackedSocket, boundMs: number): Promise<boolean> {
  if (t.closed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), boundMs);
    t.socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** One complete authenticated request on a fresh connection; resolves with its status. */
export function authedGet(port: number, path: string, token: string): Promise<number> {
  return fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });
}

/** Opens a WebSocket with a bearer token and resolves with its first message. */
export function wsFirstMessage(url: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    ws.once('message', (m: Buffer) => {
      resolve(m.toString('utf8'));
      ws.close();
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`closed ${code} before a message`)));
  });
}
