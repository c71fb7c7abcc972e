/**
 * What the hub knows about one ZCode session (ARCHITECTURE.md §4.1). The session id is the ZCode
 * id everywhere; there is no second id space.
 */
import type { AvailableCommand, SessionConfigOption, SessionUpdate } from '@agentclientprotocol/sdk';
import { OpenToolCalls } from '../../acp/open-tool-calls.js';
import { configOptions, type KnownModel } from '../../acp/translate-state.js';
import { createTranslationContext, type TranslationContext } from '../../acp/translation-context.js';
import type { SettingsPatch } from '../../acp/zcode-event-schema.js';
import { SessionAttachments } from '../delivery/attachments.js';
import { Journal, type JournalLimits } from './journal.js';
import type { TurnEnded } from '../../acp/turn-ended.js';
import { PromptQueue } from '../prompts/prompt-queue.js';
import { TaskOutputs, type TaskOutputLimits } from '../prompts/task-outputs.js';
import type { PreviewDraft } from './session-preview.js';
import { Subscription } from './subscription.js';
import { Turn, type TailHooks } from '../prompts/turn.js';
import type { Limits } from '../../limits.js';

export type { TurnState } from '../prompts/turn.js';

/** What a snapshot of the session says (session-open.ts folds `session/create|resume` answers). */
export interface SessionFacts {
  title: string;
  archived: boolean;
  /** The workspace the child reports, when it reports one. */
  cwd: string | undefined;
  settings: SettingsPatch;
  /** Every model of the registry, when the snapshot lists them all. */
  models: KnownModel[] | undefined;
}

/** What one session keeps at most: journal, task outputs, a subscribe's held events, open tool calls. */
export type SessionLimits = JournalLimits & { taskOutputs: TaskOutputLimits; heldMax: number; openToolsMax: number };

/** A session's bounds from the hub's named limits. */
export function sessionLimits(l: Readonly<Limits>): SessionLimits {
  return {
    maxUpdates: l.journalMaxUpdates,
    maxBytes: l.journalMaxBytes,
    taskOutputs: { maxChars: l.taskOutputMaxChars, maxTasks: l.taskOutputsMax },
    heldMax: l.subscribeBufferMaxEvents,
    openToolsMax: l.openToolCallsMax,
  };
}

/**
 * Per-session state. Read by anyone; changed only through the methods below, each saying what
 * happened, and by the parts it owns (turn, journal, queue, subscription).
 */
export class SessionState {
  private cwdValue: string;
  private titleValue = '';
  private settingsValue: SettingsPatch = {};
  private modelsValue: KnownModel[] = [];
  private commandsValue: AvailableCommand[] = [];
  private retired = false;
  private archived = false;
  private updated = Date.now();
  private draft: PreviewDraft | undefined;
  /** The turn state machine; the only place the turn state changes (turn.ts). */
  readonly turn: Turn;
  /** Who is attached, and who the session's updates go to (attachments.ts). */
  readonly attachments = new SessionAttachments();
  /** Whether the hub follows the session's live events, the last ZCode seq, what a subscribe holds (subscription.ts). */
  readonly subscription: Subscription;
  readonly translation: TranslationContext;
  readonly journal: Journal;
  /** The output so far of the session's background tasks (late joiners, reloads). */
  readonly taskOutputs: TaskOutputs;
  private usage: SessionUpdate | undefined;
  readonly queue = new PromptQueue();
  /** The tool calls announced and not finished (closed for everyone when a turn ends other than normally). */
  readonly openTools: OpenToolCalls;

  constructor(
    readonly sessionId: string,
    cwd: string,
    limits: SessionLimits,
    epoch: string,
    turnHooks: {
      publish: () => void;
      announce: (ended: TurnEnded) => void;
      settled: () => void;
      tail?: TailHooks;
      toolsEnded?: (close: boolean) => void;
    },
  ) {
    this.taskOutputs = new TaskOutputs(limits.taskOutputs);
    this.cwdValue = cwd;
    this.subscription = new Subscription(limits.heldMax);
    this.openTools = new OpenToolCalls(limits.openToolsMax);
    this.turn = new Turn(turnHooks.publish, turnHooks.announce, turnHooks.tail, turnHooks.settled, turnHooks.toolsEnded);
    this.journal = new Journal(limits, epoch);
    this.translation = createTranslationContext(sessionId);
  }

  get cwd(): string {
    return this.cwdValue;
  }

  get title(): string {
    return this.titleValue;
  }

  /** Latest ZCode Settings (snapshot or `state.updated` patch, §3.6). */
  get settings(): SettingsPatch {
    return this.settingsValue;
  }

  /** Every model of the registry, learned from create/resume snapshots (mutation snapshots list one). */
  get allModels(): readonly KnownModel[] {
    return this.modelsValue;
  }

  /** The agent's slash commands from the latest snapshot that listed them (domain/sessions/command-notices.ts). */
  get commands(): AvailableCommand[] {
    return this.commandsValue;
  }

  /**
   * Closed from zcode-acp-remote's session list: hidden from its discovery routes until the
   * session is used again (a prompt, or a load with history), as that app's close means.
   */
  get retiredFromDiscovery(): boolean {
    return this.retired;
  }

  /** Archived in the ZCode app itself (`archivedAt`, APP-SERVER.md §3.5). */
  get appArchived(): boolean {
    return this.archived;
  }

  get updatedAt(): number {
    return this.updated;
  }

  /** The last `usage_update` sent (the context meter): a replay ends with it, so every client shows the same meter. */
  get lastUsage(): SessionUpdate | undefined {
    return this.usage;
  }

  /** The message being folded into the session's preview (session-preview.ts). */
  get previewDraft(): PreviewDraft | undefined {
    return this.draft;
  }

  /** A snapshot of the session came (create, resume, fork, a reload after a seq reset). */
  fold(facts: SessionFacts): void {
    this.titleValue = facts.title;
    this.archived = facts.archived;
    if (facts.cwd) this.cwdValue = facts.cwd;
    this.settingsValue = facts.settings;
    if (facts.models) this.modelsValue = facts.models;
  }

  /** Settings changed (a `state.updated` patch, a mutation's answer, a mode or model signal). */
  mergeSettings(patch: SettingsPatch): void {
    this.settingsValue = { ...this.settingsValue, ...patch };
  }

  /** The session got a new title (generated, or renamed by a client). */
  retitle(title: string): void {
    this.titleValue = title;
  }

  /** The agent's slash commands changed. */
  setCommands(commands: AvailableCommand[]): void {
    this.commandsValue = commands;
  }

  /** Closed from zcode-acp-remote's list (`true`), or used again (`false`). */
  markRetired(retired: boolean): void {
    this.retired = retired;
  }

  /** The preview's message so far (session-preview.ts folds each update into it). */
  setPreviewDraft(draft: PreviewDraft | undefined): void {
    this.draft = draft;
  }

  /** A `usage_update` was sent to the session's clients. */
  noteUsage(update: SessionUpdate): void {
    this.usage = update;
  }

  get mode(): string {
    return this.settings.mode?.current ?? 'build';
  }

  /** `providerId/modelId` of the current model, if bound. */
  get model(): { providerId: string; modelId: string } | undefined {
    const m = this.settings.model?.current;
    const providerId = m?.providerId ?? m?.providerID;
    const modelId = m?.modelId ?? m?.modelID;
    return providerId && modelId ? { providerId, modelId } : undefined;
  }

  /** ACP `configOptions` (model, mode, thought level). */
  configOptions(): SessionConfigOption[] {
    return configOptions(this.settings, this.modelsValue.length > 0 ? this.modelsValue : undefined);
  }

  touch(): void {
    this.updated = Date.now();
  }
}
