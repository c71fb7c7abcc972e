/**
 * Pure reducer: ACP `session/update` notifications (and the hub's `_zcode/turn_state`) → what
 * one chat shows. No DOM, no sockets: unit-tested in test/web/chat-reducer.test.ts.
 */
import { readApproval, readRuleDecision } from './approval-wire.js';
import type { PlanEntry, SessionConfigOption, ToolCallContent } from '@agentclientprotocol/sdk';
import { WEB_LIMITS } from '../limits.js';
import { arr, fields, idOf, num, rec, str, zmeta, type Fields, type Rec } from '../wire.js';
import type { TurnStateParams } from '../../../src/zcode-ext/schemas.js';
import { blockText, findLastIndex, imageOf, nextId, withItems } from './chat-parts.js';
import { authorText, authorTokenId, settledByRule } from './author-text.js';
import type { ChatState, QueuedPrompt, ToolItem, ToolStatus, TurnStateName, TurnView, UserItem } from './chat-types.js';
import { claimEcho, ownPromptStarted } from './local-prompts.js';
import { applyTurnEnded, turnEndedOf } from './turn-ended.js';
import { cardAt, findCard, nestNewCard, nestOrphans, replaceCard, subagentTagOf } from './subagent-tree.js';

/** A chat with nothing in it yet. */
export function emptyChat(sessionId: string): ChatState {
  return {
    sessionId,
    items: [],
    plan: [],
    modes: [],
    configOptions: [],
    turn: { state: 'idle', queue: [] },
    outbox: [],
    history: { hasMore: false },
    nextId: 1,
  };
}

/** Clears what a replay will rebuild (items, plan, seq); keeps mode, config and turn. */
export function resetForReplay(chat: ChatState): ChatState {
  return { ...chat, items: [], plan: [], planTurn: undefined, seq: undefined, epoch: undefined, history: { hasMore: false } };
}

/** The id of the last user message: the turn an update now belongs to. */
function currentTurn(chat: ChatState): string | undefined {
  const i = findLastIndex(chat.items, (it) => it.kind === 'user');
  return i === -1 ? undefined : chat.items[i]?.id;
}

/** Where the latest turn's plan is drawn: pinned above the composer, or in its turn. */
export interface PlanPlace {
  entries: PlanEntry[];
  /** True while a step is open: the live view above the composer. A finished plan is drawn at the end of its turn. */
  pinned: boolean;
  /** The index in `items` of the user message whose turn sent it (-1: a history page that starts mid-turn). */
  turnIndex: number;
}

/**
 * The plan of the latest turn only: pinned while it has an open step, collapsed into its turn once
 * every step is done (a finished plan belongs to its turn, not above an idle composer). A later
 * prompt's turn that sends no plan of its own shows none (the old one stays in its TodoWrite cards).
 */
export function planPlace(chat: ChatState): PlanPlace | undefined {
  if (chat.plan.length === 0 || chat.planTurn !== currentTurn(chat)) return undefined;
  return {
    entries: chat.plan,
    pinned: chat.plan.some((e) => e.status !== 'completed'),
    turnIndex: findLastIndex(chat.items, (it) => it.kind === 'user'),
  };
}

function applyChunk(chat: ChatState, kind: 'user' | 'agent' | 'thought', u: Rec, outer: Rec): ChatState {
  const content = u['content'];
  const text = blockText(content);
  const image = imageOf(content);
  const messageId = str(u['messageId']);
  const items = chat.items;
  const last = items[items.length - 1];
  if (kind === 'user') {
    // The hub puts who asked in the notification's `_meta.zcode`; history pages in the update's.
    const z = { ...outer, ...zmeta(u) };
    const author = authorText(z['promptedBy']) ?? authorText(z['author']) ?? str(z['clientName']);
    const tokenId = authorTokenId(z['promptedBy']);
    const promptId = str(z['promptId']);
    const claimed = promptId === undefined ? undefined : claimEcho(chat, promptId, text);
    if (claimed) return claimed;
    // Our own prompt, echoed back: confirm the optimistic bubble instead of adding a second one.
    const pending = findLastIndex(items, (it) => it.kind === 'user' && it.localId !== undefined && it.text === text && text !== '');
    if (pending !== -1 && author === undefined) {
      const mine = items[pending] as UserItem;
      const copy = items.slice();
      copy[pending] = { ...mine, localId: undefined };
      return { ...chat, items: copy };
    }
    // ACP streams one message as several chunks; a new messageId starts a new bubble.
    if (
      last?.kind === 'user' &&
      last.localId === undefined &&
      (last.author ?? '') === (author ?? '') &&
      (messageId === undefined || last.messageId === undefined || last.messageId === messageId)
    ) {
      const copy = items.slice();
      copy[copy.length - 1] = { ...last, text: last.text + text, images: image ? [...last.images, image] : last.images };
      return { ...chat, items: copy };
    }
    const [id, next] = nextId(chat);
    const item: UserItem = {
      kind: 'user',
      id,
      text,
      images: image ? [image] : [],
      ...(author ? { author } : {}),
      ...(tokenId ? { authorTokenId: tokenId } : {}),
      ...(messageId ? { messageId } : {}),
      ...(promptId ? { promptId } : {}),
    };
    return withItems(next, [...items, item]);
  }
  if (text === '') return chat;
  if (last && last.kind === kind && (messageId === undefined || last.messageId === undefined || last.messageId === messageId)) {
    const copy = items.slice();
    copy[copy.length - 1] = { ...last, text: last.text + text };
    return { ...chat, items: copy };
  }
  const [id, next] = nextId(chat);
  return withItems(next, [...items, { kind, id, text, ...(messageId ? { messageId } : {}) }]);
}

function toolStatus(v: unknown, fallback: ToolStatus): ToolStatus {
  return v === 'pending' || v === 'in_progress' || v === 'completed' || v === 'failed' ? v : fallback;
}

function applyTool(chat: ChatState, u: Rec, isNew: boolean): ChatState {
  const toolCallId = str(u['toolCallId']);
  if (!toolCallId) return chat;
  const meta = rec(u['_meta']) ?? {};
  const path = findCard(chat.items, toolCallId);
  let base: ToolItem;
  let next = chat;
  if (path === undefined) {
    const [id, n] = nextId(chat);
    next = n;
    base = { kind: 'tool', id, toolCallId, title: '', status: 'pending', content: [], terminal: '', locations: [] };
  } else {
    base = cardAt(chat.items, path);
  }
  const item: ToolItem = { ...base };
  const title = str(u['title']);
  if (title !== undefined) item.title = title;
  else if (isNew && !item.title) item.title = str(u['name']) ?? toolCallId;
  const kind = str(u['kind']);
  if (kind) item.toolKind = kind;
  item.status = toolStatus(u['status'], item.status);
  if ('rawInput' in u && u['rawInput'] !== undefined && u['rawInput'] !== null) item.input = u['rawInput'];
  if (Array.isArray(u['content'])) item.content = u['content'] as ToolCallContent[];
  const locations = arr(u['locations'])
    .map((l) => str(rec(l)?.['path']))
    .filter((p): p is string => !!p);
  if (locations.length) item.locations = locations;
  // Terminal convention of zed's claude-code-acp (src/acp/tool-output.ts): output arrives in `_meta`.
  const data = str(rec(meta['terminal_output'])?.['data']);
  const full = str(rec(meta['zcode'])?.['outputText']);
  const task = rec(meta['backgroundTask']);
  if (data !== undefined) {
    // A background launch's one-line result ends its line: the task's output starts below it.
    const launch = rec(meta['zcode'])?.['backgroundLaunch'] === true && !data.endsWith('\n');
    const joined = item.terminal + data + (launch ? '\n' : '');
    item.terminal = tailOf(joined);
    if (joined.length > item.terminal.length) item.terminalTrimmed = true;
  } else if (full !== undefined) {
    // The whole output so far (a replay's kept task output replaces what the card showed).
    item.terminal = tailOf(full);
    item.terminalTrimmed = rec(meta['zcode'])?.['outputTrimmed'] === true || full.length > item.terminal.length;
  }
  const exit = rec(meta['terminal_exit']);
  if (exit) item.exitCode = num(exit['exit_code']) ?? null;
  if (task) {
    item.background = true;
    const taskId = str(task['taskId']);
    if (taskId) item.task = { taskId, status: str(task['status']) ?? 'running' };
  }
  Object.assign(item, hubMarks(rec(meta['zcode'])));
  markUnfinished(item, u['status'], rec(meta['zcode']));
  const approval = readApproval(rec(meta['zcode'])?.['approval']);
  if (approval) item.approval = approval;
  // A card that ended waits for no one: the hub closes `failed` a call whose turn was cut while
  // its request waited (docs/CLIENT-PROTOCOL.md "Failed and interrupted turns"), and that request is gone.
  if (item.approval?.state === 'open' && (item.status === 'failed' || item.status === 'completed')) delete item.approval;
  // Only the announcing update (and some later ones) carry it: remembered per card.
  const tag = item.subagent === undefined ? subagentTagOf(meta) : undefined;
  if (tag) item.subagent = tag;
  if (path !== undefined) {
    const items = replaceCard(next.items, path, item);
    // Announced without the tag (a streamed tool_call), learned later: move it under its parent.
    return { ...next, items: tag && path.length === 1 ? nestOrphans(items) : items };
  }
  const nested = nestNewCard(next.items, item);
  return nested === undefined ? withItems(next, [...next.items, item]) : { ...next, items: nested };
}

/**
 * The hub's close of a call its cut turn left open (`_meta.zcode.unfinished`, docs/CLIENT-PROTOCOL.md
 * "Failed and interrupted turns"): it did not fail, it did not run to the end. A later status from
 * the agent itself is its own word again.
 */
function markUnfinished(item: ToolItem, status: unknown, zcode: Rec | undefined): void {
  if (item.status === 'failed' && rec(zcode?.['unfinished'])) item.unfinished = true;
  else if (status !== undefined) delete item.unfinished;
}

/**
 * What the hub marks on a card in `_meta.zcode`: who answered it, whether a rule or a grant did (its
 * name is then a whole phrase), and that a Write replaced a file. Only what an update carries.
 */
function hubMarks(zcode: Rec | undefined): Pick<ToolItem, 'answeredBy' | 'byRule' | 'overwrites'> {
  const marks: Pick<ToolItem, 'answeredBy' | 'byRule' | 'overwrites'> = zcode?.['overwrites'] === true ? { overwrites: true } : {};
  const answeredBy = authorText(zcode?.['answeredBy']);
  if (!answeredBy) return marks;
  marks.answeredBy = answeredBy;
  if (readRuleDecision(zcode?.['rule']) !== undefined || rec(zcode?.['grant']) !== undefined || settledByRule(zcode?.['answeredBy']))
    marks.byRule = true;
  return marks;
}

function tailOf(text: string): string {
  return text.length > WEB_LIMITS.terminalTailChars ? text.slice(text.length - WEB_LIMITS.terminalTailChars) : text;
}

/** Meta of one update: the hub's `(seq, epoch)` (CLIENT-PROTOCOL "Notifications"). */
export function seqOf(params: unknown): { seq?: number; epoch?: string | number } {
  const z = zmeta(params);
  return { seq: num(z['seq']), epoch: idOf(z['epoch']) };
}

/**
 * Applies one `session/update` (its `params`). Updates already applied (same epoch, seq not
 * newer) are skipped, so a replay that overlaps what we have never duplicates a message.
 */
export function applySessionUpdate(chat: ChatState, params: unknown): ChatState {
  const p = rec(params);
  const u = rec(p?.['update']);
  const { seq, epoch } = seqOf(params);
  if (seq !== undefined && chat.seq !== undefined && epoch === chat.epoch && seq <= chat.seq) return chat;
  // `_zcode/own_update`: the seq of our own echoed prompt, without content — its turn starts.
  if (!u) {
    const promptId = str(zmeta(params)['promptId']);
    const started = promptId === undefined ? chat : ownPromptStarted(chat, promptId);
    return seq === undefined ? started : { ...started, seq, epoch: epoch ?? chat.epoch };
  }
  const next = applyUpdateBody(chat, u, zmeta(params));
  return seq === undefined ? next : { ...next, seq, epoch: epoch ?? next.epoch };
}

/**
 * Applies the body of one update, without seq bookkeeping (also used for history pages);
 * `outer` is the notification's `_meta.zcode` (who prompted, promptId).
 */
export function applyUpdateBody(chat: ChatState, u: Rec, outer: Rec = {}): ChatState {
  const kind = str(u['sessionUpdate']);
  switch (kind) {
    case 'user_message_chunk':
      return applyChunk(chat, 'user', u, outer);
    case 'agent_message_chunk':
      return applyChunk(chat, 'agent', u, outer);
    case 'agent_thought_chunk':
      return applyChunk(chat, 'thought', u, outer);
    case 'tool_call':
      return applyTool(chat, u, true);
    case 'tool_call_update':
      return applyTool(chat, u, false);
    case 'plan':
      return { ...chat, plan: arr(u['entries']) as PlanEntry[], planTurn: currentTurn(chat) };
    case 'usage_update': {
      const used = num(u['used']);
      const size = num(u['size']);
      if (used === undefined || size === undefined) return chat;
      const cost = rec(u['cost']);
      const amount = num(cost?.['amount']);
      const currency = str(cost?.['currency']);
      return { ...chat, usage: { used, size, ...(amount !== undefined && currency ? { cost: { amount, currency } } : {}) } };
    }
    case 'current_mode_update':
      return { ...chat, modeId: str(u['currentModeId']) ?? chat.modeId };
    case 'config_option_update':
      return { ...chat, configOptions: arr(u['configOptions']) as SessionConfigOption[] };
    case 'session_info_update': {
      const ended = turnEndedOf(u);
      if (ended) return applyTurnEnded(chat, ended);
      const title = str(u['title']);
      return title === undefined ? chat : { ...chat, title };
    }
    case 'notice': {
      const text = str(u['message']) ?? str(u['text']) ?? '';
      if (!text) return chat;
      const [id, next] = nextId(chat);
      return withItems(next, [...chat.items, { kind: 'notice', id, text, level: 'info' }]);
    }
    case 'available_commands_update': {
      // Overwrite semantics: the latest list is the list (read entry by entry, a bad one is dropped).
      const agentCommands = arr(u['availableCommands']).flatMap((c) => {
        const name = str(rec(c)?.['name']);
        if (!name) return [];
        const description = str(rec(c)?.['description']) ?? '';
        const hint = str(rec(rec(c)?.['input'])?.['hint']);
        return [{ name, description, ...(hint ? { input: { hint } } : {}) }];
      });
      return { ...chat, agentCommands };
    }
    default:
      // compaction_* and future kinds: nothing to show.
      return chat;
  }
}

export { addLocalPrompt, settleLocalPrompt, withdrawLocalPrompt } from './local-prompts.js';

/** Adds a notice line (turn failed, stopped, connection recovered without history …). */
export function addNotice(chat: ChatState, text: string, level: 'info' | 'warning' | 'error'): ChatState {
  const [id, next] = nextId(chat);
  return withItems(next, [...chat.items, { kind: 'notice', id, text, level }]);
}

function turnStateName(v: unknown): TurnStateName {
  return v === 'running' || v === 'awaiting_input' || v === 'stopping' ? v : 'idle';
}

/** Parses `_zcode/turn_state` params into the turn view (CLIENT-PROTOCOL "Notifications"). */
export function parseTurnState(params: unknown): TurnView {
  const p: Fields<TurnStateParams> = fields<TurnStateParams>(params) ?? {};
  const queue: QueuedPrompt[] = arr(p.queue).flatMap((q) => {
    const r = fields<TurnStateParams['queue'][number]>(q);
    const promptId = str(r?.promptId);
    if (!r || !promptId) return [];
    return [{ promptId, clientId: str(r.clientId), name: authorText(r), preview: str(r.preview) }];
  });
  return { state: turnStateName(p.state), turnId: str(p.turnId), promptedBy: authorText(p.promptedBy), queue };
}

/** Applies session-level fields of a session/new or session/load result (modes, config). */
export function applyAttachResult(chat: ChatState, result: unknown): ChatState {
  const r = rec(result) ?? {};
  const modes = rec(r['modes']);
  const configOptions = Array.isArray(r['configOptions']) ? (r['configOptions'] as SessionConfigOption[]) : chat.configOptions;
  const avail = arr(modes?.['availableModes']).flatMap((m) => {
    const id = str(rec(m)?.['id']);
    return id ? [{ id, name: str(rec(m)?.['name']) ?? id }] : [];
  });
  const replay = rec(zmeta(r)['replayMeta']);
  const cursor = str(replay?.['cursor']);
  return {
    ...chat,
    configOptions,
    modes: avail.length ? avail : chat.modes,
    modeId: str(modes?.['currentModeId']) ?? chat.modeId,
    history: replay ? { hasMore: replay['hasMore'] === true, ...(cursor ? { cursor } : {}) } : chat.history,
  };
}

/**
 * Prepends an older page of history (`_zcode/load_earlier`, oldest first) before what is shown.
 */
export function prependHistory(chat: ChatState, updates: unknown[], cursor: string | undefined, hasMore: boolean): ChatState {
  let older: ChatState = { ...emptyChat(chat.sessionId), nextId: chat.nextId };
  for (const u of updates) {
    const body = rec(u);
    if (body) older = applyUpdateBody(older, body);
  }
  // The older page may hold the parents of sub-agent cards shown so far at the top level.
  return {
    ...chat,
    nextId: older.nextId,
    items: nestOrphans([...older.items, ...chat.items]),
    history: { hasMore, ...(cursor ? { cursor } : {}) },
  };
}

/** Notes on the card `toolCallId` who answered the interaction it asked (`_zcode/interaction_resolved`). */
export function markAnswered(chat: ChatState, toolCallId: string, by: string, byRule = false): ChatState {
  const path = findCard(chat.items, toolCallId);
  if (path === undefined) return chat;
  const card = cardAt(chat.items, path);
  return card.answeredBy === by ? chat : { ...chat, items: replaceCard(chat.items, path, { ...card, answeredBy: by, byRule }) };
}
