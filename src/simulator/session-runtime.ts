import { randomUUID } from 'node:crypto';
import type { EventDraft } from './coalescer.js';
import { EventLog, type SessionEvent } from './event-log.js';
import type { ModelSelection } from './schemas/common.js';
import type { RuntimePreferences } from './schemas/session-params.js';
import { emptyUsage, type StoredMessage, type StoredSession, type SubagentRecord, type UsageCounters } from './session-store.js';
import type { EventType, StrictPayload } from '../wire/event-payloads.js';
import type { PermissionOption } from '../wire/interactions.js';
import type { Goal, StrictSessionInfo } from '../wire/session-info.js';
import type { StrictCommandAck } from '../wire/v4.js';

/** §3.5 SessionInfo, as the strict reading of its one definition (src/wire/session-info.ts) types it. */
export type SessionInfo = StrictSessionInfo;
export type { Goal };

export interface Todo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  priority: 'high' | 'medium' | 'low';
}

/** §5.5.9 background task (also `projection.backgroundJobs`). */
export interface BackgroundTask {
  taskId: string;
  status: 'running' | 'completed' | 'failed' | 'timed_out' | 'cancelled' | 'spawn_error' | 'lost';
  toolCallId?: string;
  toolName?: string;
  taskKind: 'bash' | 'subagent' | 'workflow';
  command?: string;
  description?: string;
  cancellable: boolean;
  startedAt: string;
  completedAt?: string;
  cancelRequestedAt?: string;
  outputTail?: string;
  stdoutTail?: string;
  pid?: number;
}

export interface PendingPermission {
  requestId: string;
  toolCallId: string;
  toolName: string;
  reason: string;
  riskLevel: string;
  input?: unknown;
  options: PermissionOption[];
  requestedAt: number;
}

export type TurnOrigin = 'legacy' | 'v4' | 'background' | 'workflow';

/** The turn currently executing on a runtime. */
export interface ActiveTurn {
  turnId: string;
  origin: TurnOrigin;
  kind: 'regular' | 'compact';
  abort: AbortController;
  foregroundExecutionId: string;
  /** Fault `--silent-stop`: stopped without any terminal event; the lock is freed silently later. */
  silent?: boolean;
  /** Inputs steered into this turn (`requestedDelivery:"guide"`), drained at a tool boundary. */
  steerInbox: { pendingInputId: string; text: string; source?: 'plan_approval_feedback' }[];
}

/** The v4 command ACK as the CLI sends it (the strict reading of src/wire/v4.ts). */
export type V4Ack = StrictCommandAck;

/** Emission hooks the runtime needs from the process (writer, crash counter). */
export interface RuntimeSink {
  sessionEvent(event: SessionEvent): void;
  notify(method: string, params: object): void;
  persist(runtime: SessionRuntime): void;
}

export const DEFAULT_PREFERENCES: Required<
  Pick<
    RuntimePreferences,
    'nativeSearchEnhancementsEnabled' | 'memoryEnabled' | 'askUserQuestionAutoResolutionEnabled' | 'modelContextBudgetStrategy'
  >
> = {
  nativeSearchEnhancementsEnabled: true,
  memoryEnabled: false,
  askUserQuestionAutoResolutionEnabled: true,
  modelContextBudgetStrategy: 'preflight-v1',
};

/** Ids in the CLI's style: `sess_…`, `turn_…`, `msg_…`, `prt_…`, `call_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
}

/**
 * One session runtime: everything that exists only while the session is active in this
 * process (§4 "active session"). Persisted fields are mirrored to the SessionStore.
 */
export class SessionRuntime {
  readonly log: EventLog;
  readonly traceId = randomUUID().replace(/-/g, '');
  persistence: 'immediate' | 'deferred';
  thoughtLevel: string | undefined;
  stateRevision = 0;
  v4Revision = 0;
  turnCount: number;
  usage: UsageCounters;
  messages: StoredMessage[];
  contextUsed = 0;
  currentTurnId: string | undefined;
  prefs: RuntimePreferences = { ...DEFAULT_PREFERENCES };
  promptLock = false;
  /** Fault `--silent-stop`: the lock is held by a turn that already ended silently. */
  silentLock = false;
  /** A legacy stop that arrived after the ACK but before the turn started (§4.9). */
  stopRequested = false;
  /** Fault `--late-stop`: the stopped turn, left running until the next `session/send` arrives. */
  lateStop: ActiveTurn | undefined;
  activeTurn: ActiveTurn | undefined;
  /** Serialises turn execution: queued inputs and background follow-ups run one after another. */
  turnChain: Promise<void> = Promise.resolve();
  pendingPermissions: PendingPermission[] = [];
  pendingRequestIds = new Set<string>();
  activeToolCalls: {
    toolCallId: string;
    toolName: string;
    status: 'pending' | 'running' | 'completed' | 'failed' | 'denied';
    startedAt?: number;
  }[] = [];
  backgroundJobs = new Map<string, BackgroundTask>();
  /** Timers driving background tasks; cleared when the runtime is forgotten. */
  readonly backgroundTimers = new Map<string, NodeJS.Timeout[]>();
  todos: Todo[] = [];
  goal: Goal | null = null;
  lastError: { type: string; message: string; code?: string } | undefined;
  followupMode: 'queue' | 'guide' = 'queue';
  /** Set when the persisted model no longer resolves: send/compact fail with -32031 (§4.2). */
  restoreWarning: string | undefined;
  readonly v4Acks = new Map<string, V4Ack | Promise<V4Ack>>();
  /** Set on sub-agent children only (`sessionKind: subagent_child`, §4.16). */
  subagent: SubagentRecord | undefined;
  closed = false;

  constructor(
    public info: SessionInfo,
    persistence: 'immediate' | 'deferred',
    private readonly sink: RuntimeSink,
    coalesce: boolean,
    stored?: StoredSession,
    retention?: number,
  ) {
    this.persistence = persistence;
    this.turnCount = stored?.turnCount ?? 0;
    this.usage = stored?.usage ?? emptyUsage();
    this.messages = stored?.messages ?? [];
    this.thoughtLevel = stored?.thoughtLevel;
    this.subagent = stored?.subagent;
    this.log = new EventLog(
      (e) => {
        if (!this.closed) this.sink.sessionEvent(e);
      },
      coalesce,
      retention,
    );
  }

  get sessionId(): string {
    return this.info.sessionId;
  }

  /** The session's selection including the thought level as `options.reasoningLevel`. */
  currentSelection(): ModelSelection | undefined {
    const m = this.info.model;
    if (!m) return undefined;
    return { ...m, ...(this.thoughtLevel ? { options: { reasoningLevel: this.thoughtLevel } } : {}) };
  }

  /** Appends a session event (visible unless it is a filtered internal marker, §5.4). */
  emit<K extends EventType>(type: K, payload: StrictPayload<K>, turnId?: string, visible = true): void {
    if (this.closed) return;
    const draft: EventDraft = {
      eventId: randomUUID(),
      sessionId: this.sessionId,
      timestamp: Date.now(),
      type,
      payload,
      traceId: this.traceId,
      ...(turnId ? { turnId } : {}),
    };
    this.log.append(draft, visible);
  }

  /** Writes `state.updated` (§5.8); `patch` defaults to the Settings object given by the caller. */
  stateUpdated(reason: string, patch: unknown): void {
    if (this.closed) return;
    this.stateRevision++;
    this.sink.notify('state.updated', {
      type: 'state.updated',
      scope: 'session',
      workspace: this.info.workspace,
      sessionId: this.sessionId,
      revision: this.stateRevision,
      reason,
      patch,
    });
  }

  /** `computer-use/operation-event` lifecycle metadata (§5.8), ungated by subscription. */
  operationEvent(kind: string, extra: Record<string, unknown>): void {
    if (this.closed) return;
    this.sink.notify('computer-use/operation-event', {
      eventId: randomUUID(),
      sequenceNumber: this.stateRevision,
      sessionId: this.sessionId,
      timestamp: Date.now(),
      kind,
      ...extra,
    });
  }

  touch(): void {
    this.info.updatedAt = Date.now();
  }

  /** Persists info + messages unless the session is still a deferred draft (§4.1). */
  persist(): void {
    if (this.persistence === 'deferred' || this.closed) return;
    this.sink.persist(this);
  }

  toStored(): StoredSession {
    return {
      version: 1,
      info: { ...this.info },
      ...(this.thoughtLevel ? { thoughtLevel: this.thoughtLevel } : {}),
      turnCount: this.turnCount,
      usage: this.usage,
      messages: this.messages,
      ...(this.subagent ? { subagent: this.subagent } : {}),
    };
  }
}
