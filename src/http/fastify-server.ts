/**
 * The fastify instance with its server: HTTP/1.1 (and the WebSocket upgrade) and HTTP/2 on one
 * port, the request and keep-alive timeouts, the proxy hops trusted, zod validation and the one
 * error shape. No plugin and no route: buildApp (app.ts) adds those.
 */
import fs from 'node:fs';
import Fastify, {
  type FastifyReply,
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { HubConfig } from '../config/schema.js';
import type { Logger } from '../logger.js';
import { HubError } from '../errors.js';
import { installErrorHandler } from './error-handler.js';
import { ignoreOtherUpgrades } from './other-upgrades.js';
import { createHubServer } from './protocol-switch.js';

export function createFastify(config: HubConfig, logger: Logger): FastifyInstance {
  const hops = config.trustProxy;
  const tls = config.tlsCert && config.tlsKey ? { cert: fs.readFileSync(config.tlsCert), key: fs.readFileSync(config.tlsKey) } : undefined;
  const l = config.limits;
  // Request, header and keep-alive timeouts. Node reads them when the server is
  // created (setting requestTimeout afterwards, as fastify does, is not enforced on node 20), and
  // sweeps for them every connectionsCheckingInterval. The header timeout covers later requests on
  // a kept-alive socket; the first one is bounded by the pre-auth deadline.
  const serverOptions = {
    requestTimeout: l.httpRequestTimeoutMs,
    headersTimeout: Math.min(l.preAuthDeadlineMs, l.httpRequestTimeoutMs),
    keepAliveTimeout: l.httpKeepAliveTimeoutMs,
    connectionsCheckingInterval: l.httpTimeoutSweepMs,
  };
  // The generics are spelled out so the instance is the plain FastifyInstance every plugin takes:
  // inferred from `loggerInstance`, the logger type would be pino's own and no plugin would fit.
  const app = Fastify<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger>({
    loggerInstance: logger,
    bodyLimit: l.httpBodyLimitBytes,
    requestTimeout: l.httpRequestTimeoutMs,
    keepAliveTimeout: l.httpKeepAliveTimeoutMs,
    http: serverOptions,
    // Trust exactly the configured number of proxy hops (a tunnel on loopback is 1), never "any".
    trustProxy: hops > 0 ? (_addr: string, i: number) => i < hops : false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: l.httpPathParamMaxChars },
    // What the router refuses before any route runs (a path segment over httpPathParamMaxChars, a
    // URL it cannot decode): the hub's error shape, and never the path echoed back.
    frameworkErrors: (err, _req, reply) => {
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const message = tooLong ? `A path segment is longer than ${l.httpPathParamMaxChars} characters` : 'The request URL could not be read';
      void (reply as FastifyReply).code(tooLong ? 414 : 400).send(new HubError('HUB_ERR_BAD_REQUEST', message).toBody());
    },
    // HTTP/1.1 (and the WebSocket upgrade) and HTTP/2 on the same port: h2 by ALPN over TLS, h2c by prior knowledge in clear.
    serverFactory: (handler) =>
      createHubServer(handler, {
        tls,
        http1: serverOptions,
        requestTimeoutMs: l.httpRequestTimeoutMs,
        idleTimeoutMs: l.httpKeepAliveTimeoutMs,
        maxConcurrentStreams: l.http2MaxConcurrentStreams,
        maxHeaderListBytes: l.http2MaxHeaderListBytes,
      }),
  });
  // `Upgrade: h2c` and any other protocol but WebSocket are answered over HTTP/1.1 (other-upgrades.ts).
  ignoreOtherUpgrades(app.server);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  return app;
}
