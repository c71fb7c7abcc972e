/**
 * Sub-agent tool cards nested under the card that spawned them. A card whose announcing update
 * carries `_meta.zcode.subagent.parentToolCallId` (src/acp/translate-tool.ts `subagentMeta`)
 * lives in its parent card's `children`, not beside it in the chat. Pure: unit-tested in
 * test/web/subagent-tree.test.ts.
 */
import { WEB_LIMITS } from '../limits.js';
import { rec, str, type Rec } from '../wire.js';
import type { ChatItem, SubagentTag, ToolItem } from './chat-types.js';

/** `_meta.zcode.subagent` of one update, or undefined when it is not a sub-agent's tool call. */
export function subagentTagOf(meta: Rec): SubagentTag | undefined {
  const s = rec(rec(meta['zcode'])?.['subagent']);
  if (!s) return undefined;
  const tag: SubagentTag = {};
  for (const k of ['parentToolCallId', 'childSessionId', 'agentId', 'agentType'] as const) {
    const v = str(s[k]);
    if (v) tag[k] = v;
  }
  return tag;
}

/** Where a card sits: its top-level index, then one child index per level of nesting. */
export type CardPath = number[];

/** The path of the card `toolCallId`, searching nested sub-agent cards too. */
export function findCard(cards: readonly ChatItem[], toolCallId: string): CardPath | undefined {
  // Newest first, as a toolCallId is only ever reused by a later card in the rare replays that
  // repeat one (the flat reducer did the same with findLastIndex).
  for (let i = cards.length - 1; i >= 0; i--) {
    const c = cards[i];
    if (c?.kind !== 'tool') continue;
    if (c.toolCallId === toolCallId) return [i];
    if (c.children?.length) {
      const inner = findCard(c.children, toolCallId);
      if (inner) return [i, ...inner];
    }
  }
  return undefined;
}

/** The card at `path` (which findCard returned for the same items). */
export function cardAt(items: readonly ChatItem[], path: CardPath): ToolItem {
  const [head, ...rest] = path;
  const top = items[head ?? -1];
  if (top?.kind !== 'tool') throw new Error(`no tool card at ${path.join('/')}`);
  return rest.reduce<ToolItem>((card, i) => {
    const child = card.children?.[i];
    if (!child) throw new Error(`no tool card at ${path.join('/')}`);
    return child;
  }, top);
}

function editCard(card: ToolItem, rest: CardPath, edit: (card: ToolItem) => ToolItem): ToolItem {
  if (rest.length === 0) return edit(card);
  const [i = -1, ...more] = rest;
  const children = (card.children ?? []).slice();
  const child = children[i];
  if (!child) throw new Error(`no nested tool card at ${i}`);
  children[i] = editCard(child, more, edit);
  return { ...card, children };
}

/** Items with the card at `path` replaced by `edit(card)`; every ancestor is copied. */
function editAt(items: readonly ChatItem[], path: CardPath, edit: (card: ToolItem) => ToolItem): ChatItem[] {
  const [head = -1, ...rest] = path;
  const top = items[head];
  if (top?.kind !== 'tool') throw new Error(`no tool card at ${head}`);
  const copy = items.slice();
  copy[head] = editCard(top, rest, edit);
  return copy;
}

/** Items with the card at `path` replaced by `card`. */
export function replaceCard(items: readonly ChatItem[], path: CardPath, card: ToolItem): ChatItem[] {
  return editAt(items, path, () => card);
}

/** Appends `child` to the card at `parentPath`, dropping (and counting) the oldest past the bound. */
export function addChild(items: readonly ChatItem[], parentPath: CardPath, child: ToolItem): ChatItem[] {
  return editAt(items, parentPath, (parent) => {
    const children = [...(parent.children ?? []), child];
    const over = children.length - WEB_LIMITS.subagentChildrenMax;
    if (over <= 0) return { ...parent, children };
    return { ...parent, children: children.slice(over), childrenDropped: (parent.childrenDropped ?? 0) + over };
  });
}

/**
 * Places a new card under its parent when the parent is shown; undefined when the card is not
 * a sub-agent's or its parent is unknown (the caller then adds it at the top level).
 */
export function nestNewCard(items: readonly ChatItem[], card: ToolItem): ChatItem[] | undefined {
  const parentId = card.subagent?.parentToolCallId;
  if (parentId === undefined || parentId === card.toolCallId) return undefined;
  const parent = findCard(items, parentId);
  return parent === undefined ? undefined : addChild(items, parent, card);
}

/**
 * Moves top-level sub-agent cards under their parent when it is now shown: an older history
 * page (`_zcode/load_earlier`) can bring the parent of cards a shorter replay left orphaned.
 */
export function nestOrphans(items: readonly ChatItem[]): ChatItem[] {
  let out = items.slice();
  const orphans = items.filter((it): it is ToolItem => it.kind === 'tool' && it.subagent?.parentToolCallId !== undefined);
  for (const orphan of orphans) {
    const at = out.indexOf(orphan);
    if (at === -1) continue;
    const parentId = orphan.subagent?.parentToolCallId ?? '';
    const parent = findCard(out, parentId);
    // Unknown parent, or a cycle (the parent lives inside this very card): stays where it is.
    const [top = -1, ...inner] = parent ?? [];
    if (parent === undefined || top === at) continue;
    const without = [...out.slice(0, at), ...out.slice(at + 1)];
    out = addChild(without, [top > at ? top - 1 : top, ...inner], orphan);
  }
  return out;
}

/** What the sub-agent list under a parent card shows: agent type, count, and whether it runs. */
export interface SubagentGroup {
  agentType?: string;
  count: number;
  running: boolean;
}

/** The sub-agent list of `card`, or undefined when it spawned none. */
export function subagentGroup(card: ToolItem): SubagentGroup | undefined {
  const children = card.children ?? [];
  if (children.length === 0) return undefined;
  const fromChild = children.map((c) => c.subagent?.agentType).find((a) => a !== undefined);
  const agentType = fromChild ?? str(rec(card.input)?.['subagent_type']);
  const running = children.some((c) => c.status === 'pending' || c.status === 'in_progress');
  return { ...(agentType ? { agentType } : {}), count: children.length + (card.childrenDropped ?? 0), running };
}
