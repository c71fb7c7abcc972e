import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/**
 * One port, two protocols. The listening server is node's HTTP/1.1 server (`http`, or `https`
 * with `--tls-cert`), so HTTP/1.1 and the WebSocket upgrade are served exactly as they always
 * were. Each new connection is looked at before node's HTTP/1.1 parser sees it:
 *
 * - plain TCP: a connection that opens with the HTTP/2 connection preface
 *   (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, RFC 9113 §3.4, "prior knowledge") is HTTP/2 cleartext;
 * - TLS: a connection whose ALPN chose `h2` is HTTP/2 (RFC 9113 §3.3);
 *
 * and is handed to an HTTP/2 server that never listens itself. Every other connection goes to
 * the HTTP/1.1 parser. Node's own cleartext HTTP/2 server has no HTTP/1.1 fallback, and
 * fastify's `http2` + `allowHTTP1` covers TLS only, so both cases take this one path.
 *
 * The listening server stays the one every part talks to: `'connection'` is emitted for every
 * TCP connection whatever it speaks (the unauthenticated caps and the pre-auth deadline see
 * HTTP/2 ones too), and every HTTP/2 request is emitted as its `'request'` (fastify's handler,
 * the pre-auth deadline). {@link transportSocket} gives the TCP socket of either kind of request.
 * The `Upgrade: h2c` path stays HTTP/1.1 (other-upgrades.ts).
 */

/** The HTTP/2 connection preface a prior-knowledge client sends first (RFC 9113 §3.4). */
export const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export interface ProtocolSwitchOptions {
  /** Certificate and key: `https` with ALPN `h2` and `http/1.1`; absent: plain TCP with h2c by prior knowledge. */
  tls?: { cert: Buffer; key: Buffer } | undefined;
  /** node's HTTP/1.1 server options (request, header and keep-alive timeouts, their sweep). */
  http1: http.ServerOptions;
  /** Time a client has to send one whole request (HTTP/2: until its stream's END_STREAM); past it 408 and the stream is reset. */
  requestTimeoutMs: number;
  /** An HTTP/2 connection with no open stream is closed (GOAWAY) after this long idle, as a kept-alive HTTP/1.1 one is. */
  idleTimeoutMs: number;
  /** Streams one HTTP/2 connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). */
  maxConcurrentStreams: number;
  /** Largest header block of one HTTP/2 request, as node's `maxHeaderSize` bounds an HTTP/1.1 head. */
  maxHeaderListBytes: number;
}

/** The listening server; `http2Sessions` are the open HTTP/2 connections (closed with the server). */
export type HubServer = (http.Server | https.Server) & { readonly http2Sessions: ReadonlySet<http2.ServerHttp2Session> };

const sessionSocket = new WeakMap<http2.Http2Session, Socket>();

/**
 * The TCP socket under `socket`: itself in clear; over TLS the socket the TLS one wraps (node's
 * `_parent`), which is the one the server's `'connection'` saw. Without it, bookkeeping keyed by
 * the `'connection'` socket never met a TLS request's socket: the pre-auth deadline closed
 * every TLS connection, an authenticated WebSocket too, and no TLS connection left the
 * unauthenticated pool.
 */
export function tcpSocket(socket: Socket): Socket {
  return (socket as Socket & { _parent?: Socket | null })._parent ?? socket;
}

/** The request's TCP socket: the same object the server's `'connection'` saw, for HTTP/1.1 and HTTP/2, clear or TLS. */
export function transportSocket(req: http.IncomingMessage | http2.Http2ServerRequest): Socket | undefined {
  const socket =
    'stream' in req && req.httpVersionMajor === 2
      ? sessionSocket.get(req.stream.session as http2.Http2Session)
      : (req as http.IncomingMessage).socket;
  return socket ? tcpSocket(socket) : undefined;
}

/** True for a request that came over HTTP/2. */
export function isHttp2(req: { httpVersionMajor: number }): boolean {
  return req.httpVersionMajor === 2;
}

/**
 * Reads the first bytes of a plain connection and says whether they are the HTTP/2 preface.
 * The bytes are put back (`unshift`) for whichever parser takes the socket. A connection that
 * ends or fails before the question is settled is destroyed.
 */
function sniffPreface(socket: Socket, decide: (h2: boolean) => void): void {
  let seen = Buffer.alloc(0);
  const done = (): void => {
    socket.off('readable', onReadable);
    socket.off('end', onGone);
    socket.off('error', onGone);
  };
  const onGone = (): void => {
    done();
    socket.destroy();
  };
  const onReadable = (): void => {
    for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
      seen = Buffer.concat([seen, chunk]);
    }
    const n = Math.min(seen.length, H2_PREFACE.length);
    if (n === 0) return;
    const prefaceSoFar = seen.subarray(0, n).equals(H2_PREFACE.subarray(0, n));
    // A prefix of the preface: wait for the rest (the pre-auth deadline bounds the wait).
    if (prefaceSoFar && n < H2_PREFACE.length) return;
    done();
    socket.unshift(seen);
    decide(prefaceSoFar);
  };
  socket.on('readable', onReadable);
  socket.once('end', onGone);
  socket.once('error', onGone);
}

/** Builds the listening server (fastify's `serverFactory`), with `handler` as its request listener. */
export function createHubServer(handler: http.RequestListener, opts: ProtocolSwitchOptions): HubServer {
  const server = (
    opts.tls
      ? https.createServer({ ...opts.http1, ...opts.tls, ALPNProtocols: ['h2', 'http/1.1'] }, handler)
      : http.createServer(opts.http1, handler)
  ) as HubServer;
  const sessions = new Set<http2.ServerHttp2Session>();
  Object.defineProperty(server, 'http2Sessions', { value: sessions });

  const h2 = http2.createServer({
    settings: { maxConcurrentStreams: opts.maxConcurrentStreams, maxHeaderListSize: opts.maxHeaderListBytes },
  });
  let arriving: Socket | undefined;
  h2.on('session', (session: http2.ServerHttp2Session) => {
    if (arriving) sessionSocket.set(session, arriving);
    sessions.add(session);
    closeWhenIdle(session, opts.idleTimeoutMs);
    session.once('close', () => sessions.delete(session));
  });
  h2.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) =>
    forwardRequest(server, req, res, opts.requestTimeoutMs),
  );
  // A session's error (a client that broke the protocol) has ended that session above; nothing is left to do.
  h2.on('sessionError', () => undefined);

  const toHttp2 = (socket: Socket): void => {
    // node ends a closed session's socket (FIN) and waits for the client to close its side; a
    // client that never does would hold the socket (and the hub's shutdown) forever.
    socket.once('finish', () => {
      const timer = setTimeout(() => socket.destroy(), opts.idleTimeoutMs);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
    });
    arriving = socket;
    h2.emit('connection', socket);
    arriving = undefined;
  };
  // The first listener of this event is node's HTTP/1.1 parser (added by the constructor); it is
  // replaced by the switch, which calls it for every connection that is not HTTP/2.
  const event = opts.tls ? 'secureConnection' : 'connection';
  const parser = server.listeners(event)[0] as ((socket: Socket) => void) | undefined;
  if (!parser) throw new Error(`node's HTTP server has no '${event}' listener to switch`);
  server.removeListener(event, parser);
  server.prependListener(event, (socket: Socket) => {
    if (opts.tls) {
      if ((socket as TLSSocket).alpnProtocol === 'h2') toHttp2(socket);
      else parser.call(server, socket);
      return;
    }
    sniffPreface(socket, (isH2) => (isH2 ? toHttp2(socket) : parser.call(server, socket)));
  });

  // Closing the server sends GOAWAY on every HTTP/2 connection: its open streams finish, no new one starts.
  const close = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => {
    for (const session of sessions) session.close();
    return close(cb);
  }) as typeof server.close;
  return server;
}

/** An HTTP/2 session with no open stream for `idleMs` is closed; a session that breaks the protocol is destroyed. */
function closeWhenIdle(session: http2.ServerHttp2Session, idleMs: number): void {
  let open = 0;
  // A listener of its own: setTimeout's callback is called once, and the timer is re-armed below.
  session.on('timeout', () => {
    if (open === 0) session.close();
  });
  session.setTimeout(idleMs);
  session.on('stream', (stream: http2.ServerHttp2Stream) => {
    open += 1;
    stream.once('close', () => {
      open -= 1;
      // Re-arm the idle timer: it may have fired (and been ignored) while this stream was open.
      if (open === 0 && !session.closed && !session.destroyed) session.setTimeout(idleMs);
    });
  });
  session.on('error', () => session.destroy());
}

/** Hands an HTTP/2 request to the listening server's request listeners, with its Host and its own deadline (408). */
function forwardRequest(server: HubServer, req: http2.Http2ServerRequest, res: http2.Http2ServerResponse, timeoutMs: number): void {
  // `:authority` is HTTP/2's Host (RFC 9113 §8.3.1): every Host reader sees it; host-check.ts refuses a Host that differs.
  const authority = req.headers[':authority'];
  if (req.headers.host === undefined && typeof authority === 'string') req.headers.host = authority;
  const timer = setTimeout(() => {
    const stream = req.stream;
    if (stream.destroyed || stream.state.remoteClose) return;
    if (!res.headersSent) {
      res.statusCode = 408;
      res.end();
    }
    stream.close(http2.constants.NGHTTP2_NO_ERROR);
  }, timeoutMs);
  timer.unref();
  req.stream.once('close', () => clearTimeout(timer));
  // The listening server's request listeners (fastify, the pre-auth deadline) take it from here.
  server.emit('request', req, res);
}
