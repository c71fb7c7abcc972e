import type { ApprovalWire } from './approval-wire.js';
/** The shapes of one chat as the web app shows it (built by chat-reducer.ts from ACP updates). */
import type { AvailableCommand, PlanEntry, SessionConfigOption, ToolCallContent } from '@agentclientprotocol/sdk';

export type ToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed';
export type TurnStateName = 'idle' | 'running' | 'awaiting_input' | 'stopping';

export interface UserItem {
  kind: 'user';
  id: string;
  text: string;
  images: string[];
  /** Who prompted (another device); undefined = this device or unknown. */
  author?: string;
  /** The token of who prompted (the hub's `promptedBy.tokenId`): this device's own when it is `me.tokenId`. */
  authorTokenId?: string;
  messageId?: string;
  /** Set while a prompt sent from this device has not been echoed or answered. */
  localId?: string;
  /** Sent from this page (local-prompts.ts). */
  own?: boolean;
  /** The hub's id of the prompt (`_meta.zcode.promptId` of its echo / own_update). */
  promptId?: string;
}
/** A prompt sent from this device that waits in the hub's queue (local-prompts.ts). */
export interface OutboxPrompt {
  localId: string;
  text: string;
  images: string[];
}
/** A prompt sent while its link reconnects (waiting-prompts.ts): the machine it waits for, none for the home hub. */
export interface WaitingPrompt extends OutboxPrompt {
  hubId?: string;
}
export interface TextItem {
  kind: 'agent' | 'thought';
  id: string;
  text: string;
  messageId?: string;
}
/** `_meta.zcode.subagent` of a sub-agent's tool card, remembered from its announcing update. */
export interface SubagentTag {
  /** The toolCallId of the card (an `Agent` call) that spawned the sub-agent. */
  parentToolCallId?: string;
  childSessionId?: string;
  agentId?: string;
  agentType?: string;
}
export interface ToolItem {
  kind: 'tool';
  id: string;
  toolCallId: string;
  title: string;
  toolKind?: string;
  status: ToolStatus;
  input?: unknown;
  content: ToolCallContent[];
  terminal: string;
  exitCode?: number | null;
  locations: string[];
  background?: boolean;
  /** The background task streaming into this card (`_meta.backgroundTask`): its id (to stop it) and status. */
  task?: { taskId: string; status: string };
  /** Earlier terminal output was cut off (by the hub's bound on a replay, or WEB_LIMITS.terminalTailChars). */
  terminalTrimmed?: boolean;
  /** Set on a sub-agent's card (src/acp/translate-tool.ts `subagentMeta`). */
  subagent?: SubagentTag;
  /** The sub-agent cards this card spawned, oldest first (hub/subagent-tree.ts). */
  children?: ToolItem[];
  /** Children dropped past WEB_LIMITS.subagentChildrenMax (still counted). */
  childrenDropped?: number;
  /** Who answered the permission or question this card asked (device or token name). */
  answeredBy?: string;
  /** Settled by an approval rule with no one asked: `answeredBy` is the hub's "allowed by rule r (description)". */
  byRule?: boolean;
  /** For whom its request waits under an `ask` rule, and the tally (`_meta.zcode.approval`). */
  approval?: ApprovalWire;
  /** A Write of a file that existed: it replaced it, though its diff shows only new lines (`_meta.zcode.overwrites`). */
  overwrites?: boolean;
  /**
   * Closed `failed` by the hub because its turn ended before the call finished (`_meta.zcode.unfinished`):
   * the tool did not fail, it did not run to the end.
   */
  unfinished?: boolean;
}
/** A prompt a Retry sends again (text and images as ACP blocks want them). */
export interface RetryPrompt {
  text: string;
  images: Array<{ mimeType: string; data: string }>;
}
export interface NoticeItem {
  kind: 'notice';
  id: string;
  text: string;
  level: 'info' | 'warning' | 'error';
  /** Set on the line of a turn that failed or was cut off (turn-ended.ts). */
  outcome?: 'failed' | 'interrupted';
  retry?: RetryPrompt;
}
export type ChatItem = UserItem | TextItem | ToolItem | NoticeItem;

export interface QueuedPrompt {
  promptId: string;
  clientId?: string;
  name?: string;
  preview?: string;
}
export interface TurnView {
  state: TurnStateName;
  turnId?: string;
  promptedBy?: string;
  queue: QueuedPrompt[];
}
export interface UsageView {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}
export interface ChatState {
  sessionId: string;
  /** Last applied `_meta.zcode.seq` / `epoch` (ARCHITECTURE.md §4.2), sent back as `afterSeq`. */
  seq?: number;
  epoch?: string | number;
  items: ChatItem[];
  plan: PlanEntry[];
  /** The user message whose turn sent `plan` (its item id; undefined = none was shown yet). */
  planTurn?: string;
  usage?: UsageView;
  modeId?: string;
  modes: Array<{ id: string; name: string }>;
  configOptions: SessionConfigOption[];
  /** The agent's slash commands (the latest `available_commands_update`). */
  agentCommands?: AvailableCommand[];
  title?: string;
  turn: TurnView;
  /** Our queued prompts, oldest first: shown as bubbles once their turn starts. */
  outbox: OutboxPrompt[];
  history: { cursor?: string; hasMore: boolean };
  /** Counter for item ids (stable keys for rendering). */
  nextId: number;
}
