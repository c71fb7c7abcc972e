import fs from 'node:fs';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HubError } from '../../errors.js';
import { closeConnectionAfter } from '../connection-close.js';
import { transportSocket } from '../protocol-switch.js';

/**
 * Bounds on HTTP connections that *have* authenticated (connection-caps.ts bounds the others,
 * the gateway bounds WebSockets): a kept-alive connection counts for the token of the last
 * request that authenticated on it, until it closes. One device token may hold `perToken`; all
 * tokens together `total`, of which `adminReserve` only the admin token may take, so an admin
 * still gets in when devices filled the rest. Over a cap the *new* connection is refused (429
 * for a token, 503 for the hub) and closed after the answer: the caller's others keep working.
 */
export interface AuthConnectionCaps {
  perToken: number;
  total: number;
  adminReserve: number;
}

/** Which cap refused a connection (the metric's label). */
export type AuthConnectionLimit = 'authConnectionsPerToken' | 'authConnectionsTotal';

/** Descriptors kept for everything that is not an authenticated connection: files, the child's pipes, listeners. */
const DESCRIPTOR_MARGIN = 256;

/** The soft limit on open files of this process (Linux `/proc/self/limits`), when it can be read. */
export function openFileLimit(read: () => string = () => fs.readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(read());
    return m?.[1] === undefined || m[1] === 'unlimited' ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/** `total`, lowered so it, the other sockets (`otherSockets`: WebSockets, unauthenticated) and a margin fit under the process limit. */
export function effectiveTotal(total: number, otherSockets: number, fileLimit: number | undefined): number {
  if (fileLimit === undefined) return total;
  return Math.max(1, Math.min(total, fileLimit - otherSockets - DESCRIPTOR_MARGIN));
}

/** An upgrade request: its socket leaves HTTP for good, and the gateway's WebSocket caps count it. */
function isUpgrade(headers: { upgrade?: string | undefined; connection?: string | undefined }): boolean {
  return headers.upgrade !== undefined && /(^|,)\s*upgrade\s*(,|$)/i.test(headers.connection ?? '');
}

export function installAuthConnectionCaps(
  app: FastifyInstance,
  caps: AuthConnectionCaps,
  onRefused: (limit: AuthConnectionLimit) => void = () => undefined,
): void {
  const tokenOf = new WeakMap<Socket, string>();
  const watched = new WeakSet<Socket>();
  const perToken = new Map<string, number>();
  let count = 0;

  const release = (socket: Socket): void => {
    const tokenId = tokenOf.get(socket);
    if (tokenId === undefined) return;
    tokenOf.delete(socket);
    count -= 1;
    const left = (perToken.get(tokenId) ?? 1) - 1;
    if (left > 0) perToken.set(tokenId, left);
    else perToken.delete(tokenId);
  };

  // After the auth hook (onRequest); WebSocket upgrades pass here too.
  app.addHook('preValidation', async (req, reply) => {
    const identity = req.identity;
    if (!identity || isUpgrade(req.headers)) return;
    // An HTTP/2 connection counts once, whatever number of streams it carries.
    const socket = transportSocket(req.raw);
    // Only a connection holds a descriptor: a request made in-process (fastify's inject(), tests
    // only) has a stand-in socket that never closes, so counting it would never be undone.
    if (!(socket instanceof Socket)) return;
    const held = tokenOf.get(socket);
    if (held === identity.tokenId) return;
    // A kept-alive connection reused by another token moves to that token.
    if (held !== undefined) release(socket);
    const admin = identity.scope === 'admin';
    const refuse = (limit: AuthConnectionLimit, error: HubError): never => {
      onRefused(limit);
      closeConnectionAfter(req, reply);
      throw error;
    };
    if (count >= (admin ? caps.total : caps.total - caps.adminReserve))
      refuse('authConnectionsTotal', new HubError('HUB_ERR_CONNECTIONS_FULL', undefined, { limit: 'authConnectionsTotal' }));
    if (!admin && (perToken.get(identity.tokenId) ?? 0) >= caps.perToken)
      refuse(
        'authConnectionsPerToken',
        new HubError('HUB_ERR_TOO_MANY_CONNECTIONS', undefined, { limit: 'authConnectionsPerToken', max: caps.perToken }),
      );
    tokenOf.set(socket, identity.tokenId);
    perToken.set(identity.tokenId, (perToken.get(identity.tokenId) ?? 0) + 1);
    count += 1;
    if (!watched.has(socket)) {
      watched.add(socket);
      socket.once('close', () => release(socket));
    }
  });
}
