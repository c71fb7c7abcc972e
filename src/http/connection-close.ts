import http2 from 'node:http2';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHttp2 } from './protocol-switch.js';

/**
 * Ends the client's connection once this answer is sent, on either protocol. HTTP/1.1:
 * `Connection: close`. HTTP/2 has no such header (RFC 9113 §8.2.2; node drops it with a
 * warning): the stream is reset with NO_ERROR if the client is still sending its body
 * (RFC 9113 §8.1, a body trickled after a 401 keeps nothing open), and the connection gets a
 * GOAWAY, so it takes no new request and closes when its other streams are done.
 */
export function closeConnectionAfter(req: FastifyRequest, reply: FastifyReply): void {
  if (!isHttp2(req.raw)) {
    reply.header('connection', 'close');
    return;
  }
  const stream = (req.raw as unknown as http2.Http2ServerRequest).stream;
  // Taken now: a stream that has closed no longer knows its session.
  const session = stream.session;
  reply.raw.once('finish', () => {
    if (!stream.destroyed && !stream.state.remoteClose) stream.close(http2.constants.NGHTTP2_NO_ERROR);
    if (session && !session.closed && !session.destroyed) session.close();
  });
}

/**
 * HTTP/2 answers carry no `Connection` header: one set anyway (fastify sets `connection: close`
 * on a body it could not read, a 413 for one) is taken off and its meaning kept, as above.
 */
export function installHttp2ConnectionHeader(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply) => {
    if (!isHttp2(req.raw) || !reply.hasHeader('connection')) return;
    reply.removeHeader('connection');
    closeConnectionAfter(req, reply);
  });
}
