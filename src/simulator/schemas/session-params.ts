import { z } from 'zod';
import {
  DeliveryKindSchema,
  intGte0,
  ModelExecutionSchema,
  ModelSelectionSchema,
  RuntimeSurfaceParams,
  SessionModeSchema,
  strPlus,
  WorkspaceRefSchema,
} from './common.js';
import { permissionResponse, userInputResult } from '../../wire/interactions.js';

/** Strict params of the legacy session methods (APP-SERVER.md §4). */
const ImportedMessage = z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string(), timestamp: z.number().optional() });
const ImportedHistory = z.union([
  z.strictObject({
    source: z.literal('claudeCode'),
    title: z.string().optional(),
    createdAt: z.number().optional(),
    updatedAt: z.number().optional(),
    messages: z.array(ImportedMessage).min(1),
  }),
  z.looseObject({ source: z.literal('sharedContext') }),
]);

export const CreateParams = z.strictObject({
  workspace: WorkspaceRefSchema,
  mode: SessionModeSchema.optional(),
  model: ModelSelectionSchema.optional(),
  thoughtLevel: strPlus.optional(),
  persistence: z.enum(['immediate', 'deferred']).optional(),
  titleGenerationEnabled: z.boolean().optional(),
  parentSessionId: strPlus.optional(),
  importedHistory: ImportedHistory.optional(),
  sessionId: strPlus.optional(),
  ...RuntimeSurfaceParams,
});

export const ResumeParams = z.strictObject({
  sessionId: strPlus,
  workspace: WorkspaceRefSchema.optional(),
  thoughtLevel: strPlus.optional(),
  ...RuntimeSurfaceParams,
});

export const ListParams = z
  .strictObject({
    workspace: WorkspaceRefSchema.optional(),
    sessionIds: z.array(strPlus).min(1).max(64).optional(),
    includeArchived: z.boolean().optional(),
    limit: z.number().int().positive().optional(),
  })
  .optional();

export const ReadParams = z.strictObject({
  sessionId: strPlus,
  deliveryKind: DeliveryKindSchema.optional(),
  messageLimit: z.number().int().positive().optional(),
  afterSeq: intGte0.optional(),
  contentProfile: z.enum(['full', 'index']).optional(),
});
export const MessagesParams = z.strictObject({
  sessionId: strPlus,
  afterMessageId: strPlus.optional(),
  limit: z.number().int().positive().optional(),
});
export const EventsParams = z.strictObject({
  sessionId: strPlus,
  afterSeq: intGte0.optional(),
  limit: z.number().int().positive().optional(),
});
export const SubscribeParams = z.strictObject({
  sessionId: strPlus,
  deliveryKind: DeliveryKindSchema,
  afterSeq: intGte0.optional(),
  includeSnapshot: z.boolean().optional(),
});

const Attachment = z.looseObject({ kind: z.string() });
export const SendParams = z.strictObject({
  sessionId: strPlus,
  content: z.string(),
  modelSelection: ModelSelectionSchema.optional(),
  modelExecution: ModelExecutionSchema.optional(),
  inputId: strPlus.optional(),
  queryId: strPlus.optional(),
  attachments: z.array(Attachment).optional(),
  browserAmbientContext: z
    .strictObject({ tabCount: z.number().int().min(1).max(100), currentUrl: z.string().min(1).max(4096).optional() })
    .optional(),
  expectedRevision: intGte0.optional(),
  expectedProviderRevision: strPlus.optional(),
  automationId: strPlus.optional(),
  offPeakTaskId: strPlus.optional(),
  offPeakRunType: z.enum(['init', 'resume']).optional(),
  botDeliveryTarget: z.looseObject({}).optional(),
  toolDenylist: z.array(strPlus).optional(),
});

export const SessionIdParams = z.strictObject({ sessionId: strPlus });
export const CancelBackgroundTaskParams = z.strictObject({ sessionId: strPlus, taskId: strPlus });
export const ForkParams = z.strictObject({
  sessionId: strPlus,
  target: z
    .union([
      z.strictObject({ kind: z.literal('turn'), turnIndex: intGte0 }),
      z.strictObject({ kind: z.literal('message'), messageId: strPlus }),
      z.strictObject({ kind: z.literal('checkpoint'), checkpointId: strPlus }),
      z.strictObject({ kind: z.literal('latestCheckpoint') }),
    ])
    .optional(),
  expectedRevision: intGte0.optional(),
});
export const GoalParams = z.strictObject({
  sessionId: strPlus,
  action: z.enum(['show', 'set', 'replace', 'pause', 'resume', 'clear']),
  objective: z.string().optional(),
  inputId: strPlus.optional(),
  expectedRevision: intGte0.optional(),
});
export const CompactParams = z.strictObject({
  sessionId: strPlus,
  inputId: strPlus.optional(),
  instructions: z.string().optional(),
  expectedRevision: intGte0.optional(),
});
export const SetModeParams = z.strictObject({ sessionId: strPlus, mode: SessionModeSchema, expectedRevision: intGte0.optional() });
export const SetThoughtLevelParams = z.strictObject({
  sessionId: strPlus,
  thoughtLevel: strPlus.optional(),
  expectedRevision: intGte0.optional(),
  persistAsWorkspaceLastUsed: z.boolean().optional(),
});
export const SetModelParams = z.strictObject({
  sessionId: strPlus,
  model: ModelSelectionSchema,
  expectedRevision: intGte0.optional(),
  persistAsWorkspaceLastUsed: z.boolean().optional(),
});
export const CloseParams = z.strictObject({ sessionId: strPlus, expectedPersistence: z.enum(['immediate', 'deferred']).optional() });
export const SubagentsParams = z.strictObject({
  sessionId: strPlus,
  endedCursor: strPlus.optional(),
  endedLimit: z.number().int().min(1).max(100).optional(),
});
export const TestConnectivityParams = z.strictObject({ workspace: WorkspaceRefSchema, selection: ModelSelectionSchema });

/** Reverse-request result schemas (§6.1–6.3), strict. */
export const RuntimePreferencesResult = z.strictObject({
  nativeSearchEnhancementsEnabled: z.boolean(),
  memoryEnabled: z.boolean().optional(),
  askUserQuestionAutoResolutionEnabled: z.boolean().optional(),
  subagentRuntimeConfigEnabled: z.boolean().optional(),
  integratedTerminalShell: z.unknown().optional(),
  modelContextBudgetStrategy: z.enum(['legacy', 'preflight-v1']).optional(),
});
export type RuntimePreferences = z.infer<typeof RuntimePreferencesResult>;

/** The interaction answers (§6.2, §6.3), strict: defined once with the hub's reading in src/wire/interactions.ts. */
export const PermissionResponseSchema = permissionResponse.strict;
export type { PermissionResponse, UserInputResult } from '../../wire/interactions.js';
export const UserInputResultSchema = userInputResult.strict;
