/**
 * Calls to another machine's hub from the home origin: every request carries
 * `Authorization: DPoP <token>` and a fresh proof signed with that machine's key (RFC 9449).
 * Cross-origin, without cookies (`credentials: 'omit'`). The WebSocket cannot carry headers, so
 * it opens with a single-use ticket from `POST /api/ws-ticket`.
 */
import { readResponse, RestError, type ApiFn } from '../net/rest.js';
import { rec, str } from '../wire.js';
import { createProof } from './dpop.js';

/** What a signed call needs of a machine. */
export interface Signer {
  url: string;
  token: string;
  keys: CryptoKeyPair;
}

/** The machine could not be reached at all (network error, CORS refusal, DNS …). */
export class Unreachable extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'unreachable');
    this.name = 'Unreachable';
  }
}

async function send(m: Signer, path: string, init: Parameters<ApiFn>[1] = {}): Promise<Response> {
  const url = `${m.url}/api${path}`;
  const method = init.method ?? 'GET';
  const proof = await createProof(m.keys, { method, url, token: m.token });
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers, authorization: `DPoP ${m.token}`, dpop: proof };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(url, {
      method,
      headers,
      credentials: 'omit',
      mode: 'cors',
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  } catch (err) {
    throw new Unreachable(err);
  }
}

/** An `api`-shaped function for one machine: `/api<path>` with DPoP; throws RestError or Unreachable. */
export function machineApi(m: Signer): ApiFn {
  return async (path, init = {}) => {
    return readResponse(await send(m, path, init));
  };
}

/** A raw signed GET of `/api<path>` (file bodies, which are not JSON). */
export function machineGet(m: Signer): (path: string) => Promise<Response> {
  return async (path) => {
    return send(m, path);
  };
}

/** A machine's socket address for one connect, and whether its hub said (in the ticket's answer) that it pipelines. */
export interface SocketTicket {
  url: string;
  pipelining: boolean;
}

/** `ws(s)://<machine>/acp?ticket=…` with a fresh single-use ticket (an older hub's answer says nothing of pipelining: false). */
export async function ticketUrl(m: Signer): Promise<SocketTicket> {
  const { body } = await machineApi(m)('/ws-ticket', { method: 'POST', body: {} });
  const ticket = str(rec(body)?.['ticket']);
  if (!ticket) throw new RestError(502, 'HUB_ERR_BAD_TICKET', 'no ticket in the answer', body);
  return {
    url: `${m.url.replace(/^http/, 'ws')}/acp?ticket=${encodeURIComponent(ticket)}`,
    pipelining: rec(body)?.['pipelining'] === true,
  };
}
