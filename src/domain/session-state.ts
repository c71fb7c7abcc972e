/**
 * What the hub knows about one ZCode session (ARCHITECTURE.md §4.1). The session id is the ZCode
 * id everywhere; there is no second id space.
 */
import type { AvailableCommand, SessionConfigOption, SessionUpdate } from '@agentclientprotocol/sdk';
import { configOptions, type KnownModel, type StateFacts } from '../acp/translate-state.js';
import { createTranslationContext, type TranslationContext } from '../acp/translation-context.js';
import type { SettingsPatch } from '../acp/zcode-event-schema.js';
import type { Attachment } from './broadcast.js';
import { Journal, type JournalLimits } from './journal.js';
import type { TurnEnded } from '../acp/turn-ended.js';
import { PromptQueue } from './prompt-queue.js';
import { TaskOutputs, type TaskOutputLimits } from './task-outputs.js';
import type { PreviewDraft } from './session-preview.js';
import { Turn, type TailHooks } from './turn.js';

export type { TurnState } from './turn.js';

/** Per-session state. */
export class SessionState {
  cwd: string;
  title = '';
  /** Latest ZCode Settings (snapshot or `state.updated` patch, §3.6). */
  settings: SettingsPatch = {};
  /** Every model of the registry, learned from create/resume snapshots (mutation snapshots list one). */
  allModels: KnownModel[] = [];
  /** The agent's slash commands from the latest snapshot that listed them (domain/command-notices.ts). */
  commands: AvailableCommand[] = [];
  /** The turn state machine; the only place the turn state changes (turn.ts). */
  readonly turn: Turn;
  readonly attachments = new Map<string, Attachment>();
  /** Last ZCode event seq seen (resubscribe with `afterSeq` after a restart, §11.10). */
  lastZSeq = 0;
  /** Times the server's seq went backwards; each starts a new journal epoch for this session. */
  seqResets = 0;
  /**
   * Live `session/event`s held while a `session/subscribe` with `afterSeq` is in flight: they may
   * precede its answer (§5.2), and must come after the backlog it returns. `overflow` past
   * `subscribeBufferMaxEvents`. The session's `state.updated`s wait too (up to the same limit):
   * a ready boundary ends a prompt, which must come after that prompt's text.
   */
  liveHold: { events: Array<{ seq: number; params: unknown }>; states: StateFacts[]; overflow: boolean } | undefined;
  /** Live events flow only after `session/subscribe` (§5.2). */
  subscribed = false;
  /** Backend epoch whose child has this session's v4 conversation topic subscribed (titles, APP-SERVER.md §14.4); 0 = none. */
  titleFeedEpoch = 0;
  /**
   * Closed from zcode-acp-remote's session list: hidden from its discovery routes until the
   * session is used again (a prompt, or a load with history), as that app's close means.
   */
  retiredFromDiscovery = false;
  translation: TranslationContext;
  readonly journal: Journal;
  /** The output so far of the session's background tasks (late joiners, reloads). */
  readonly taskOutputs: TaskOutputs;
  /** The last `usage_update` sent (the context meter): a replay ends with it, so every client shows the same meter. */
  lastUsage: SessionUpdate | undefined;
  readonly queue = new PromptQueue();
  updatedAt = Date.now();
  /** Archived in the ZCode app itself (`archivedAt`, APP-SERVER.md §3.5). */
  appArchived = false;
  /** The message being folded into the session's preview (session-preview.ts). */
  previewDraft: PreviewDraft | undefined;

  constructor(
    readonly sessionId: string,
    cwd: string,
    limits: JournalLimits & { taskOutputs: TaskOutputLimits },
    epoch: string,
    turnHooks: { publish: () => void; announce: (ended: TurnEnded) => void; tail?: TailHooks },
  ) {
    this.taskOutputs = new TaskOutputs(limits.taskOutputs);
    this.cwd = cwd;
    this.turn = new Turn(turnHooks.publish, turnHooks.announce, turnHooks.tail);
    this.journal = new Journal(limits, epoch);
    this.translation = createTranslationContext(sessionId);
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
    return configOptions(this.settings, this.allModels.length > 0 ? this.allModels : undefined);
  }

  touch(): void {
    this.updatedAt = Date.now();
  }
}
