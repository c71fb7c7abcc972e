import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HubError } from '../errors.js';
import { AuthChallengeError, ScopeRefusedError } from './auth-hook.js';
import { errorPage, isPageNavigation, needsScopePath } from './error-page.js';
import { parseHostHeader } from './security/allowed-hosts.js';

/**
 * One error shape for every route: `{error: {code, message, details?}}` (ARCHITECTURE.md §6), from
 * the catalog in src/errors.ts. Schema failures list field paths; no stack reaches a client.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HubError | Error, req, reply) => {
    if (err instanceof HubError) {
      if (err instanceof AuthChallengeError) reply.header('www-authenticate', err.challenge);
      if (err.httpStatus >= 500) req.log.warn({ err }, 'request failed');
      const navigation = isPageNavigation(req.headers, req.method);
      // A paired device without the scope (an operate phone typing /docs, a view phone opening an
      // operate route) goes to the web app's own page that names the scope and how to get it: a
      // 403 document is a console error in every browser, and raw JSON tells a person nothing.
      if (navigation && err instanceof ScopeRefusedError && err.need !== 'view')
        return reply.redirect(needsScopePath(err.need, req.url), 303);
      // A browser opening a refused page gets words and the fix, not a JSON body.
      const page = navigation ? errorPage(err.code, parseHostHeader(req.headers.host)?.hostname) : undefined;
      if (page) return reply.code(err.httpStatus).type('text/html; charset=utf-8').send(page);
      return reply.code(err.httpStatus).send(err.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: `${err.validationContext ?? 'body'}${v.instancePath.replace(/\//g, '.')}`,
        message: v.message,
      }));
      return reply.code(400).send(new HubError('HUB_ERR_BAD_REQUEST', 'Request does not match the schema', { issues }).toBody());
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply.code(500).send(new HubError('HUB_ERR_INTERNAL').toBody());
    }
    const fe = err as FastifyError;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send(new HubError('HUB_ERR_PAYLOAD_TOO_LARGE').toBody());
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.code(415).send(new HubError('HUB_ERR_BAD_REQUEST', 'Unsupported content type').toBody());
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply
        .code(fe.statusCode)
        .send(new HubError(fe.statusCode === 429 ? 'HUB_ERR_RATE_LIMITED' : 'HUB_ERR_BAD_REQUEST', fe.message).toBody());
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(new HubError('HUB_ERR_INTERNAL').toBody());
  });
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send(new HubError('HUB_ERR_NOT_FOUND', `No route ${req.method} ${req.url.split('?')[0]}`).toBody());
  });
}
