/**
 * The session snapshot (docs/APP-SERVER.md §3.6), defined once: what create, resume, read and the
 * setters answer, and what subscribe, fork, goal and compact embed. The simulator builds it to
 * the strict reading; the hub reads the session, the settings, the event seq and the messages
 * leniently (src/app-server/session-schemas.ts) and passes the rest through untyped.
 */
import { z } from 'zod';
import { DELIVERY_KINDS } from './events.js';
import { messageWithParts } from './history.js';
import { permissionOption, requestOrigin } from './interactions.js';
import { drift, message, unread } from './message.js';
import { goal, SESSION_MODES, SESSION_STATUSES, sessionInfo } from './session-info.js';
import { settings } from './settings.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();
const int0 = z.number().int().nonnegative();

const pendingPermission = message({
  requestId: strPlus,
  toolCallId: strPlus,
  toolName: strPlus,
  reason: z.string(),
  riskLevel: z.string(),
  input: z.unknown().optional(),
  origin: requestOrigin.optional(),
  options: permissionOption.list(1),
  requestedAt: z.number(),
});

const activeToolCall = message({
  toolCallId: strPlus,
  toolName: strPlus,
  status: z.enum(['pending', 'running', 'completed', 'failed', 'denied']),
  startedAt: z.number().optional(),
});

/** What the session is doing, as the CLI projects it; the hub reads none of it. */
const projection = message({
  sessionId: strPlus,
  status: z.enum(SESSION_STATUSES),
  mode: z.enum(SESSION_MODES),
  turnCount: int0,
  totalTokenCount: int0,
  contextUsed: int0,
  contextWindow: int0,
  currentTurnId: strPlus.optional(),
  pendingPermissions: pendingPermission.list(),
  activeToolCalls: activeToolCall.list(),
  backgroundJobs: z.array(z.looseObject({})),
  target: goal.strict.nullable().optional(),
  lastError: z
    .strictObject({
      type: strPlus,
      code: z.unknown().optional(),
      message: strPlus,
      detail: z.unknown().optional(),
      attribution: z.unknown().optional(),
    })
    .optional(),
});

const runtime = message({
  /** The last event seq (§5.2); a snapshot from an older CLI without it starts the hub at 0. */
  eventSeq: drift(int0, int0.default(0)),
  stateRevision: unread(int0),
  deliveryKind: unread(z.enum(DELIVERY_KINDS).optional()),
  /** Set only while a turn is actually running. */
  activeTurnId: drift(strPlus.optional(), optStr),
  activeTurnKind: unread(z.enum(['regular', 'compact', 'rewind']).optional()),
  pendingRequestIds: unread(z.array(z.string())),
  apiRetry: unread(
    z
      .looseObject({ kind: z.literal('api_retry') })
      .nullable()
      .optional(),
  ),
  contextUsage: unread(z.looseObject({ used: int0, size: z.number().int().positive() }).optional()),
  goalVerifications: unread(z.array(z.unknown()).optional()),
  goalVerificationTimeline: unread(z.array(z.unknown()).optional()),
});

const todo = message({
  content: strPlus,
  status: z.enum(['pending', 'in_progress', 'completed']),
  priority: z.enum(['high', 'medium', 'low']),
});

const slashCommand = message({
  name: strPlus,
  description: z.string(),
  inputHint: z.string().optional(),
  source: z.enum(['builtin', 'custom']).optional(),
});

export const snapshot = message({
  protocol: unread(z.strictObject({ name: z.literal('ZCode Protocol'), version: z.literal(1) })),
  session: sessionInfo.field(),
  settings: drift(settings.strict, settings.lenient.default({})),
  projection: unread(projection.strict),
  runtime: drift(runtime.strict, runtime.lenient.default({ eventSeq: 0 })),
  /** Each message is read on its own by the hub (src/acp/message-schema.ts): a bad one costs only itself. */
  messages: drift(z.array(messageWithParts.strict), z.array(z.unknown()).default([])),
  goalStats: unread(
    z
      .strictObject({
        timeUsedSeconds: int0,
        tokensUsed: int0,
        tokenBudget: z.number().int().positive().nullable(),
        contextUsed: int0,
        contextWindow: int0,
        toolCallCount: int0,
        iterationCount: int0,
      })
      .optional(),
  ),
  todos: unread(z.array(todo.strict).optional()),
  todoGroups: unread(
    z.array(z.looseObject({ id: z.string(), source: z.enum(['goal_iteration', 'session']), todos: z.array(todo.strict) })).optional(),
  ),
  /** Entries read one by one (src/acp/available-commands.ts): a bad one never fails the snapshot. */
  slashCommands: drift(z.array(slashCommand.strict).optional(), z.unknown().optional()),
});
/** A snapshot as the CLI sends it (what the simulator builds). */
export type StrictSnapshot = z.input<typeof snapshot.strict>;
