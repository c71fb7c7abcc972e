import { createRequire } from 'node:module';
import { z } from 'zod';
import { SESSION_ID_MAX_CHARS } from '../zcode-ext/requests.js';
import type {
  CancelNotification,
  CancelRequestNotification,
  AuthenticateRequest,
  CloseSessionRequest,
  DeleteSessionRequest,
  InitializeRequest,
  ListSessionsRequest,
  LoadSessionRequest,
  NewSessionRequest,
  PromptRequest,
  ResumeSessionRequest,
  SetSessionConfigOptionRequest,
  SetSessionModeRequest,
} from '@agentclientprotocol/sdk';

/**
 * Zod validators for every ACP message a client sends, derived at start-up from the SDK's
 * official JSON Schema (ARCHITECTURE.md §5: never hand-declare what the SDK provides). The SDK's
 * generated zod module is not among its package exports, so we convert its exported
 * `schema/v1/schema.json` with `z.fromJSONSchema`; the TypeScript types are the SDK's.
 * The `_zcode/*` extension's own requests are in src/zcode-ext/requests.ts; only the
 * `_meta.zcode` blocks of standard methods are declared here.
 */

const require = createRequire(import.meta.url);
const acpJsonSchema = z
  .object({ $defs: z.record(z.string(), z.unknown()) })
  .parse(require('@agentclientprotocol/sdk/schema/v1/schema.json'));

/** The zod validator of one `$defs` entry of the ACP schema, typed with the SDK's own type. */
function acp<T>(name: string): z.ZodType<T> {
  if (!(name in acpJsonSchema.$defs)) throw new Error(`ACP schema has no definition ${name}`);
  // The cast is the one seam between the SDK's JSON Schema and its TS types (same generator).
  return z.fromJSONSchema({ $ref: `#/$defs/${name}`, $defs: acpJsonSchema.$defs } as Parameters<
    typeof z.fromJSONSchema
  >[0]) as z.ZodType<T>;
}

/**
 * An ACP params schema whose `sessionId` is bounded like every `_zcode/*` method's
 * (SESSION_ID_MAX_CHARS): the ACP schema leaves it unbounded, and a longer one named no session
 * but still went to the agent, into error messages and into state-file names.
 */
function boundedSession<T extends { sessionId: string }>(schema: z.ZodType<T>): z.ZodType<T> {
  return schema.refine((p) => p.sessionId.length <= SESSION_ID_MAX_CHARS, {
    path: ['sessionId'],
    message: `Too big: a session id has at most ${SESSION_ID_MAX_CHARS} characters`,
  });
}

export const initializeParams = acp<InitializeRequest>('InitializeRequest');
export const newSessionParams = acp<NewSessionRequest>('NewSessionRequest');
export const loadSessionParams = boundedSession(acp<LoadSessionRequest>('LoadSessionRequest'));
export const resumeSessionParams = boundedSession(acp<ResumeSessionRequest>('ResumeSessionRequest'));
export const listSessionsParams = acp<ListSessionsRequest>('ListSessionsRequest');
export const promptParams = boundedSession(acp<PromptRequest>('PromptRequest'));
export const cancelParams = boundedSession(acp<CancelNotification>('CancelNotification'));
export const setModeParams = boundedSession(acp<SetSessionModeRequest>('SetSessionModeRequest'));
export const setConfigOptionParams = boundedSession(acp<SetSessionConfigOptionRequest>('SetSessionConfigOptionRequest'));
export const closeSessionParams = boundedSession(acp<CloseSessionRequest>('CloseSessionRequest'));
export const deleteSessionParams = boundedSession(acp<DeleteSessionRequest>('DeleteSessionRequest'));
export const authenticateParams = acp<AuthenticateRequest>('AuthenticateRequest');
export const cancelRequestParams = acp<CancelRequestNotification>('CancelRequestNotification');

// ---- `_meta.zcode` of standard methods (docs/CLIENT-PROTOCOL.md "Methods") ----

/** `session/new` `_meta.zcode`: initial mode, model and thought level. */
export const newSessionMeta = z.object({
  mode: z.string().min(1).max(64).optional(),
  model: z.object({ providerId: z.string().min(1).max(256), modelId: z.string().min(1).max(256) }).optional(),
  thoughtLevel: z.string().min(1).max(64).optional(),
});

/** `session/set_config_option` `_meta.zcode`: the reasoning level to switch a model with (§11.11). */
export const setConfigOptionMeta = z.object({
  thoughtLevel: z.string().min(1).max(64).optional(),
});

/** `session/load` / `session/resume` `_meta.zcode`: where the client left off (ARCHITECTURE.md §4.2). */
export const attachMeta = z.object({
  afterSeq: z.number().int().min(0).optional(),
  epoch: z.string().max(128).optional(),
  limit: z.number().int().min(1).optional(),
  /** Multi-client draft role for this attachment (attach-methods.ts). */
  role: z.enum(['controller', 'observer']).optional(),
});

/** `session/list` `_meta.zcode`: archived sessions are left out unless asked for. */
export const listSessionsMeta = z.object({
  includeArchived: z.boolean().optional(),
});

/** Reads `params._meta.zcode` through `schema`; an absent block is `{}`. */
export function zcodeMeta<T extends z.ZodType>(
  schema: T,
  params: { _meta?: { [k: string]: unknown } | null },
): z.ZodSafeParseResult<z.infer<T>> {
  const raw = params._meta?.zcode;
  return schema.safeParse(raw ?? {}) as z.ZodSafeParseResult<z.infer<T>>;
}
