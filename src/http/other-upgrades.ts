import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

/**
 * Upgrades the hub does not take are ignored, as RFC 9110 §7.8 lets a server do: the request is
 * answered over HTTP/1.1 like any other. `curl --http2` on a plain address, for one, sends
 * `Upgrade: h2c` with `HTTP2-Settings` on every request.
 *
 * Node 20 has no `shouldUpgradeCallback`: a request with an `Upgrade` header leaves the HTTP
 * parser and is emitted as `'upgrade'`, never as `'request'`, so fastify would never see it
 * (the ws server answers 400 "Invalid Upgrade header", and a `POST` body already read is lost).
 * This wraps `server.emit`: an `'upgrade'` whose protocol is not `websocket` has its head rebuilt
 * without the upgrade headers, put back in front of the bytes still unread (`head` and the socket),
 * and the socket is handed to node's HTTP parser again as a fresh connection (`'connection'`, or
 * `'secureConnection'` for TLS). The parser then reads a plain request.
 *
 * A socket handed back is marked (`isRedispatched`) so the connection bookkeeping that listens to
 * `'connection'` (caps, pre-auth deadline) counts it once, not twice.
 */

const redispatched = new WeakSet<Socket>();

/** True when `socket` was handed back to the HTTP parser after an ignored upgrade (already counted). */
export function isRedispatched(socket: Socket): boolean {
  return redispatched.has(socket);
}

/** Headers that only mean something to the upgrade the hub is not taking. */
const UPGRADE_ONLY = new Set(['upgrade', 'http2-settings']);

/** True when the upgrade asks for WebSocket (the only protocol the hub upgrades to). */
export function isWebSocketUpgrade(upgrade: string | undefined): boolean {
  return (
    upgrade
      ?.split(',')
      .map((p) => p.trim().toLowerCase())
      .includes('websocket') ?? false
  );
}

/**
 * The request head as the client sent it, less the upgrade: `Upgrade` and `HTTP2-Settings` go,
 * and `Connection` loses the tokens that named them (and goes when none is left).
 */
export function plainRequestHead(req: Pick<IncomingMessage, 'method' | 'url' | 'httpVersion' | 'rawHeaders'>): string {
  const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}`];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    let value = raw[i + 1] as string;
    const lower = name.toLowerCase();
    if (UPGRADE_ONLY.has(lower)) continue;
    if (lower === 'connection') {
      value = value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '' && t.toLowerCase() !== 'upgrade' && !UPGRADE_ONLY.has(t.toLowerCase()))
        .join(', ');
      if (value === '') continue;
    }
    lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Installs the wrapper on the HTTP(S) `server`; it runs before every `'upgrade'` listener, whenever they were added. */
export function ignoreOtherUpgrades(server: EventEmitter): void {
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event !== 'upgrade') return emit(event, ...args);
    const [req, socket, head] = args as [IncomingMessage, Socket, Buffer];
    if (isWebSocketUpgrade(req.headers.upgrade)) return emit(event, ...args);
    redispatched.add(socket);
    socket.unshift(Buffer.concat([Buffer.from(plainRequestHead(req), 'latin1'), head]));
    return emit(socket instanceof TLSSocket ? 'secureConnection' : 'connection', socket);
  }) as typeof server.emit;
}
