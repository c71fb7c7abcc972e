/**
 * Authors in a history replay: the agent's history has no names, so the hub's
 * own record of who sent each prompt and who answered each interaction is put where the live
 * updates carry it — `_meta.zcode.promptedBy` on the prompt's `user_message_chunk`s and
 * `_meta.zcode.answeredBy` on the card of the tool call an interaction was about — and, on the
 * card of a Write that replaced a file that existed, `_meta.zcode.overwrites: true` (history's
 * diff says `oldText: null`, as for a new file). Pure.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';

/** An author as recorded: `name` always; `person`, `device`, `tokenId`, `client` when recorded (src/domain/people/author.ts). */
export interface HistoryAuthor {
  clientId?: string;
  name: string;
  person?: string;
  device?: string;
  tokenId?: string;
  client?: string;
}

/** Where the names and marks come from (the hub's author book). */
export interface AuthorLookup {
  prompt(messageId: string): HistoryAuthor | undefined;
  answer(toolCallId: string): HistoryAuthor | undefined;
  /** True when the tool call was a Write that replaced a file that existed. */
  overwrites(toolCallId: string): boolean;
}

/** `updates` with the authors the lookup knows added to their `_meta.zcode`. */
export function withAuthors(updates: readonly SessionUpdate[], who: AuthorLookup): SessionUpdate[] {
  return updates.map((u) => {
    if (u.sessionUpdate === 'user_message_chunk' && typeof u.messageId === 'string') {
      const by = who.prompt(u.messageId);
      return by === undefined ? u : { ...u, _meta: withZcode(u._meta, { promptedBy: by }) };
    }
    if (u.sessionUpdate === 'tool_call') {
      const by = who.answer(u.toolCallId);
      const marks = { ...(by === undefined ? {} : { answeredBy: by }), ...(who.overwrites(u.toolCallId) ? { overwrites: true } : {}) };
      return Object.keys(marks).length === 0 ? u : { ...u, _meta: withZcode(u._meta, marks) };
    }
    return u;
  });
}

/** The prompt author a replayed update carries (lifted to the notification's `_meta.zcode`, as live). */
export function promptedByOf(u: SessionUpdate): HistoryAuthor | undefined {
  if (u.sessionUpdate !== 'user_message_chunk') return undefined;
  const z = u._meta?.['zcode'];
  const by = typeof z === 'object' && z !== null ? (z as { promptedBy?: unknown }).promptedBy : undefined;
  return typeof by === 'object' && by !== null && typeof (by as { name?: unknown }).name === 'string' ? (by as HistoryAuthor) : undefined;
}

function withZcode(meta: { [key: string]: unknown } | null | undefined, add: Record<string, unknown>): { [key: string]: unknown } {
  const z = meta?.['zcode'];
  return { ...(meta ?? {}), zcode: { ...(typeof z === 'object' && z !== null ? z : {}), ...add } };
}
