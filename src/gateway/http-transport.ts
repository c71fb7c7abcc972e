/**
 * Streamable HTTP on `/acp` (ACP RFD "Streamable HTTP & WebSocket"): `POST` carries client
 * messages (202; `initialize` answers 200 with `Acp-Connection-Id`), `GET` with
 * `Accept: text/event-stream` opens the connection's server → client stream, `DELETE` ends the
 * connection. Each connection is an {@link HttpSocket} taken over by the same `GatewayServer`
 * as a WebSocket: same caps, scopes, budgets, heartbeat, revocation and replay contract.
 * Every request passes the app's Host → Origin → auth hooks, and a connection id is only found
 * for the token that opened it (an id is not a credential).
 */
import { isLocalPeer } from '../policy/local-peer.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Identity } from '../auth/identity.js';
import type { HubConfig } from '../config/schema.js';
import { HubError } from '../errors.js';
import type { ClientConnection } from './client-connection.js';
import { CLOSE } from './close-codes.js';
import type { GatewayServer } from './gateway-server.js';
import { HttpSocket } from './http-socket.js';

export const HEADER_CONNECTION_ID = 'acp-connection-id';
export const HEADER_SESSION_ID = 'acp-session-id';

interface Entry {
  socket: HttpSocket;
  conn: ClientConnection;
}

type Body = Record<string, unknown>;

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function isJson(req: FastifyRequest): boolean {
  return (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/** The live Streamable HTTP connections, by `Acp-Connection-Id`. */
export class HttpConnections {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly gateway: GatewayServer,
    private readonly limits: HubConfig['limits'],
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The connection `id` of this caller's token; 400 without an id, 404 for any other. */
  find(req: FastifyRequest): Entry {
    const id = header(req, HEADER_CONNECTION_ID);
    if (!id) throw new HubError('HUB_ERR_BAD_REQUEST', 'Missing Acp-Connection-Id (POST initialize first)');
    const entry = this.entries.get(id);
    if (!entry?.conn.open || entry.conn.identity.tokenId !== req.identity?.tokenId)
      throw new HubError('HUB_ERR_NOT_FOUND', 'Unknown Acp-Connection-Id');
    // Bound to the app origin it was opened from, so removing that peer finds it (peers remove).
    if (!this.gateway.bindOrigin(entry.conn, header(req, 'origin'))) throw new HubError('HUB_ERR_NOT_FOUND', 'Unknown Acp-Connection-Id');
    return entry;
  }

  /** `POST /acp` without a connection: a new connection answered with its initialize result. */
  async initialize(identity: Identity, text: string, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const refused = this.gateway.admissionError(identity);
    if (refused) throw refused;
    const socket = new HttpSocket((s) => this.entries.delete(s.connectionId));
    const local = isLocalPeer(req.raw.socket.remoteAddress, req.headers);
    const conn = this.gateway.accept(socket, identity, 'acp', undefined, header(req, 'origin'), local, socket.connectionId);
    if (!conn) throw new HubError('HUB_ERR_LIMIT', 'Too many open connections');
    this.entries.set(socket.connectionId, { socket, conn });
    // A client that gives up before the answer leaves no half-open connection behind.
    const abandon = (): void => {
      if (!reply.sent) conn.close(CLOSE.NORMAL, 'initialize abandoned');
    };
    req.raw.once('close', abandon);
    const answer = await socket.initialize(text);
    req.raw.off('close', abandon);
    if (!conn.initialized) {
      // An initialize the hub refused (bad params): the answer, and no connection.
      conn.close(CLOSE.NORMAL, 'initialize failed');
      return reply.code(400).type('application/json').send(answer);
    }
    return reply.code(200).header('Acp-Connection-Id', socket.connectionId).type('application/json').send(answer);
  }

  /** `GET /acp` (not an upgrade): the event stream of a connection, or a session's keep-alive stream. */
  openStream(req: FastifyRequest, reply: FastifyReply): void {
    if (!(req.headers.accept ?? '').toLowerCase().includes('text/event-stream')) throw new HubError('HUB_ERR_NOT_ACCEPTABLE');
    const { socket } = this.find(req);
    const sessionId = header(req, HEADER_SESSION_ID);
    if (sessionId !== undefined && sessionId.length > 256) throw new HubError('HUB_ERR_BAD_REQUEST', 'Acp-Session-Id is too long');
    if (sessionId !== undefined && socket.sessionStreamCount >= this.limits.httpSessionStreamsPerConnection) {
      throw new HubError('HUB_ERR_LIMIT', 'Too many session streams on this connection', { limit: 'httpSessionStreamsPerConnection' });
    }
    if (socket.refusal(sessionId)) throw new HubError('HUB_ERR_CONFLICT', 'This stream already has a reader');
    reply.hijack();
    const res = reply.raw;
    // The security hooks' headers (nosniff, CORS …) were set on the reply; a hijacked reply sends them itself.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    if (sessionId === undefined) socket.attachStream(res);
    else socket.attachSessionStream(sessionId, res);
  }

  /** `DELETE /acp`: ends the connection (its streams close; turns and interactions go on). */
  remove(req: FastifyRequest): void {
    this.find(req).conn.close(CLOSE.NORMAL, 'connection deleted');
  }

  /** `POST /acp` with a connection: the message goes to the dispatcher; the answer comes on the stream. */
  post(req: FastifyRequest, body: Body, text: string): void {
    const { socket } = this.find(req);
    const params = body['params'];
    const paramsSession = typeof params === 'object' && params !== null ? (params as Body)['sessionId'] : undefined;
    const headerSession = header(req, HEADER_SESSION_ID);
    // RFD: a session-scoped message names its session in the header too (routing, debugging).
    if (typeof paramsSession === 'string' && headerSession === undefined)
      throw new HubError('HUB_ERR_BAD_REQUEST', 'Missing Acp-Session-Id');
    if (typeof paramsSession === 'string' && headerSession !== paramsSession)
      throw new HubError('HUB_ERR_BAD_REQUEST', 'Mismatched Acp-Session-Id');
    socket.deliver(text);
  }
}

/** Registers `POST` and `DELETE /acp`; returns the registry whose `openStream` serves the non-upgrade GET. */
export function registerStreamableHttp(app: FastifyInstance, gateway: GatewayServer, config: HubConfig): HttpConnections {
  const connections = new HttpConnections(gateway, config.limits);
  app.post(
    '/acp',
    {
      config: { scope: 'view' },
      bodyLimit: config.limits.wsMaxMessageBytes,
      schema: { summary: 'ACP over Streamable HTTP: one client message (docs/CLIENT-PROTOCOL.md)', tags: ['acp'] },
      preValidation: async (req) => {
        if (!isJson(req)) throw new HubError('HUB_ERR_MEDIA_TYPE');
      },
    },
    async (req, reply) => {
      const identity = req.identity;
      if (!identity) throw new HubError('HUB_ERR_UNAUTHENTICATED');
      const body = req.body;
      // ACP uses no JSON-RPC batches (501, as for a WebSocket batch: jsonrpc.ts).
      if (Array.isArray(body)) throw new HubError('HUB_ERR_NOT_SUPPORTED', 'JSON-RPC batches are not supported');
      if (typeof body !== 'object' || body === null) throw new HubError('HUB_ERR_INVALID_MESSAGE', 'A JSON-RPC message is an object');
      const message = body as Body;
      const text = JSON.stringify(message);
      const isInitialize = message['method'] === 'initialize' && message['id'] !== undefined;
      if (header(req, HEADER_CONNECTION_ID) === undefined) {
        if (!isInitialize) throw new HubError('HUB_ERR_BAD_REQUEST', 'Missing Acp-Connection-Id (POST initialize first)');
        return connections.initialize(identity, text, req, reply);
      }
      if (isInitialize) throw new HubError('HUB_ERR_BAD_REQUEST', 'initialize opens a connection: send it without Acp-Connection-Id');
      connections.post(req, message, text);
      return reply.code(202).send();
    },
  );
  app.delete(
    '/acp',
    { config: { scope: 'view' }, schema: { summary: 'End a Streamable HTTP ACP connection', tags: ['acp'] } },
    async (req, reply) => {
      connections.remove(req);
      return reply.code(202).send();
    },
  );
  return connections;
}
