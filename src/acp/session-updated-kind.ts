/**
 * `session.updated` is a bag of ~40 internal event kinds sent without their name
 * (APP-SERVER.md §5.5.9, §11 #13): recognise the ones the hub shows by their keys.
 */
import { z } from 'zod';
import { modelSelectionSchema, usageSchema } from './zcode-event-schema.js';

const optStr = z.string().optional();
const optNum = z.number().optional();

/** background_task_started / _updated / _completed (`taskId` + `status`). */
export const backgroundTaskSchema = z.looseObject({
  taskId: z.string().min(1),
  status: z.string(),
  toolCallId: optStr,
  toolName: optStr,
  taskKind: optStr,
  childSessionId: optStr,
  command: optStr,
  description: optStr,
  outputTail: optStr,
  stdoutTail: optStr,
  stderrTail: optStr,
  outputPath: optStr,
  cancelRequestedAt: z.unknown().optional(),
  startedAt: optStr,
  completedAt: optStr,
});
export type BackgroundTaskPayload = z.infer<typeof backgroundTaskSchema>;

/** model_complete (`stopReason` + `usage`). */
export const modelCompleteSchema = z.looseObject({
  content: z.unknown().optional(),
  stopReason: z.string(),
  usage: usageSchema,
  contextWindow: optNum,
  querySource: optStr,
});

/** model_selected (`modelSelection`). */
export const modelSelectedSchema = z.looseObject({
  modelSelection: modelSelectionSchema,
  effectiveReasoningLevel: optStr,
  previousModelSelection: modelSelectionSchema.optional(),
  contextWindow: optNum,
});

/** session_mode_changed (`mode` + `previousMode`). */
export const modeChangedSchema = z.looseObject({ mode: z.string(), previousMode: z.string(), source: optStr });

/** A todo list carried by a session update (not in §5.5.9's table; accepted leniently). */
export const todosUpdateSchema = z.looseObject({ todos: z.array(z.unknown()) });

/** The `session.updated` variants the translator distinguishes. */
export type SessionUpdatedKind =
  | { kind: 'background_task'; payload: BackgroundTaskPayload }
  | { kind: 'model_complete'; payload: z.infer<typeof modelCompleteSchema> }
  | { kind: 'model_selected'; payload: z.infer<typeof modelSelectedSchema> }
  | { kind: 'mode_changed'; payload: z.infer<typeof modeChangedSchema> }
  | { kind: 'todos'; payload: z.infer<typeof todosUpdateSchema> }
  | { kind: 'other' };

function has(payload: Record<string, unknown>, ...keys: string[]): boolean {
  return keys.every((k) => payload[k] !== undefined);
}

/** Classifies a `session.updated` payload by its keys (§5.5.9 "Recognise by"). */
export function classifySessionUpdated(payload: Record<string, unknown>): SessionUpdatedKind {
  if (has(payload, 'taskId', 'status')) {
    const r = backgroundTaskSchema.safeParse(payload);
    if (r.success) return { kind: 'background_task', payload: r.data };
  }
  if (has(payload, 'stopReason', 'usage')) {
    const r = modelCompleteSchema.safeParse(payload);
    if (r.success) return { kind: 'model_complete', payload: r.data };
  }
  if (has(payload, 'modelSelection')) {
    const r = modelSelectedSchema.safeParse(payload);
    if (r.success) return { kind: 'model_selected', payload: r.data };
  }
  if (has(payload, 'mode', 'previousMode')) {
    const r = modeChangedSchema.safeParse(payload);
    if (r.success) return { kind: 'mode_changed', payload: r.data };
  }
  if (has(payload, 'todos')) {
    const r = todosUpdateSchema.safeParse(payload);
    if (r.success) return { kind: 'todos', payload: r.data };
  }
  // model_request, model_network_status, target_changed, compaction, subagent_*, model_error,
  // autoResolution and the rest: nothing a client renders (§5.5.9 "others").
  return { kind: 'other' };
}
