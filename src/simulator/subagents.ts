import { invalidParamsMessage } from './protocol-error.js';
import { newId, type SessionInfo, type SessionRuntime } from './session-runtime.js';
import type { StoredMessage, SubagentRecord } from './session-store.js';
import type { SimulatorCore } from './simulator-core.js';

/** §4.16 `Sub`. */
export interface Sub {
  childSessionId: string;
  agentId: string;
  toolCallId: string;
  subagentType: string;
  title: string;
  summary?: string;
  startedAt: number;
  endedAt?: number;
  status: 'running' | 'waiting' | 'blocked' | 'success' | 'failed' | 'cancelled' | 'lost';
}

/** `session/subagents` result (§4.16). */
export interface SubagentsPage {
  revision: number;
  childSessionIds: string[];
  running: Sub[];
  ended: { total: number; items: Sub[]; nextCursor?: string };
}

/** `endedLimit` default (§4.16). */
export const ENDED_LIMIT_DEFAULT = 20;

/** Children that are running in this process right now; anything else stored as running was lost (§4.16 `lost`). */
const live = new WeakSet<SessionRuntime>();

/** What a parent's Agent call asks for. */
export interface SpawnRequest {
  parentToolCallId: string;
  subagentType: string;
  description: string;
  prompt: string;
}

/**
 * Creates the sub-agent child: a persisted `sess_subagent_<agentId>` session of kind
 * `subagent_child` linked by `parentSessionId` (§3.4, §3.5), hidden from `session/list` and
 * read-only to `session/send` (§4.8). It stays resident, so send answers -32010, not -32004.
 */
export function spawnSubagent(sim: SimulatorCore, parent: SessionRuntime, req: SpawnRequest): SessionRuntime {
  const agentId = newId('agent');
  const now = Date.now();
  const info: SessionInfo = {
    sessionId: `sess_subagent_${agentId}`,
    workspace: parent.info.workspace,
    parentSessionId: parent.sessionId,
    sessionKind: 'subagent_child',
    title: req.description,
    titleSource: 'default',
    mode: parent.info.mode,
    status: 'running',
    ...(parent.info.model ? { model: parent.info.model } : {}),
    createdAt: now,
    updatedAt: now,
  };
  const child = sim.createRuntime(info, 'immediate');
  child.thoughtLevel = parent.thoughtLevel;
  child.prefs = { ...parent.prefs };
  child.subagent = { agentId, toolCallId: req.parentToolCallId, subagentType: req.subagentType, startedAt: now, status: 'running' };
  const messageId = newId('msg');
  child.messages.push({
    info: {
      messageId,
      sessionId: info.sessionId,
      role: 'user',
      time: { created: now },
      agent: req.subagentType,
      synthetic: true,
      source: 'subagent',
    },
    parts: [{ partId: newId('prt'), sessionId: info.sessionId, messageId, type: 'text', text: req.prompt }],
  });
  live.add(child);
  child.persist();
  return child;
}

/** Ends a sub-agent: its record, its status, its assistant message (the child's own history). */
export function endSubagent(
  child: SessionRuntime,
  status: 'success' | 'failed' | 'cancelled',
  summary: string | undefined,
  parts: StoredMessage['parts'],
): void {
  const record = child.subagent;
  if (record?.status !== 'running') return;
  const now = Date.now();
  Object.assign(record, { status, endedAt: now, ...(summary !== undefined ? { summary } : {}) });
  live.delete(child);
  const messageId = newId('msg');
  const parentMessageId = child.messages[0]?.info.messageId ?? '';
  const path = { cwd: child.info.workspace.workspacePath, root: child.info.workspace.workspacePath };
  child.messages.push({
    info: {
      messageId,
      sessionId: child.sessionId,
      role: 'assistant',
      time: { created: record.startedAt, completed: now },
      parentMessageId,
      agent: record.subagentType,
      path,
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
      finish: status === 'success' ? 'stop' : status === 'cancelled' ? 'aborted' : 'error',
    },
    parts: [
      ...parts.map((p) => ({ ...p, messageId })),
      ...(summary ? [{ partId: newId('prt'), sessionId: child.sessionId, messageId, type: 'text', text: summary }] : []),
    ],
  });
  child.info.status = status === 'success' ? 'completed' : status === 'cancelled' ? 'idle' : 'error';
  child.turnCount = 1;
  child.touch();
  child.persist();
}

function toSub(info: SessionInfo, record: SubagentRecord, running: boolean): Sub {
  // A record still "running" with no live run behind it died with an earlier process: lost.
  const status = record.status === 'running' && !running ? 'lost' : record.status;
  return {
    childSessionId: info.sessionId,
    agentId: record.agentId,
    toolCallId: record.toolCallId,
    subagentType: record.subagentType,
    title: info.title,
    ...(record.summary !== undefined ? { summary: record.summary } : {}),
    startedAt: record.startedAt,
    ...(record.endedAt !== undefined ? { endedAt: record.endedAt } : {}),
    status,
  };
}

/** Every sub-agent of a parent, active runtimes first taking precedence over their stored copy, oldest first. */
function subsOf(sim: SimulatorCore, parentSessionId: string): Sub[] {
  const byId = new Map<string, Sub>();
  for (const rt of sim.runtimes.values()) {
    if (rt.info.sessionKind === 'subagent_child' && rt.info.parentSessionId === parentSessionId && rt.subagent)
      byId.set(rt.sessionId, toSub(rt.info, rt.subagent, live.has(rt)));
  }
  for (const s of sim.store.list()) {
    const info = s.info as unknown as SessionInfo;
    if (info.sessionKind === 'subagent_child' && info.parentSessionId === parentSessionId && s.subagent && !byId.has(info.sessionId))
      byId.set(info.sessionId, toSub(info, s.subagent, false));
  }
  return [...byId.values()].sort((a, b) => a.startedAt - b.startedAt);
}

/** Opaque ended-page cursor: the offset into the ended list (most recently ended first). */
function encodeCursor(offset: number): string {
  return Buffer.from(`ended:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const m = /^ended:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  // The spec does not say how a foreign cursor fails; a params error is the safe reading [inferred].
  if (!m) throw invalidParamsMessage('Invalid params — endedCursor: unknown cursor');
  return Number(m[1]);
}

/**
 * The §4.16 roster of a parent: `running` in start order, `ended` most recently ended first,
 * paged by `endedLimit` (default 20) with an opaque `nextCursor` while more remain.
 * `revision` counts roster changes (one per start, one per end).
 */
export function subagentsPage(
  sim: SimulatorCore,
  parentSessionId: string,
  endedCursor: string | undefined,
  endedLimit = ENDED_LIMIT_DEFAULT,
): SubagentsPage {
  const subs = subsOf(sim, parentSessionId);
  const running = subs.filter((s) => s.status === 'running' || s.status === 'waiting' || s.status === 'blocked');
  const ended = subs.filter((s) => !running.includes(s)).sort((a, b) => (b.endedAt ?? b.startedAt) - (a.endedAt ?? a.startedAt));
  const offset = endedCursor === undefined ? 0 : decodeCursor(endedCursor);
  const items = ended.slice(offset, offset + endedLimit);
  const next = offset + items.length;
  return {
    revision: subs.length + ended.length,
    childSessionIds: subs.map((s) => s.childSessionId),
    running,
    ended: { total: ended.length, items, ...(next < ended.length ? { nextCursor: encodeCursor(next) } : {}) },
  };
}
