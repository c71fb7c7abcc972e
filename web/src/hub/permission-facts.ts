/**
 * What a permission asks to do, read from its ACP `session/request_permission` params
 * (docs/CLIENT-PROTOCOL.md "Interactions": `toolCall.rawInput`, `content` diff items,
 * `locations`, `_meta.zcode.cwd`) and who may answer it (`_meta.zcode.rule`, `waitingFor`,
 * `eligible`, each optional). Pure: the permission sheet and the inbox render what this returns.
 */
import { relativePath } from '../changes/changes.js';
import { arr, bool, rec, str, zmeta, type Rec } from '../wire.js';
import type { OptionView, PendingInteraction } from './interactions.js';
import { workspaceName } from './session-list.js';

/** One proposed change of an existing file (an Edit hunk). */
export interface EditFact {
  path: string;
  /** The path as shown: relative to the session's workspace when inside it. */
  shown: string;
  oldText: string;
  newText: string;
}

/** A file written whole (a Write, or a diff item with `oldText: null`). */
export interface WriteFact {
  path: string;
  shown: string;
  content: string;
  lineCount: number;
}

/** Who sent the request here and who may answer it (the hub's approval rules). */
export interface Approval {
  /** "id — description" of the rule that routed the request, when the hub named one. */
  rule?: string;
  /** Who else the request waits for, as names. */
  waitingFor: string[];
  /** False only when the hub says this device may not answer. */
  eligible: boolean;
}

export interface PermissionFacts {
  /** ACP tool kind (`edit`, `execute`, `fetch`, …; `other` when unknown). */
  kind: string;
  edits: EditFact[];
  writes: WriteFact[];
  command?: string;
  /** Where the command runs, as shown (workspace-relative; the workspace itself by its name). */
  cwd?: string;
  url?: string;
  /** Files named by `locations` that no diff already shows (a read, a delete …). */
  paths: string[];
  /** The agent's reason for asking, when it is more than the title says. */
  reason?: string;
}

/** The `toolCall` of a live request, or an empty object (an inbox copy has none). */
function toolCallOf(i: PendingInteraction): Rec {
  return rec(i.rpc?.params['toolCall']) ?? {};
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** A directory as shown: the workspace by its folder name, a folder inside it as `name/sub`. */
export function shownDir(dir: string, workspace: string | undefined): string {
  if (!workspace) return dir;
  const root = workspace.replace(/\/+$/, '');
  const name = workspaceName(root) || root;
  if (dir.replace(/\/+$/, '') === root) return name;
  const rel = relativePath(dir, root);
  return rel === dir ? dir : `${name}/${rel}`;
}

/** The facts of a permission, with paths shown relative to `workspace` (the session's cwd). */
export function permissionFacts(i: PendingInteraction, workspace: string | undefined): PermissionFacts {
  const tool = toolCallOf(i);
  const input = rec(tool['rawInput']) ?? {};
  const kind = str(tool['kind']) ?? 'other';
  const edits: EditFact[] = [];
  const writes: WriteFact[] = [];
  for (const c of arr(tool['content'])) {
    const d = rec(c);
    const path = str(d?.['path']);
    const newText = str(d?.['newText']);
    if (d?.['type'] !== 'diff' || !path || newText === undefined) continue;
    const shown = relativePath(path, workspace);
    const oldText = str(d['oldText']);
    if (oldText === undefined) writes.push({ path, shown, content: newText, lineCount: lineCount(newText) });
    else edits.push({ path, shown, oldText, newText });
  }
  const diffed = new Set([...edits, ...writes].map((d) => d.path));
  const paths = arr(tool['locations']).flatMap((l) => {
    const path = str(rec(l)?.['path']);
    return path && !diffed.has(path) ? [relativePath(path, workspace)] : [];
  });
  const command = kind === 'execute' ? (str(input['command']) ?? str(input['cmd'])) : undefined;
  const cwd = str(zmeta(tool)['cwd']) ?? str(input['cwd']) ?? (command !== undefined ? workspace : undefined);
  const url = kind === 'fetch' ? (str(input['url']) ?? str(input['query'])) : undefined;
  const reason = str(zmeta(i.rpc?.params)['reason']);
  return {
    kind,
    edits,
    writes,
    ...(command === undefined ? {} : { command }),
    ...(cwd === undefined || command === undefined ? {} : { cwd: shownDir(cwd, workspace) }),
    ...(url === undefined ? {} : { url }),
    paths,
    ...(reason && !i.title.toLowerCase().includes(reason.toLowerCase()) ? { reason } : {}),
  };
}

/** A person, device or group named by the hub: a string, or an object with a name. */
function nameOf(v: unknown): string | undefined {
  const s = str(v);
  if (s) return s;
  const r = rec(v);
  return r ? (str(r['name']) ?? str(r['displayName']) ?? str(r['label']) ?? str(r['id'])) : undefined;
}

/**
 * The approval fields of an interaction: `_meta.zcode` of its live request, else those of its
 * inbox copy. Each is optional; absent, the request is simply for this device.
 */
export function approvalOf(i: PendingInteraction): Approval {
  const live = zmeta(i.rpc?.params);
  const z: Rec = { ...(i.approval ?? {}), ...live };
  const rule = rec(z['rule']);
  const id = str(rule?.['id']) ?? str(z['rule']);
  const description = str(rule?.['description']);
  const waiting = z['waitingFor'];
  const waitingFor = (Array.isArray(waiting) ? waiting : waiting === undefined ? [] : [waiting]).flatMap((w) => {
    const n = nameOf(w);
    return n ? [n] : [];
  });
  return {
    ...(id || description ? { rule: [id, description].filter(Boolean).join(' — ') } : {}),
    waitingFor,
    eligible: bool(z['eligible']) !== false,
  };
}

/** How a permission option's button looks: the one-time allow leads, a lasting allow is quieter, a denial is danger. */
export type OptionRole = 'primary' | 'quiet' | 'danger' | 'plain';

/** The options in the order the sheet shows them, each with its role (exactly one primary at most). */
export function orderedOptions(options: readonly OptionView[]): Array<OptionView & { role: OptionRole }> {
  const once = options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind.startsWith('allow'));
  const roleOf = (o: OptionView): OptionRole =>
    o === once
      ? 'primary'
      : o.kind.startsWith('allow')
        ? 'quiet'
        : o.kind.startsWith('reject') || o.kind.startsWith('deny')
          ? 'danger'
          : 'plain';
  const rank: Record<OptionRole, number> = { primary: 0, quiet: 1, plain: 2, danger: 3 };
  return options.map((o) => ({ ...o, role: roleOf(o) })).sort((a, b) => rank[a.role] - rank[b.role]);
}

/** The inbox split: what this device may answer, and what waits for someone else. */
export function splitInbox(items: readonly PendingInteraction[]): { mine: PendingInteraction[]; others: PendingInteraction[] } {
  const mine: PendingInteraction[] = [];
  const others: PendingInteraction[] = [];
  for (const i of items) (approvalOf(i).eligible ? mine : others).push(i);
  return { mine, others };
}
