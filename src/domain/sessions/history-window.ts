/**
 * Reading a page of history without reading the whole conversation. The agent answers only "the
 * newest N messages" (`session/messages` `limit`, APP-SERVER.md §4.5), so a page is cut from a
 * window of the newest messages that starts small and grows (× WINDOW_GROWTH) only while the page
 * could reach past its start: its cursor message is not in it yet, or the page starts at the
 * window's first message (the turn may begin earlier, or older messages may follow). Up to the
 * cap (`replayMaxMessages`) the page is the same one the whole conversation would give, so opening
 * the newest page costs the same for a 10-turn and a 1,000-turn session (bench B-LONG); paging
 * back costs what the depth of the page costs.
 */
import { HubError } from '../../errors.js';
import type { MessageWithParts } from '../../acp/message-schema.js';
import type { HistoryPage } from '../../acp/history-page.js';

/** How much the window grows each time the page did not fit in it. */
export const WINDOW_GROWTH = 4;

/** The first window for a page of `limit` messages: room to move back to its turn's user message. */
export function firstWindow(limit: number, max: number): number {
  return Math.min(max, limit * 4 + 16);
}

/**
 * The page `cut` gives on the newest messages, fetched in windows from `firstWindow(limit, max)`
 * up to `max`. `cut` throws HUB_ERR_NOT_FOUND when the window lacks the message a cursor names: a
 * window short of `max` then grows, at `max` the error stands.
 */
export async function pageFromWindow(
  fetch: (limit: number) => Promise<MessageWithParts[]>,
  cut: (messages: MessageWithParts[]) => HistoryPage,
  limit: number,
  max: number,
): Promise<HistoryPage> {
  let window = firstWindow(limit, max);
  for (;;) {
    const messages = await fetch(window);
    // A window the agent did not fill holds the whole conversation: the page is final.
    const partial = messages.length >= window && window < max;
    if (!partial) return cut(messages);
    let page: HistoryPage | undefined;
    try {
      page = cut(messages);
    } catch (err) {
      if (!(err instanceof HubError) || err.code !== 'HUB_ERR_NOT_FOUND') throw err;
    }
    const first = messages[0];
    if (page !== undefined && page.messages.length > 0 && page.messages[0] !== first) return page;
    window = Math.min(max, window * WINDOW_GROWTH);
  }
}
