import { z } from 'zod';
import { commandEnvelope, V4_COMMAND_TYPES, V4_COMMANDS, type V4CommandType } from '../../wire/v4.js';
import { ModelSelectionSchema, strPlus } from './common.js';

/** The v4 command envelope (§7.1), not strict on the CLI either: defined once with the hub's builder in src/wire/v4.ts. */
export const CommandEnvelopeSchema = commandEnvelope;
export type { CommandEnvelope } from '../../wire/v4.js';

/** Payload schemas of the implemented command types (§7.3), loose like the CLI's. */
export const PAYLOADS = {
  sendText: z.looseObject({
    text: z.string(),
    requestedDelivery: z.enum(['startNow', 'queue', 'guide']).optional(),
    modelSelection: ModelSelectionSchema.optional(),
    attachments: z.array(z.unknown()).optional(),
  }),
  stop: z.looseObject({ expectedForegroundExecutionId: z.string().optional() }),
  compact: z.looseObject({}),
  resolveInteraction: z.looseObject({
    interactionId: strPlus,
    answer: z.looseObject({
      optionId: z.string().optional(),
      freeText: z.string().optional(),
      action: z.enum(['accept', 'decline', 'cancel']).optional(),
      content: z.record(z.string(), z.unknown()).optional(),
    }),
  }),
  snoozeInteractionAutoResolution: z.looseObject({ interactionId: strPlus }),
  startSavedWorkflow: z.looseObject({
    name: z.string().min(1),
    scope: z.enum(['project', 'global']).optional(),
    args: z.record(z.string(), z.unknown()).optional(),
  }),
  resumeWorkflowRun: z.looseObject({ workId: strPlus, name: z.string().optional() }),
  cancelBackgroundWork: z.looseObject({ workId: strPlus }),
  renameSession: z.looseObject({ title: z.string() }),
  deleteSession: z.looseObject({}),
  switchCollaborationMode: z.looseObject({ mode: z.enum(['build', 'edit', 'plan', 'yolo', 'guarded']) }),
  switchModelConfig: z.looseObject({ provider: strPlus, model: strPlus, thought: z.string().nullable().optional() }),
  setFollowupMode: z.looseObject({ mode: z.enum(['queue', 'guide']) }),
  pauseGoal: z.looseObject({}),
  resumeGoal: z.looseObject({}),
} as const satisfies Partial<Record<V4CommandType, z.ZodType>>;
export type ImplementedCommand = keyof typeof PAYLOADS;

/** Types that need `baseRevision` (CAS, §7.3). */
export const CAS_TYPES: ReadonlySet<string> = new Set(V4_COMMAND_TYPES.filter((t) => V4_COMMANDS[t] === 'cas'));

/** Every command type of §7.3 (known but not simulated → `failed fault.command.notImplemented`). */
export const KNOWN_TYPES: ReadonlySet<string> = new Set<string>(V4_COMMAND_TYPES);

export const CommandsQueryParams = z
  .strictObject({
    commands: z
      .array(z.strictObject({ sessionId: z.string().nullable(), commandId: strPlus }))
      .min(1)
      .max(64),
    clock: z.literal(true).optional(),
  })
  .refine((p) => !p.clock || p.commands.every((c) => c.sessionId === null), { message: 'clock is only allowed with null sessionIds' });
