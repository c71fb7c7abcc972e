/**
 * The JSON-RPC methods the web app calls on its hub, one typed table: what each one's params
 * are (the ACP SDK's request types; the `_zcode/*` ones from src/zcode-ext/requests.ts) and what
 * its result is once read. Each result has a reader that checks its top-level shape before a
 * caller sees it, so `conn.call('session/new', …)` gives a result whose `sessionId` is a string
 * or rejects with a MalformedResult naming the field. No zod here: its runtime in the phone
 * bundle would cost more than these few checks (wire.ts says the same); nested values are still
 * read field by field with wire.ts where they are used.
 */
import type {
  CancelNotification,
  CancelRequestNotification,
  DeleteSessionRequest,
  DeleteSessionResponse,
  InitializeRequest,
  InitializeResponse,
  ListSessionsRequest,
  ListSessionsResponse,
  LoadSessionRequest,
  LoadSessionResponse,
  NewSessionRequest,
  NewSessionResponse,
  PromptRequest,
  PromptResponse,
  SessionNotification,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
  SetSessionModeRequest,
  SetSessionModeResponse,
} from '@agentclientprotocol/sdk';
import type {
  CancelBackgroundTaskParams,
  CompactParams,
  GoalParams,
  InteractionsListParams,
  LoadEarlierParams,
  PartialAnswerParams,
  SessionArchiveParams,
} from '../../../src/zcode-ext/requests.js';
import type {
  AnswerRefusedParams,
  BackendStateParams,
  InteractionOpenedParams,
  InteractionProgressParams,
  InteractionResolvedParams,
  OwnUpdateParams,
  PresenceParams,
  SessionDeletedParams,
  SessionStateParams,
  TurnStateParams,
} from '../../../src/zcode-ext/schemas.js';
import { ZCODE_NOTIFICATION, ZCODE_REQUEST } from '../../../src/zcode-ext/methods.js';
import { rec, type Rec } from '../wire.js';

/** What a reader checks one top-level field for; `?` = may be absent or null. */
type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'unknown';
type KindSpec = Kind | `${Exclude<Kind, 'unknown'>}?`;
type Spec = Readonly<Record<string, KindSpec>>;

type KindType<K> = K extends 'string'
  ? string
  : K extends 'number'
    ? number
    : K extends 'boolean'
      ? boolean
      : K extends 'array'
        ? unknown[]
        : K extends 'object'
          ? Rec
          : unknown;

/** The type a spec guarantees: exactly what its reader checked, no more. */
export type Shaped<S extends Spec> = { [K in keyof S as S[K] extends `${string}?` ? never : K]: KindType<S[K]> } & {
  [K in keyof S as S[K] extends `${string}?` ? K : never]?: (S[K] extends `${infer B}?` ? KindType<B> : never) | null;
} & { readonly _meta?: unknown };

/** A result's reader: the checked value, or a sentence saying which field is wrong. */
export type Reader<T> = (v: unknown) => { ok: true; value: T } | { ok: false; problem: string };

function is(kind: Kind, v: unknown): boolean {
  if (kind === 'unknown') return true;
  if (kind === 'array') return Array.isArray(v);
  if (kind === 'object') return rec(v) !== undefined;
  return typeof v === kind && (kind !== 'number' || Number.isFinite(v));
}

/**
 * A reader for a result of type `T` (the SDK's, when the method is ACP's): the spec may only
 * name fields `T` has, so a renamed field in the SDK is a compile error here.
 */
function shape<T = Rec>() {
  return <const S extends Spec & { readonly [K in keyof S]: K extends keyof T ? KindSpec : never }>(spec: S): Reader<Shaped<S>> =>
    (v) => {
      const r = rec(v);
      if (!r) return { ok: false, problem: 'result is not an object' };
      for (const [key, want] of Object.entries(spec)) {
        const optional = want.endsWith('?');
        const kind = (optional ? want.slice(0, -1) : want) as Kind;
        const got = r[key];
        if (optional && (got === undefined || got === null)) continue;
        if (!is(kind, got)) return { ok: false, problem: `result.${key} is not ${optional ? 'absent, null or ' : ''}of type ${kind}` };
      }
      return { ok: true, value: r as Shaped<S> };
    };
}

/** The params of every method the app calls: the SDK's types for ACP, the hub's own for `_zcode/*`. */
export interface HubRequestParams {
  initialize: InitializeRequest;
  'session/list': ListSessionsRequest;
  'session/load': LoadSessionRequest;
  'session/new': NewSessionRequest;
  'session/prompt': PromptRequest;
  'session/set_config_option': SetSessionConfigOptionRequest;
  'session/set_mode': SetSessionModeRequest;
  'session/delete': DeleteSessionRequest;
  [ZCODE_REQUEST.loadEarlier]: LoadEarlierParams;
  [ZCODE_REQUEST.interactionsList]: InteractionsListParams;
  [ZCODE_REQUEST.compact]: CompactParams;
  [ZCODE_REQUEST.goal]: GoalParams;
  [ZCODE_REQUEST.cancelBackgroundTask]: CancelBackgroundTaskParams;
  [ZCODE_REQUEST.sessionArchive]: SessionArchiveParams;
  [ZCODE_REQUEST.partialAnswer]: PartialAnswerParams;
}

/** Each method's result reader (the `_zcode/*` results as src/gateway/zcode-methods.ts builds them). */
export const HUB_RESULTS = {
  initialize: shape<InitializeResponse>()({ protocolVersion: 'number' }),
  'session/list': shape<ListSessionsResponse>()({ sessions: 'array', nextCursor: 'string?' }),
  'session/load': shape<LoadSessionResponse>()({ configOptions: 'array?', modes: 'object?' }),
  'session/new': shape<NewSessionResponse>()({ sessionId: 'string', configOptions: 'array?', modes: 'object?' }),
  'session/prompt': shape<PromptResponse>()({ stopReason: 'string' }),
  'session/set_config_option': shape<SetSessionConfigOptionResponse>()({ configOptions: 'array' }),
  'session/set_mode': shape<SetSessionModeResponse>()({}),
  'session/delete': shape<DeleteSessionResponse>()({}),
  [ZCODE_REQUEST.loadEarlier]: shape()({ updates: 'array', cursor: 'string?', hasMore: 'boolean' }),
  [ZCODE_REQUEST.interactionsList]: shape()({ interactions: 'array' }),
  [ZCODE_REQUEST.compact]: shape()({ state: 'unknown' }),
  [ZCODE_REQUEST.goal]: shape()({ response: 'unknown' }),
  [ZCODE_REQUEST.cancelBackgroundTask]: shape()({ cancelled: 'boolean' }),
  [ZCODE_REQUEST.sessionArchive]: shape()({ session: 'unknown' }),
  [ZCODE_REQUEST.partialAnswer]: shape()({ interaction: 'unknown' }),
} as const satisfies { readonly [M in keyof HubRequestParams]: Reader<unknown> };

export type HubMethod = keyof HubRequestParams;
export type ParamsOf<M extends HubMethod> = HubRequestParams[M];
export type ResultOf<M extends HubMethod> = (typeof HUB_RESULTS)[M] extends Reader<infer T> ? T : never;

/** The notifications the app sends the hub. */
export interface HubClientNotifications {
  'session/cancel': CancelNotification;
}

/**
 * The notifications the app acts on, each with the params the hub declares for it (the SDK's
 * for ACP, src/zcode-ext/schemas.ts for `_zcode/*`). They are read leniently (wire.ts
 * `Fields`): the field names are checked at compile time, each value where it is read.
 * `_zcode/session_update` (a folded update) is not here because it never reaches the app: the
 * app announces `clientInfo`, so every kind the hub can fold is sent to it as `session/update`
 * (src/gateway/update-kinds.ts); what lies outside (`replay_complete`, the draft's kinds) is
 * dropped, never folded.
 */
export interface HubNotificationParams {
  'session/update': SessionNotification;
  '$/cancel_request': CancelRequestNotification;
  [ZCODE_NOTIFICATION.ownUpdate]: OwnUpdateParams;
  [ZCODE_NOTIFICATION.turnState]: TurnStateParams;
  [ZCODE_NOTIFICATION.sessionState]: SessionStateParams;
  [ZCODE_NOTIFICATION.sessionDeleted]: SessionDeletedParams;
  [ZCODE_NOTIFICATION.presence]: PresenceParams;
  [ZCODE_NOTIFICATION.interactionOpened]: InteractionOpenedParams;
  [ZCODE_NOTIFICATION.interactionResolved]: InteractionResolvedParams;
  [ZCODE_NOTIFICATION.interactionProgress]: InteractionProgressParams;
  [ZCODE_NOTIFICATION.answerRefused]: AnswerRefusedParams;
  [ZCODE_NOTIFICATION.backendState]: BackendStateParams;
}

export type HubNotification = keyof HubNotificationParams;

/** The hub answered, but not with the shape its method promises. */
export class MalformedResult extends Error {
  constructor(method: string, problem: string) {
    super(`${method}: ${problem}`);
    this.name = 'MalformedResult';
  }
}

/**
 * ACP `$/cancel_request` for our request `id` (protocol "Cancellation"): the hub withdraws a
 * `session/prompt` still queued and answers it `cancelled`. Sent on the socket the request went on
 * (ids are per connection); on a closed socket the send is dropped, and nothing waits for it there.
 */
export function cancelRequestFrame(id: number | string): string {
  return JSON.stringify({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: id } });
}
