/**
 * Which TodoWrite cards draw their list. A todo list is rewritten whole by each TodoWrite call, so
 * drawing every card repeats the same steps: they show once — in the plan view for the turn whose
 * plan it draws (chat-view.tsx), else in the last card of their turn (the list as it ended).
 */
import type { ChatItem, ToolItem } from './chat-types.js';

/** How a card that does not draw its list points at the one that does. */
export type TodoRef = 'plan' | 'below';

/** The tool a card is, when its title is just the bare tool name (src/acp/tool-info.ts `toolTitle`). */
export function bareName(item: ToolItem): string {
  return item.title.split(/[\s:]/)[0] ?? '';
}

/**
 * The top-level TodoWrite cards that refer elsewhere, by item id: `plan` after `planTurnIndex`
 * (the user message whose turn's plan the plan view draws), `below` for all but a turn's last card.
 */
export function todoRefs(items: readonly ChatItem[], planTurnIndex: number | undefined): Map<string, TodoRef> {
  const refs = new Map<string, TodoRef>();
  let lastOfTurn: string | undefined;
  items.forEach((item, i) => {
    if (item.kind === 'user') lastOfTurn = undefined;
    if (item.kind !== 'tool' || bareName(item) !== 'TodoWrite') return;
    if (planTurnIndex !== undefined && i > planTurnIndex) {
      refs.set(item.id, 'plan');
      return;
    }
    if (lastOfTurn !== undefined) refs.set(lastOfTurn, 'below');
    lastOfTurn = item.id;
  });
  return refs;
}
