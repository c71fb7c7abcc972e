import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { BackendInteractionRequest, InteractionHandler } from '../ports/backend-port.js';
import { BACKEND_BOUNDS } from './bounds.js';
import type { RpcId } from './envelope.js';
import { InteractionDedupe } from './interaction-dedupe.js';
import { toErrorObject, type RpcOutcome } from './rpc-peer.js';

/** Reverse requests the hub serves itself (APP-SERVER.md §6). */
export const REVERSE_METHODS = {
  runtimePreferences: 'session/requestRuntimePreferences',
  requestPermission: 'interaction/requestPermission',
  requestUserInput: 'interaction/requestUserInput',
  browserList: 'interaction/browserList',
  providerRuntimeHeaders: 'interaction/requestProviderRuntimeHeaders',
} as const;

/** §6.4: a host that cannot supply headers says so at once rather than letting the turn wait 180 s. */
export const PROVIDER_HEADERS_UNAVAILABLE =
  'zcode-hub cannot supply provider runtime headers (account-based providers need the ZCode desktop app); use an api-key provider';

/** Only the two keys the link needs; the rest of `params` is passed to the domain untouched. */
const InteractionKeysSchema = z.object({ requestId: z.string().min(1), sessionId: z.string().min(1) });

export interface ReverseRouterOptions {
  epoch: number;
  askUserQuestionAutoResolution: boolean;
  getHandler: () => InteractionHandler | undefined;
  logger: Logger;
}

/**
 * Answers every reverse request of one epoch (§1.7 rule 1): runtime preferences from config at
 * once (§6.1), no browsers (§6.5), no provider headers (§6.4), -32601 for the rest (§6.6), and
 * interaction requests through the domain's handler, de-duplicated by requestId (§1.7 rule 5).
 */
export class ReverseRouter {
  readonly dedupe = new InteractionDedupe(BACKEND_BOUNDS.settledInteractionsLru, BACKEND_BOUNDS.unsettledInteractions);

  constructor(private readonly options: ReverseRouterOptions) {}

  handle(method: string, params: unknown, id: RpcId): Promise<RpcOutcome> {
    switch (method) {
      case REVERSE_METHODS.runtimePreferences:
        return Promise.resolve({
          result: {
            nativeSearchEnhancementsEnabled: true,
            memoryEnabled: false,
            askUserQuestionAutoResolutionEnabled: this.options.askUserQuestionAutoResolution,
          },
        });
      case REVERSE_METHODS.browserList:
        return Promise.resolve({ result: { browsers: [] } });
      case REVERSE_METHODS.providerRuntimeHeaders:
        return Promise.resolve({ result: { headersApplied: false, errorMessage: PROVIDER_HEADERS_UNAVAILABLE } });
      case REVERSE_METHODS.requestPermission:
      case REVERSE_METHODS.requestUserInput:
        return this.interaction(method, params, id);
      default:
        this.options.logger.debug({ method }, 'reverse request not served by the hub; answering -32601');
        return Promise.resolve({ error: { code: -32601, message: 'Method not found' } });
    }
  }

  private interaction(method: BackendInteractionRequest['method'], params: unknown, id: RpcId): Promise<RpcOutcome> {
    const keys = InteractionKeysSchema.safeParse(params);
    if (!keys.success) {
      this.options.logger.warn({ method, id }, 'interaction request without requestId/sessionId; answering an error');
      return Promise.resolve({ error: { code: -32602, message: 'Invalid params: requestId and sessionId are required' } });
    }
    const { requestId, sessionId } = keys.data;
    const { outcome, first } = this.dedupe.run(requestId, async () => {
      const handler = this.options.getHandler();
      if (!handler) return { error: { code: -32603, message: 'zcode-hub has no interaction handler registered' } };
      try {
        const result = await handler({ method, params, requestId, sessionId, epoch: this.options.epoch });
        if (result === undefined) return { error: { code: -32603, message: 'The interaction handler gave no answer' } };
        return { result };
      } catch (err) {
        return { error: toErrorObject(err) };
      }
    });
    if (!first) this.options.logger.debug({ method, requestId, id }, 'interaction re-announcement joined');
    return outcome;
  }
}
