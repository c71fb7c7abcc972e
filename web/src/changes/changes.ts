/** The files a session changed, gathered from its tool cards' ACP `diff` content. Pure. */
import type { ChatItem, ToolItem, ToolStatus } from '../hub/chat-types.js';
import { diffLines, lineCount } from '../diff-lines.js';

/** One diff of one tool call (an Edit hunk, a Write's whole file). */
export interface FileEdit {
  toolCallId: string;
  /** The chat item id of the card (scroll target back in the chat). */
  itemId: string;
  title: string;
  status: ToolStatus;
  oldText: string | null;
  newText: string;
  added: number;
  removed: number;
  /** A Write that replaced a file that existed (its card's `overwrites`): `newText` is the whole new file, not only new lines. */
  overwrites: boolean;
}

/** Every edit of one path, oldest first. */
export interface FileChange {
  path: string;
  edits: FileEdit[];
  /**
   * Lines added and removed by the edits whose diff has both sides. A Write that replaced a file
   * is not counted: what it removed is not known (its diff has no old side), so its lines are
   * `replacedLines`, not "+N −0".
   */
  added: number;
  removed: number;
  /** True when the first edit of the path wrote a new file (`oldText: null`, nothing there before). */
  created: boolean;
  /** The lines of the newest Write that replaced the file while it existed; undefined when none did. */
  replacedLines: number | undefined;
  /** True when some edit has both sides, so `added` and `removed` say something. */
  counted: boolean;
}

/** The changed files' totals: lines of the counted edits, and how many files a Write replaced. */
export function changeTotals(files: readonly FileChange[]): { added: number; removed: number; counted: boolean; replaced: number } {
  return {
    added: files.reduce((n, f) => n + f.added, 0),
    removed: files.reduce((n, f) => n + f.removed, 0),
    counted: files.some((f) => f.counted),
    replaced: files.filter((f) => f.replacedLines !== undefined).length,
  };
}

function* toolCards(items: readonly ChatItem[]): Generator<ToolItem> {
  for (const item of items) {
    if (item.kind !== 'tool') continue;
    yield item;
    if (item.children) yield* toolCards(item.children);
  }
}

/** Added and removed line counts of one diff. */
export function countLines(oldText: string | null | undefined, newText: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of diffLines(oldText, newText)) {
    if (l.op === '+') added++;
    else if (l.op === '-') removed++;
  }
  return { added, removed };
}

/**
 * The changed files of a chat, in the order they were first touched. Failed cards (a denied
 * permission, an edit that did not apply) changed nothing and are left out; pending and running
 * ones are kept with their status.
 */
export function collectChanges(items: readonly ChatItem[]): FileChange[] {
  const byPath = new Map<string, FileChange>();
  for (const card of toolCards(items)) {
    if (card.status === 'failed') continue;
    for (const c of card.content) {
      if (c.type !== 'diff') continue;
      const oldText = c.oldText ?? null;
      const { added, removed } = countLines(oldText, c.newText);
      const overwrites = oldText === null && card.overwrites === true;
      let file = byPath.get(c.path);
      if (!file) {
        file = {
          path: c.path,
          edits: [],
          added: 0,
          removed: 0,
          created: oldText === null && !overwrites,
          replacedLines: undefined,
          counted: false,
        };
        byPath.set(c.path, file);
      }
      file.edits.push({
        toolCallId: card.toolCallId,
        itemId: card.id,
        title: card.title,
        status: card.status,
        oldText,
        newText: c.newText,
        added,
        removed,
        overwrites,
      });
      if (overwrites) {
        file.replacedLines = lineCount(c.newText);
        continue;
      }
      file.added += added;
      file.removed += removed;
      file.counted = true;
    }
  }
  return [...byPath.values()];
}

/** Files with at least one edit that was applied or is being applied (not just proposed). */
export function appliedCount(files: readonly FileChange[]): number {
  return files.filter((f) => f.edits.some((e) => e.status === 'completed' || e.status === 'in_progress')).length;
}

/** `path` relative to the session's workspace when inside it, else unchanged. */
export function relativePath(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const root = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return path.startsWith(root) ? path.slice(root.length) : path;
}

/** A card's own diffs counted as the Changes view counts a file's (`FileChange`): a replacing Write by its lines, not "+N −0". */
export function cardCounts(card: ToolItem): Pick<FileChange, 'added' | 'removed' | 'counted' | 'replacedLines'> {
  const out: Pick<FileChange, 'added' | 'removed' | 'counted' | 'replacedLines'> = {
    added: 0,
    removed: 0,
    counted: false,
    replacedLines: undefined,
  };
  for (const c of card.content) {
    if (c.type !== 'diff') continue;
    if ((c.oldText ?? null) === null && card.overwrites === true) {
      out.replacedLines = (out.replacedLines ?? 0) + lineCount(c.newText);
      continue;
    }
    const n = countLines(c.oldText, c.newText);
    out.added += n.added;
    out.removed += n.removed;
    out.counted = true;
  }
  return out;
}

/** True when a card carries at least one diff (it gets a "view changes" link). */
export function hasDiff(item: ToolItem): boolean {
  return item.content.some((c) => c.type === 'diff');
}
