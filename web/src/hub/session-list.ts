/**
 * Pure session-list logic: `session/list` entries + live `_zcode/session_state` → summaries
 * with the badge the list shows (running, needs you, just finished, idle).
 */
import { WEB_LIMITS } from '../limits.js';
import { fields, num, rec, str, zmeta } from '../wire.js';
import type { SessionStateParams } from '../../../src/zcode-ext/schemas.js';
import type { TurnStateName } from './chat-types.js';
import type { SessionWaits } from './session-waits.js';

export interface SessionSummary {
  sessionId: string;
  /** The machine it runs on; undefined = the home hub. */
  hubId?: string;
  cwd: string;
  title?: string;
  updatedAt?: string;
  state: TurnStateName;
  model?: string;
  clients: number;
  pendingInteractions: number;
  /** Background tasks running now, by the hub's count (a task may outlive its turn); absent from an older hub. */
  runningTasks?: number;
  /** Archived from a device: hidden from the list unless the Archived filter is on. */
  archived?: boolean;
  /** The start of the last message (the hub's `preview`). */
  preview?: SessionPreview;
  /** When a turn last ended (ms), for the "just finished" badge. */
  finishedAt?: number;
}

export interface SessionPreview {
  role: 'user' | 'agent';
  text: string;
}

/** A `preview` as the hub sends it, else undefined. */
export function previewOf(v: unknown): SessionPreview | undefined {
  const r = rec(v);
  const text = str(r?.['text']);
  const role = r?.['role'];
  return text && (role === 'user' || role === 'agent') ? { role, text } : undefined;
}

/** `waiting`: it waits for an answer, but only from someone else (an approval rule's "waiting for ann"). */
export type Badge = 'needs_you' | 'waiting' | 'running' | 'finished' | 'idle';

function stateOf(v: unknown): TurnStateName {
  return v === 'running' || v === 'awaiting_input' || v === 'stopping' ? v : 'idle';
}

/** A model as the hub sends it (a string or `{providerId, modelId}`) → a short display name. */
export function modelLabel(v: unknown): string | undefined {
  if (typeof v === 'string') return v || undefined;
  const r = rec(v);
  return str(r?.['modelId']) ?? str(r?.['name']) ?? undefined;
}

function countOf(v: unknown): number {
  if (Array.isArray(v)) return v.length;
  return num(v) ?? 0;
}

/** One `session/list` entry (ACP SessionInfo + `_meta.zcode`) → a summary. */
export function fromListEntry(entry: unknown, prev?: SessionSummary): SessionSummary | undefined {
  const e = rec(entry);
  const sessionId = str(e?.['sessionId']);
  if (!e || !sessionId) return undefined;
  const z = zmeta(e);
  return {
    ...prev,
    sessionId,
    cwd: str(e['cwd']) ?? prev?.cwd ?? '',
    title: str(e['title']) ?? prev?.title,
    updatedAt: str(e['updatedAt']) ?? prev?.updatedAt,
    state: 'state' in z ? stateOf(z['state']) : (prev?.state ?? 'idle'),
    model: modelLabel(z['model']) ?? prev?.model,
    clients: countOf(z['clients']),
    pendingInteractions: countOf(z['pendingInteractions']),
    runningTasks: countOf(z['runningTasks']),
    archived: 'archived' in z ? z['archived'] === true : prev?.archived,
    preview: previewOf(z['preview']) ?? prev?.preview,
  };
}

/** Applies `_zcode/session_state`; a running → idle change stamps `finishedAt`. */
export function applySessionState(prev: SessionSummary | undefined, params: unknown, now: number): SessionSummary | undefined {
  const p = fields<SessionStateParams>(params);
  const sessionId = str(p?.sessionId);
  if (!p || !sessionId) return prev;
  const state = 'state' in p ? stateOf(p.state) : (prev?.state ?? 'idle');
  const wasBusy = prev !== undefined && prev.state !== 'idle';
  const updatedAt = p.updatedAt;
  return {
    sessionId,
    ...(prev?.hubId !== undefined ? { hubId: prev.hubId } : {}),
    cwd: str(p.cwd) ?? prev?.cwd ?? '',
    title: str(p.title) ?? prev?.title,
    updatedAt: typeof updatedAt === 'number' ? new Date(updatedAt).toISOString() : (str(updatedAt) ?? prev?.updatedAt),
    state,
    model: modelLabel(p.model) ?? prev?.model,
    clients: 'clients' in p ? countOf(p.clients) : (prev?.clients ?? 0),
    pendingInteractions: 'pendingInteractions' in p ? countOf(p.pendingInteractions) : (prev?.pendingInteractions ?? 0),
    runningTasks: 'runningTasks' in p ? countOf(p.runningTasks) : (prev?.runningTasks ?? 0),
    archived: 'archived' in p ? p.archived === true : prev?.archived,
    preview: previewOf(p.preview) ?? prev?.preview,
    finishedAt: wasBusy && state === 'idle' ? now : prev?.finishedAt,
  };
}

/**
 * The badge of a session; `seenAt` = when the user last looked at it. `waits` = what its
 * pending requests ask of this device (session-waits.ts): only those it may answer need it;
 * with none known yet (the inbox not loaded), any pending request does, as before rules.
 */
export function badgeOf(s: SessionSummary, now: number, seenAt = 0, waits?: SessionWaits): Badge {
  if (s.state === 'awaiting_input' || s.pendingInteractions > 0)
    return waits !== undefined && waits.mine === 0 && waits.others > 0 ? 'waiting' : 'needs_you';
  if (s.state === 'running' || s.state === 'stopping') return 'running';
  if (s.finishedAt !== undefined && s.finishedAt > seenAt && now - s.finishedAt < WEB_LIMITS.justFinishedMs) return 'finished';
  return 'idle';
}

function timeOf(s: SessionSummary): number {
  const t = s.updatedAt ? Date.parse(s.updatedAt) : NaN;
  return Math.max(Number.isNaN(t) ? 0 : t, s.finishedAt ?? 0);
}

/** Sessions grouped by workspace; groups and sessions newest first; sessions needing you first. */
export function groupByWorkspace(list: SessionSummary[]): Array<{ cwd: string; sessions: SessionSummary[] }> {
  const groups = new Map<string, SessionSummary[]>();
  for (const s of list) groups.set(s.cwd, [...(groups.get(s.cwd) ?? []), s]);
  const rank = (s: SessionSummary) => (s.state === 'awaiting_input' || s.pendingInteractions > 0 ? 0 : 1);
  const sorted = [...groups.entries()].map(([cwd, sessions]) => ({
    cwd,
    sessions: sessions.sort((a, b) => rank(a) - rank(b) || timeOf(b) - timeOf(a)),
  }));
  return sorted.sort((a, b) => Math.max(...b.sessions.map(timeOf)) - Math.max(...a.sessions.map(timeOf)));
}

/** Last path segment of a workspace, for compact headers. */
export function workspaceName(cwd: string): string {
  const parts = cwd.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? cwd;
}
