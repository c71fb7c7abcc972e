import { invalidParamsMessage, notFound, parseParams, ProtocolError, RPC } from '../protocol-error.js';
import { CloseParams, CreateParams, ForkParams, ListParams, ResumeParams } from '../schemas/session-params.js';
import { newId, type SessionInfo, type SessionRuntime } from '../session-runtime.js';
import type { StoredMessage } from '../session-store.js';
import type { SimulatorCore } from '../simulator-core.js';
import { buildSnapshot } from '../snapshot.js';
import { checkRevision } from './guards.js';

/** `session/create` (§4.1): asks runtime preferences first; any failure discards the half-built session. */
export async function create(sim: SimulatorCore, params: unknown): Promise<unknown> {
  const p = parseParams(CreateParams, params);
  if (p.sessionId !== undefined && !p.importedHistory)
    throw invalidParamsMessage('sessionId is only supported for imported history creates');
  const requested = p.model ? { providerId: p.model.providerId, modelId: p.model.modelId } : sim.registry.defaultSelection();
  // `options` is dropped on create; the level comes from `thoughtLevel` (§4.1).
  const entry = sim.registry.resolve({ providerId: requested.providerId, modelId: requested.modelId }, false);
  // `--no-default-level`: no level unless one is asked for (the turn then fails at model creation, §11.11).
  const fallback = sim.options.noDefaultLevel ? undefined : entry.defaultLevel;
  const thoughtLevel = entry.levels ? (p.thoughtLevel && entry.levels.includes(p.thoughtLevel) ? p.thoughtLevel : fallback) : undefined;
  const sessionId = p.sessionId ?? newId('sess');
  const prefs = await sim.askRuntimePreferences(sessionId);
  const now = Date.now();
  const info: SessionInfo = {
    sessionId,
    workspace: p.workspace,
    ...(p.parentSessionId ? { parentSessionId: p.parentSessionId } : {}),
    sessionKind: 'interactive',
    title: p.importedHistory && 'title' in p.importedHistory && typeof p.importedHistory.title === 'string' ? p.importedHistory.title : '',
    titleSource: 'default',
    mode: p.mode ?? 'build',
    status: 'idle',
    model: { providerId: entry.providerId, modelId: entry.modelId },
    createdAt: now,
    updatedAt: now,
  };
  const rt = sim.createRuntime(info, p.persistence ?? 'immediate');
  rt.prefs = prefs;
  rt.thoughtLevel = thoughtLevel;
  if (p.importedHistory && p.importedHistory.source === 'claudeCode') rt.messages = importMessages(sessionId, p.importedHistory.messages);
  // Stored in the in-memory log, not pushed: no delivery kind yet (§4.1).
  rt.emit('session.created', { mode: info.mode, contextWindow: entry.contextWindow });
  rt.persist();
  return sim.wireSnapshot(buildSnapshot(rt, sim.registry, 'all'));
}

function importMessages(
  sessionId: string,
  msgs: { role: 'user' | 'assistant'; content: string; timestamp?: number | undefined }[],
): StoredMessage[] {
  let parent = '';
  return msgs.map((m) => {
    const messageId = newId('msg');
    const created = m.timestamp ?? Date.now();
    const info =
      m.role === 'user'
        ? { messageId, sessionId, role: 'user' as const, time: { created }, agent: 'build' }
        : {
            messageId,
            sessionId,
            role: 'assistant' as const,
            time: { created, completed: created },
            parentMessageId: parent,
            agent: 'build',
            path: { cwd: '', root: '' },
            cost: 0,
            tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
          };
    if (m.role === 'user') parent = messageId;
    return { info, parts: [{ partId: newId('prt'), sessionId, messageId, type: 'text', text: m.content }] };
  });
}

/** `session/resume` (§4.2): active → snapshot; persisted → re-materialised; else -32004 not found. */
export async function resume(sim: SimulatorCore, params: unknown): Promise<unknown> {
  const p = parseParams(ResumeParams, params);
  const active = sim.runtimes.get(p.sessionId);
  if (active) return buildSnapshot(active, sim.registry, 'all');
  let pending = sim.resuming.get(p.sessionId);
  if (!pending) {
    pending = materialise(sim, p.sessionId);
    sim.resuming.set(p.sessionId, pending);
    void pending.finally(() => sim.resuming.delete(p.sessionId)).catch(() => undefined);
  }
  return buildSnapshot(await pending, sim.registry, 'all');
}

async function materialise(sim: SimulatorCore, sessionId: string): Promise<SessionRuntime> {
  const stored = sim.store.load(sessionId);
  if (!stored) throw notFound(sessionId);
  const prefs = await sim.askRuntimePreferences(sessionId);
  const info = stored.info as unknown as SessionInfo;
  info.status = 'idle';
  const rt = sim.createRuntime(info, 'immediate', stored);
  rt.prefs = prefs;
  const m = info.model;
  if (m && !sim.registry.find(m.providerId, m.modelId))
    rt.restoreWarning = `Model ${m.providerId}/${m.modelId} could not be restored; choose another model with session/setModel`;
  rt.emit('session.resumed', {
    directory: info.workspace.workspacePath,
    interruptedToolCount: 0,
    messageCount: rt.messages.length,
    partCount: rt.messages.reduce((n, x) => n + x.parts.length, 0),
  });
  return rt;
}

/** `session/list` (§4.3): persisted sessions filtered by exact workspace, plus unpersisted in-memory ones. */
export function list(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(ListParams, params) ?? {};
  const stored = sim.store.list().map((s) => sim.runtimes.get(s.info.sessionId)?.info ?? (s.info as unknown as SessionInfo));
  // `--list-ignores-ids`: an agent that takes the ids but lists as if they were not given.
  if (p.sessionIds && !sim.options.listIgnoresIds) {
    const ids = new Set(p.sessionIds);
    return { sessions: stored.filter((s) => ids.has(s.sessionId)) };
  }
  const seen = new Set(stored.map((s) => s.sessionId));
  const memory = [...sim.runtimes.values()].filter((r) => r.persistence === 'immediate' && !seen.has(r.sessionId)).map((r) => r.info);
  const key = p.workspace ? (p.workspace.workspaceIdentity ?? p.workspace.workspacePath) : undefined;
  const sessions = [...stored, ...memory]
    .filter((s) => s.sessionKind !== 'subagent_child' && s.sessionKind !== 'workflow_child')
    .filter((s) => (p.includeArchived ? true : s.archivedAt === undefined))
    .filter((s) => key === undefined || (s.workspace.workspaceIdentity ?? s.workspace.workspacePath) === key)
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, p.limit ?? 50);
  return { sessions };
}

/** `session/close` (§4.15): unloads the runtime; the conversation stays persisted. */
export function close(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(CloseParams, params);
  const rt = sim.requireActive(p.sessionId);
  if (p.expectedPersistence !== undefined && p.expectedPersistence !== rt.persistence) return { closed: false };
  rt.emit('session.closed', { reason: 'closed' });
  rt.operationEvent('session-closed', {});
  rt.persist();
  sim.unload(rt);
  return { closed: true };
}

/** `session/fork` (§4.11): a new active session with the history up to the target; no reverse request. */
export function fork(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(ForkParams, params);
  const rt = sim.requireActive(p.sessionId);
  checkRevision(rt, p.expectedRevision);
  if (rt.promptLock || rt.activeTurn) throw new ProtocolError(RPC.busy, 'Cannot fork while a prompt is running');
  const target = p.target ?? { kind: 'latestCheckpoint' as const };
  let cut = rt.messages.length;
  let targetMessageId: string | undefined;
  if (target.kind === 'turn') {
    const assistants = rt.messages.map((m, i) => ({ m, i })).filter((x) => x.m.info.role === 'assistant');
    const hit = assistants[target.turnIndex];
    if (!hit) throw new ProtocolError(RPC.notFound, `Cannot resolve assistant message for turnIndex=${target.turnIndex}`);
    cut = hit.i + 1;
    targetMessageId = hit.m.info.messageId;
  } else if (target.kind === 'message') {
    const i = rt.messages.findIndex((m) => m.info.messageId === target.messageId);
    if (i === -1) throw new ProtocolError(RPC.notFound, `Cannot resolve message ${target.messageId}`);
    cut = i + 1;
    targetMessageId = target.messageId;
  } else if (target.kind === 'checkpoint') {
    throw new ProtocolError(RPC.notFound, `Cannot resolve checkpoint ${target.checkpointId}`);
  }
  const forkedSessionId = newId('sess');
  const now = Date.now();
  const info: SessionInfo = {
    ...rt.info,
    sessionId: forkedSessionId,
    parentSessionId: rt.sessionId,
    sessionKind: 'fork',
    title: rt.info.title ? `${rt.info.title} (fork)` : '',
    status: 'idle',
    createdAt: now,
    updatedAt: now,
  };
  const child = sim.createRuntime(info, 'immediate');
  child.messages = rt.messages.slice(0, cut).map((m) => structuredClone(m));
  for (const m of child.messages) {
    m.info['sessionId'] = forkedSessionId;
    for (const part of m.parts) part['sessionId'] = forkedSessionId;
  }
  child.thoughtLevel = rt.thoughtLevel;
  child.prefs = { ...rt.prefs };
  child.goal = rt.goal ? { ...rt.goal, sessionId: forkedSessionId } : null;
  child.turnCount = child.messages.filter((m) => m.info.role === 'assistant').length;
  child.emit('session.created', { mode: info.mode, contextWindow: 200_000 });
  rt.emit('session.updated', { forkedSessionId, parentSessionId: rt.sessionId, ...(targetMessageId ? { targetMessageId } : {}) });
  child.persist();
  return {
    forkedSessionId,
    parentSessionId: rt.sessionId,
    ...(targetMessageId ? { targetMessageId } : {}),
    response: '',
    snapshot: buildSnapshot(child, sim.registry, 'current'),
  };
}
