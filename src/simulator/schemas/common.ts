import { z } from 'zod';
import { modelSelection } from '../../wire/model.js';
import { SESSION_MODES, workspaceRef } from '../../wire/session-info.js';
import { strPlus } from '../../wire/text.js';

/** Shared wire types of APP-SERVER.md §3, strict on input. */
export { strPlus };
export const intGte0 = z.number().int().nonnegative();

/** §3.1 WorkspaceRef, strict: defined once with the hub's reading in src/wire/session-info.ts. */
export const WorkspaceRefSchema = workspaceRef.strict;
export type { WorkspaceRef } from '../../wire/session-info.js';

/** §3.2 ModelSelection, strict: defined once with the hub's reading in src/wire/model.ts. */
export const ModelSelectionSchema = modelSelection.strict;
export type { ModelSelection } from '../../wire/model.js';

/** The enums of §3.4, defined once in src/wire/session-info.ts. */
export { SESSION_MODES };
export type { SessionKind, SessionMode, SessionStatus, TitleSource } from '../../wire/session-info.js';
export const SessionModeSchema = z.enum(SESSION_MODES);

export const DeliveryKindSchema = z.enum(['desktop-continuous', 'web-remote-replayable']);

const hex64 = z.string().regex(/^[a-f0-9]{64}$/);
/** §3.3 ModelExecution (per-turn, non-persisted). */
export const ModelExecutionSchema = z.strictObject({
  selectionScope: z.literal('execution'),
  memoryExtraction: z.literal('skip').optional(),
  requestAuth: z
    .strictObject({
      apiKey: z.string().min(1).optional(),
      apiKeyId: strPlus.optional(),
      accountScope: hex64.optional(),
      headers: z.record(z.string().min(1), z.string().min(1)).optional(),
    })
    .optional(),
  subagents: z.strictObject({ foregroundModel: z.literal('submission'), background: z.literal('deny') }).optional(),
  selectionFallback: z
    .strictObject({
      providerId: z.string().min(1),
      rules: z
        .array(
          z.strictObject({
            reason: z.enum(['highspeed_card_expired', 'highspeed_request_failed']),
            providerErrorCode: z.string().optional(),
          }),
        )
        .min(1),
      target: ModelSelectionSchema.optional(),
    })
    .optional(),
});

const NameValue = z.strictObject({ name: z.string(), value: z.string() });
const McpCommon = {
  name: strPlus,
  isolation: z.enum(['session', 'workspace']).optional(),
  protocolVersion: z.enum(['legacy', 'auto', '2026-07-28']).optional(),
  timeoutMs: z.number().int().positive().optional(),
};
/** §4.1 McpServer (strict union of stdio and remote). */
export const McpServerSchema = z.union([
  z.strictObject({ ...McpCommon, command: strPlus, args: z.array(z.string()), env: z.array(NameValue) }),
  z.strictObject({ ...McpCommon, type: z.enum(['http', 'sse']), url: strPlus, headers: z.array(NameValue), oauth: z.unknown().optional() }),
]);

export const DynamicWorkflowModeSchema = z.enum(['alwaysOn', 'onDemand']);

/** Present in strict form on the wire; the simulator ignores their effect (§4.1). */
export const RuntimeSurfaceParams = {
  mcpServers: z.array(McpServerSchema).optional(),
  toolAllowlist: z.array(strPlus).optional(),
  toolDenylist: z.array(strPlus).optional(),
  offPeakToolEnabled: z.boolean().optional(),
  dynamicWorkflowEnabled: z.boolean().optional(),
  dynamicWorkflowMode: DynamicWorkflowModeSchema.optional(),
};
