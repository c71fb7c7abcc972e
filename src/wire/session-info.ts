/**
 * SessionInfo (docs/APP-SERVER.md §3.5) and what it is made of, defined once: a `session/list`
 * entry and a snapshot's `session`. The simulator builds it to the strict reading; the hub reads
 * it leniently (src/app-server/session-schemas.ts), where only the id is required.
 */
import { z } from 'zod';
import { drift, message, unread } from './message.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();
const int0 = z.number().int().nonnegative();

/** The enums of §3.4; the hub reads each as any string (they have grown before). */
export const SESSION_MODES = ['plan', 'build', 'edit', 'yolo', 'guarded', 'auto'] as const;
export const SESSION_STATUSES = ['idle', 'running', 'waiting', 'paused', 'completed', 'error'] as const;
export const SESSION_KINDS = [
  'interactive',
  'fork',
  'selection_side_chat',
  'workflow_parent',
  'workflow_child',
  'subagent_child',
  'nested_workflow_child',
] as const;
export const TITLE_SOURCES = ['default', 'first_input', 'generated', 'custom'] as const;
export type SessionMode = (typeof SESSION_MODES)[number];
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export type SessionKind = (typeof SESSION_KINDS)[number];
export type TitleSource = (typeof TITLE_SOURCES)[number];

/** WorkspaceRef (§3.1): locally the key equals the path. */
export const workspaceRef = message({
  workspacePath: drift(strPlus, z.string()),
  workspaceKey: unread(strPlus),
  workspaceIdentity: unread(strPlus.optional()),
  remoteSessionId: unread(strPlus.optional()),
});
export type WorkspaceRef = z.infer<typeof workspaceRef.strict>;

/** A session's model: provider and model only, no options. */
export const modelRef = message({ providerId: drift(strPlus, optStr), modelId: drift(strPlus, optStr) });

/** A goal (§3.6 "Goal"): `session.target`, `projection.target`. */
export const goal = message({
  sessionId: strPlus,
  targetId: strPlus,
  objective: z.string(),
  summaryTitle: z.string().nullable(),
  status: z.enum(['active', 'paused', 'budget_limited', 'complete']),
  tokenBudget: z.number().int().positive().nullable(),
  tokensUsed: int0,
  timeUsedSeconds: z.number().nonnegative(),
  activeInputId: z.string().nullable().optional(),
  activeRunStartedAtMs: z.number().nullable().optional(),
  activeRunLastSeenAtMs: z.number().nullable().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Goal = z.infer<typeof goal.strict>;

export const sessionInfo = message({
  sessionId: drift(strPlus, z.string().min(1)),
  workspace: drift(workspaceRef.strict, workspaceRef.lenient.optional()),
  parentSessionId: unread(strPlus.optional()),
  traceId: unread(strPlus.optional()),
  sessionKind: unread(z.enum(SESSION_KINDS)),
  /** May be `""`; an older CLI without it has an untitled session. */
  title: drift(z.string(), z.string().default('')),
  titleSource: unread(z.enum(TITLE_SOURCES).optional()),
  mode: drift(z.enum(SESSION_MODES), optStr),
  status: drift(z.enum(SESSION_STATUSES), optStr),
  model: modelRef.optional(),
  target: unread(goal.strict.nullable().optional()),
  createdAt: drift(z.number(), z.number().optional()),
  updatedAt: drift(z.number(), z.number().optional()),
  /** Archived in the ZCode app; the hub's own flag (session-marks.ts) overrides it. */
  archivedAt: z.number().optional(),
});
/** SessionInfo as the CLI sends it. */
export type StrictSessionInfo = z.infer<typeof sessionInfo.strict>;
/** SessionInfo as the hub reads it. */
export type SessionInfo = z.infer<typeof sessionInfo.lenient>;
