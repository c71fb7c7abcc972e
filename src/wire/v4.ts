/**
 * The v4 command envelope and its ACK (docs/APP-SERVER.md §7.1, §7.2), each defined once. The
 * simulator builds the ACK to the strict reading; the hub reads it leniently
 * (src/app-server/session-schemas.ts). Refusals are ACKs, not JSON-RPC errors.
 */
import { z } from 'zod';
import { drift, message } from './message.js';
import { strPlus } from './text.js';

export const ACK_STATUSES = ['accepted', 'rejected', 'stale', 'duplicate', 'noop', 'failed'] as const;

export const commandAck = message({
  commandId: z.string(),
  status: z.enum(ACK_STATUSES),
  /** Always sent; the hub does not need it to act on the ACK, so an ACK without it still counts. */
  revisionAtDecision: drift(z.number(), z.number().optional()),
  reasonCode: z.string().optional(),
  message: z.string().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
});
export type CommandAck = z.infer<typeof commandAck.lenient>;
/** An ACK as the CLI sends it. */
export type StrictCommandAck = z.infer<typeof commandAck.strict>;

/**
 * Every v4 command type of §7.3, defined once, with whether it needs `baseRevision` (`cas`: the
 * command is refused without it and is `stale` when the session moved on, §7.2). The hub sends
 * only these (src/app-server/client.ts) and the simulator's handler table must name each one,
 * with its handler or as not simulated (src/simulator/methods/v4-command-handlers.ts), so a type
 * added here without a decision there does not compile.
 */
export const V4_COMMANDS = {
  sendText: 'plain',
  stop: 'plain',
  compact: 'plain',
  resolveInteraction: 'plain',
  snoozeInteractionAutoResolution: 'plain',
  startSavedWorkflow: 'plain',
  resumeWorkflowRun: 'plain',
  cancelBackgroundWork: 'plain',
  renameSession: 'plain',
  deleteSession: 'plain',
  switchCollaborationMode: 'cas',
  switchModelConfig: 'cas',
  setFollowupMode: 'cas',
  pauseGoal: 'cas',
  resumeGoal: 'cas',
  forkAssistant: 'cas',
  applyFileRewind: 'cas',
  editUserQuery: 'cas',
  retryTurn: 'cas',
  setAssistantFeedback: 'cas',
  sendQueuedNow: 'cas',
  editQueueItem: 'cas',
  reorderQueueItem: 'cas',
  deleteQueueItem: 'cas',
  setAutoDrain: 'cas',
  sendGoalCommand: 'plain',
  createSession: 'plain',
  createSelectionSideSession: 'plain',
  setHighspeedMetrics: 'plain',
  amendWorkflowRunSettings: 'plain',
  discardSharedContext: 'plain',
  respondWorkspaceHookReview: 'plain',
  toggleWorkspaceHookReviewItem: 'plain',
  revokeWorkspaceHookTrust: 'plain',
  requestWorkspaceHookReview: 'plain',
} as const satisfies Record<string, 'cas' | 'plain'>;
export const V4_COMMAND_TYPES = Object.keys(V4_COMMANDS) as Array<keyof typeof V4_COMMANDS>;
export type V4CommandType = keyof typeof V4_COMMANDS;

/**
 * The v4 command envelope (§7.1), defined once: the hub builds it (src/app-server/client.ts)
 * and the simulator reads it as the CLI does. Unlike the legacy params this input is not
 * strict on the CLI either — extra keys pass — so one reading serves both sides.
 */
export const commandEnvelope = z.looseObject({
  commandId: z.string(),
  clientId: z.string(),
  sessionId: z.string().nullable(),
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  issuedAt: z.number(),
  baseRevision: z.number().optional(),
  baseLogEpoch: strPlus.optional(),
  ttft: z.unknown().optional(),
});
export type CommandEnvelope = z.infer<typeof commandEnvelope>;
