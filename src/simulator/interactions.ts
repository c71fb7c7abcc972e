import type { Logger } from '../logger.js';
import { ProtocolError, RPC } from './protocol-error.js';
import type { ReverseRequests } from './reverse-requests.js';
import {
  PermissionResponseSchema,
  UserInputResultSchema,
  type PermissionResponse,
  type UserInputResult,
} from './schemas/session-params.js';
import type { SessionRuntime } from './session-runtime.js';
import type { RequestPermissionParams, RequestUserInputParams } from '../wire/interactions.js';

/** The requests as the simulator sends them: the strict readings of src/wire/interactions.ts. */
export type { PermissionOption } from '../wire/interactions.js';
export type PermissionParams = RequestPermissionParams;
export type UserInputParams = RequestUserInputParams;

/** A v4 `resolveInteraction` answer (§7.3). */
export interface V4Answer {
  optionId?: string;
  freeText?: string;
  action?: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

type Local =
  | { kind: 'permission'; params: PermissionParams; settle: (r: PermissionResponse) => void }
  | { kind: 'userInput'; params: UserInputParams; settle: (r: UserInputResult) => void };

/** The long deny text S uses (§6.2). */
export const DENY_REASON =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

/**
 * Permission and user-input interactions: reverse requests re-announced until answered
 * (§1.7 rule 5), settled by whichever comes first of a client answer (any id), a v4
 * `resolveInteraction` (§7.4) or AskUserQuestion auto-resolution (§6.3).
 */
export class InteractionBroker {
  private readonly local = new Map<string, Local>();

  constructor(
    private readonly reverse: ReverseRequests,
    private readonly log: Logger,
  ) {}

  /** Asks `interaction/requestPermission`; a client error answer rejects (the tool fails). */
  async permission(rt: SessionRuntime, params: PermissionParams, signal: AbortSignal): Promise<PermissionResponse> {
    rt.pendingPermissions.push({
      requestId: params.requestId,
      toolCallId: params.toolCallId,
      toolName: params.toolName,
      reason: params.reason,
      riskLevel: params.riskLevel,
      input: params.input,
      options: params.options,
      requestedAt: Date.now(),
    });
    try {
      return await this.race(
        rt,
        params.requestId,
        signal,
        'interaction/requestPermission',
        params,
        (settle) => ({ kind: 'permission', params, settle }),
        (raw) => {
          const r = PermissionResponseSchema.safeParse(raw);
          if (!r.success)
            throw new ProtocolError(
              RPC.internal,
              `Invalid interaction/requestPermission result: ${r.error.issues.map((i) => i.message).join('; ')}`,
            );
          return r.data;
        },
      );
    } finally {
      rt.pendingPermissions = rt.pendingPermissions.filter((p) => p.requestId !== params.requestId);
    }
  }

  /** Asks `interaction/requestUserInput`; `autoResolveMs` enables AskUserQuestion auto-resolution (§6.3). */
  async userInput(rt: SessionRuntime, params: UserInputParams, signal: AbortSignal, autoResolveMs?: number): Promise<UserInputResult> {
    let timer: NodeJS.Timeout | undefined;
    const result = this.race<UserInputResult>(
      rt,
      params.requestId,
      signal,
      'interaction/requestUserInput',
      params,
      (settle) => {
        if (autoResolveMs !== undefined) {
          // Resolved by the server itself; the reverse request is abandoned without notice.
          timer = setTimeout(() => settle({ action: 'accept', content: { answers: {} } }), autoResolveMs);
        }
        return { kind: 'userInput', params, settle };
      },
      (raw) => {
        const r = UserInputResultSchema.safeParse(raw);
        if (!r.success)
          throw new ProtocolError(
            RPC.internal,
            `Invalid interaction/requestUserInput result: ${r.error.issues.map((i) => i.message).join('; ')}`,
          );
        return r.data;
      },
    );
    try {
      return await result;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** v4 `resolveInteraction`: settles the interaction if it is still pending (late → ignored). */
  resolveFromV4(interactionId: string, answer: V4Answer): boolean {
    const l = this.local.get(interactionId);
    if (!l) return false;
    if (l.kind === 'permission') {
      const opts = l.params.options;
      const byId = opts.find((o) => o.optionId === answer.optionId);
      const allowOnce = opts.find((o) => o.optionId === 'allow_once');
      const always = opts.find((o) => o.kind === 'allow_always');
      if (byId) l.settle(byId.response);
      else if (answer.optionId === 'allowAlways' && always) l.settle(always.response);
      else if (answer.optionId === 'allowOnce' && allowOnce) l.settle(allowOnce.response);
      else l.settle({ decision: 'deny', reason: answer.freeText ? `${DENY_REASON} ${answer.freeText}` : DENY_REASON });
      return true;
    }
    const isPlan = l.params.toolName === 'ExitPlanMode';
    if (answer.action) l.settle({ action: answer.action, ...(answer.content ? { content: answer.content } : {}) });
    else if (answer.freeText !== undefined) l.settle({ action: 'accept', content: { answer: answer.freeText } });
    else if (answer.optionId === 'allowOnce' || answer.optionId === 'allowAlways' || answer.optionId === 'approve')
      l.settle({ action: 'accept', content: isPlan ? { answer: 'approve' } : {} });
    else l.settle({ action: 'decline' });
    return true;
  }

  private async race<T>(
    rt: SessionRuntime,
    requestId: string,
    signal: AbortSignal,
    method: string,
    params: object,
    makeLocal: (settle: (r: T) => void) => Local,
    validate: (raw: unknown) => T,
  ): Promise<T> {
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    rt.pendingRequestIds.add(requestId);
    let settleLocal!: (r: T) => void;
    const localP = new Promise<T>((resolve) => (settleLocal = resolve));
    this.local.set(requestId, makeLocal(settleLocal as never));
    const aborted = new Promise<never>((_, reject) => {
      const fail = (): void => reject(new ProtocolError(RPC.cancelled, `Client request cancelled: ${method}`));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    const remote = this.reverse.request(method, params, { reannounce: true, signal: stop.signal }).then(validate);
    remote.catch(() => undefined);
    aborted.catch(() => undefined);
    try {
      return await Promise.race([remote, localP, aborted]);
    } finally {
      stop.abort();
      signal.removeEventListener('abort', onAbort);
      this.local.delete(requestId);
      rt.pendingRequestIds.delete(requestId);
      this.log.debug({ requestId }, 'interaction settled');
    }
  }
}
