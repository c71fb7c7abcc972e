import { scopeAllows } from '../auth/identity.js';
import { assertNever, HubError } from '../errors.js';
import { depthMessage, textExceedsJsonDepth } from '../json-depth.js';
import { LIMITS } from '../limits.js';
import { ACP_METHODS } from './acp-methods.js';
import type { ClientConnection } from './client-connection.js';
import { z } from 'zod';
import { classify, invalidParams, protocolError, rpcId, type Inbound } from './jsonrpc.js';
import { ReplyThen, type DispatchContext, type MethodSpec } from './method-spec.js';
import { traceFromMeta, withTrace, type TraceContext } from '../trace-context.js';
import { isExpectedError, toHubError } from '../backend-errors.js';
import { ZCODE_METHODS } from './zcode-methods.js';
import { WithdrawableRequests } from './withdrawable-requests.js';

const METHODS: ReadonlyMap<string, MethodSpec> = new Map(Object.entries({ ...ACP_METHODS, ...ZCODE_METHODS }));

/** ACP: every other method waits for `initialize` (the hub attaches the client to the domain then). */
const INITIALIZE = 'initialize';
/** A client withdrawing one of its own requests: honoured for withdrawable methods (withdrawable-requests.ts). */
const CANCEL_REQUEST = '$/cancel_request';
const cancelRequestParams = z.looseObject({ requestId: rpcId });

/**
 * Turns inbound text frames into hub calls (ARCHITECTURE.md §5): parse, classify, check scope, validate
 * params with the ACP schemas, then run the handler without awaiting it — a prompt that lasts
 * a whole turn must not hold up the socket. Every failure becomes a typed JSON-RPC error; the
 * socket stays open until `protocolViolationsBeforeClose` bad messages.
 */
export class Dispatcher {
  private readonly withdrawable = new WithdrawableRequests<ClientConnection>();

  constructor(private readonly ctx: DispatchContext) {}

  /** Handles one text frame; never throws. */
  handleText(conn: ClientConnection, text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      conn.respondError(null, protocolError('HUB_ERR_PARSE'));
      conn.violation('parse error');
      return;
    }
    const maxDepth = this.ctx.maxJsonDepth ?? LIMITS.jsonMaxDepth;
    if (textExceedsJsonDepth(text, value, maxDepth)) {
      // Refused before anything recurses over it (schemas, the broadcaster's JSON.stringify).
      const id = (value as { id?: unknown }).id;
      conn.respondError(
        (typeof id === 'string' && id.length <= 256) || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null,
        protocolError('HUB_ERR_INVALID_MESSAGE', `Invalid request: ${depthMessage(maxDepth)}`),
      );
      conn.violation('nested too deep');
      return;
    }
    this.handleMessage(conn, classify(value));
  }

  private handleMessage(conn: ClientConnection, msg: Inbound): void {
    switch (msg.kind) {
      case 'invalid':
        conn.respondError(msg.id, protocolError('HUB_ERR_INVALID_MESSAGE', `Invalid request: ${msg.reason}`));
        conn.violation(msg.reason);
        return;
      case 'batch':
        // Well-formed JSON-RPC the hub does not serve: a typed answer, not a protocol violation.
        conn.respondError(null, new HubError('HUB_ERR_NOT_SUPPORTED', 'JSON-RPC batches are not supported').toRpc());
        return;
      case 'result':
        conn.settle(msg.id, { result: msg.result });
        return;
      case 'error':
        conn.settle(msg.id, { error: msg.error });
        return;
      case 'request':
        this.request(conn, msg);
        return;
      case 'notification':
        this.notification(conn, msg);
        return;
      default:
        assertNever(msg, 'inbound message');
    }
  }

  private request(conn: ClientConnection, msg: Extract<Inbound, { kind: 'request' }>): void {
    const spec = METHODS.get(msg.method);
    if (!spec) {
      // Not a violation: ACP clients probe optional extensions (e.g. zcode-acp-remote's account/usage_stats).
      conn.respondError(msg.id, protocolError('HUB_ERR_METHOD_NOT_FOUND', `Method not found: ${msg.method.slice(0, 64)}`));
      return;
    }
    if (!conn.initialized && msg.method !== INITIALIZE) {
      conn.respondError(msg.id, protocolError('HUB_ERR_INVALID_MESSAGE', 'Call initialize first'));
      conn.violation('request before initialize');
      return;
    }
    if (!scopeAllows(conn.identity.scope, spec.scope)) {
      conn.respondError(msg.id, new HubError('HUB_ERR_FORBIDDEN', `${msg.method} needs the '${spec.scope}' scope`).toRpc());
      return;
    }
    const parsed = spec.schema.safeParse(msg.params ?? {});
    if (!parsed.success) {
      conn.respondError(msg.id, invalidParams(parsed.error));
      conn.violation(`invalid params for ${msg.method}`);
      return;
    }
    const trace = this.traced(conn, msg);
    // The handler, its awaits and the child requests it makes run in the client's trace context.
    withTrace(trace, () => this.run(conn, msg, spec, parsed.data));
  }

  /** The request's W3C trace context (`_meta.traceparent`…), logged once when present. */
  private traced(conn: ClientConnection, msg: { method: string; params?: unknown }): TraceContext | undefined {
    const params = msg.params;
    const trace = typeof params === 'object' && params !== null ? traceFromMeta((params as { _meta?: unknown })._meta) : undefined;
    if (trace) {
      conn.logger.info(
        {
          method: msg.method,
          traceId: trace.traceId,
          parentId: trace.parentId,
          spanId: trace.spanId,
          ...(trace.tracestate ? { tracestate: trace.tracestate } : {}),
          ...(trace.baggage ? { baggageKeys: baggageKeys(trace.baggage) } : {}),
        },
        'traced client request',
      );
    }
    return trace;
  }

  /**
   * Runs the handler now and answers a synchronous result at once, an awaited one when it settles.
   * At once matters for `initialize`: a client may send its first requests right behind it
   * (CLIENT-PROTOCOL.md "Connecting"), and those read in the same chunk are dispatched in this same
   * turn — they must find the connection initialized.
   */
  private run(conn: ClientConnection, msg: Extract<Inbound, { kind: 'request' }>, spec: MethodSpec, params: unknown): void {
    let result: unknown;
    const withdrawn = spec.withdrawable ? this.withdrawable.begin(conn, msg.id) : undefined;
    try {
      result = spec.handle(this.ctx, conn, params, msg.method, withdrawn);
    } catch (err) {
      if (withdrawn) this.withdrawable.end(conn, msg.id);
      this.fail(conn, msg, err);
      return;
    }
    const unanswered = (err: unknown): void => conn.logger.error({ err }, 'failed to answer a request');
    if (result instanceof Promise) {
      void result
        .finally(() => {
          if (withdrawn) this.withdrawable.end(conn, msg.id);
        })
        .then(
          (value) => this.answer(conn, msg, value),
          (err: unknown) => this.fail(conn, msg, err),
        )
        .catch(unanswered);
      return;
    }
    if (withdrawn) this.withdrawable.end(conn, msg.id);
    try {
      this.answer(conn, msg, result);
    } catch (err) {
      unanswered(err);
    }
  }

  /** Queues a handler's result (and what must follow it); the first `initialize` answered initializes the connection. */
  private answer(conn: ClientConnection, msg: Extract<Inbound, { kind: 'request' }>, result: unknown): void {
    if (result instanceof ReplyThen) {
      conn.respond(msg.id, result.result ?? {});
      result.after();
    } else {
      conn.respond(msg.id, result ?? {});
    }
    if (msg.method === INITIALIZE && !conn.initialized) {
      conn.initialized = true;
      this.ctx.onInitialized(conn);
    }
  }

  /** A hub or backend error is the client's answer; anything else is a bug: logged, its stack never shown. */
  private fail(conn: ClientConnection, msg: Extract<Inbound, { kind: 'request' }>, err: unknown): void {
    if (!isExpectedError(err)) conn.logger.error({ err }, 'request failed');
    conn.respondError(msg.id, toHubError(err).toRpc());
  }

  private notification(conn: ClientConnection, msg: Extract<Inbound, { kind: 'notification' }>): void {
    if (msg.method === CANCEL_REQUEST) {
      const p = cancelRequestParams.safeParse(msg.params);
      if (p.success) this.withdrawable.withdraw(conn, p.data.requestId);
      return;
    }
    const spec = METHODS.get(msg.method);
    // ACP: unknown notifications are ignored; there is nobody to answer.
    if (!spec || !conn.initialized) return;
    if (!scopeAllows(conn.identity.scope, spec.scope)) {
      conn.logger.info({ method: msg.method }, 'notification refused for this scope');
      return;
    }
    const parsed = spec.schema.safeParse(msg.params ?? {});
    if (!parsed.success) {
      conn.violation(`invalid params for ${msg.method}`);
      return;
    }
    withTrace(this.traced(conn, msg), () => {
      void Promise.resolve()
        .then(() => spec.handle(this.ctx, conn, parsed.data, msg.method))
        .catch((err: unknown) => conn.logger.info({ err, method: msg.method }, 'notification failed'));
    });
  }
}

/** Member names of a W3C baggage string; values may be personal data and stay out of the log. */
function baggageKeys(baggage: string): string[] {
  return baggage
    .split(',')
    .map((m) => m.split('=')[0]?.trim() ?? '')
    .filter(Boolean)
    .slice(0, 64);
}
