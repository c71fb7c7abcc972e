/**
 * What a permission asks to do, read from its ACP `session/request_permission` params
 * (docs/CLIENT-PROTOCOL.md "Interactions": `toolCall.rawInput`, `content` diff items,
 * `locations`, `_meta.zcode.cwd`) and who may answer it (the hub's `approval` and `mayAnswer`,
 * read by approval-wire.ts). Pure: the permission sheet and the inbox render what this returns.
 */
import { relativePath } from '../changes/changes.js';
import { lineCount } from '../diff-lines.js';
import { arr, rec, str, zmeta, type Rec } from '../wire.js';
import { ruleLabel } from './approval-wire.js';
import type { ToolItem } from './chat-types.js';
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
  /** The file exists: the write replaces it (the hub's `_meta.zcode.overwrites`), its old content not shown. */
  overwrites: boolean;
}

/** Who may answer a request and how far its votes are (the hub's approval rules). */
export interface Approval {
  /** "r (description)" of the `ask` rule holding the request, when one does. */
  rule?: string;
  /** The hub's "waiting for an admin" / "waiting for ann", when a rule holds the request. */
  waitingFor?: string;
  /** "1 of 2 — ann allowed", with a quorum above 1. */
  progress?: string;
  /** This device may answer: it holds a live request, or the hub's `mayAnswer` says so (absent = yes). */
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
  /** The hub's view cut a long text (`_meta.zcode.truncated`): the request itself has it whole. */
  truncated?: boolean;
}

/**
 * The `toolCall` of a live request, else the one the hub's view carries (`InteractionView.toolCall`),
 * else the chat's card of the same call (a hub that sends no `toolCall` in its views), else nothing.
 */
function toolCallOf(i: PendingInteraction, card: ToolItem | undefined): Rec {
  const sent = rec(i.rpc?.params['toolCall']) ?? i.toolCall;
  if (sent || !card) return sent ?? {};
  return { kind: card.toolKind, rawInput: card.input, content: card.content, locations: card.locations.map((path) => ({ path })) };
}

/** True when the facts of a permission are at hand: its request, the view's tool call, or the chat's card. */
export function hasFacts(i: PendingInteraction, card: ToolItem | undefined): boolean {
  return i.rpc !== undefined || i.toolCall !== undefined || card !== undefined;
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

/**
 * The facts of a permission, with paths shown relative to `workspace` (the session's cwd). A copy
 * without the request (read-only, inbox) reads them from the view's tool call, or from `card`, the
 * chat's card of the same tool call.
 */
export function permissionFacts(i: PendingInteraction, workspace: string | undefined, card?: ToolItem): PermissionFacts {
  const tool = toolCallOf(i, card);
  const input = rec(tool['rawInput']) ?? {};
  const kind = str(tool['kind']) ?? 'other';
  const edits: EditFact[] = [];
  const writes: WriteFact[] = [];
  const overwrites = zmeta(tool)['overwrites'] === true;
  for (const c of arr(tool['content'])) {
    const d = rec(c);
    const path = str(d?.['path']);
    const newText = str(d?.['newText']);
    if (d?.['type'] !== 'diff' || !path || newText === undefined) continue;
    const shown = relativePath(path, workspace);
    const oldText = str(d['oldText']);
    if (oldText === undefined) writes.push({ path, shown, content: newText, lineCount: lineCount(newText), overwrites });
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
    ...(zmeta(tool)['truncated'] === true ? { truncated: true } : {}),
  };
}

/**
 * Who may answer an interaction: a live request was sent to this device because it may; an
 * inbox or read-only copy says so in `mayAnswer`. The rule, for whom it waits and the tally come
 * from the newest `approval` the hub sent (request, view or card update).
 */
export function approvalOf(i: PendingInteraction): Approval {
  const a = i.approval;
  return {
    ...(a ? { rule: ruleLabel(a.rule), waitingFor: a.waitingFor } : {}),
    ...(a?.progress ? { progress: a.progress } : {}),
    eligible: i.rpc !== undefined || i.mayAnswer !== false,
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
