/**
 * Turns that history shows as never finished: a prompt with no answer after it,
 * or an answer the agent never completed (`time.completed` unset, no error), while no turn runs.
 * That is what a daemon or agent restart mid-turn leaves behind. The replay then says so with the
 * same `interrupted` marker a live interruption journals (turn-ended.ts), after whatever had been
 * said, its tool calls still open closed `failed` before it (open-tool-calls.ts). Pure.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { MessageWithParts } from './message-schema.js';
import { OpenToolCalls } from './open-tool-calls.js';
import { messageToUpdates } from './translate-history.js';
import { turnEndedUpdate } from './turn-ended.js';

/** What the marker of a turn found unfinished in history says. */
export const LOST_TURN_MESSAGE = 'This turn stopped when the hub or the agent restarted before it finished.';

function shown(m: MessageWithParts): boolean {
  return m.info.visibility !== 'model-only' && m.info.synthetic !== true && (m.info.role === 'user' || m.info.role === 'assistant');
}

/**
 * The ACP updates of a page of history, with an `interrupted` marker after each turn left
 * unfinished. `running`: a turn runs now (the page's last turn is then not unfinished).
 * `tail`: the page ends at the newest message (an older page's last turn may go on after it).
 */
export function historyWithLostTurns(messages: readonly MessageWithParts[], opts: { running: boolean; tail: boolean }): SessionUpdate[] {
  const visible = messages.filter(shown);
  const last = visible[visible.length - 1];
  const out: SessionUpdate[] = [];
  // The tool calls of the turn so far; an unfinished turn's are closed before its marker (open-tool-calls.ts).
  const open = new OpenToolCalls();
  for (const m of messages) {
    if (m.info.role === 'user' && shown(m)) open.clear();
    for (const u of messageToUpdates(m)) {
      out.push(u);
      open.note(u);
    }
    if (!shown(m)) continue;
    const i = visible.indexOf(m);
    const next = visible[i + 1];
    if (m === last && (opts.running || !opts.tail)) continue;
    const unanswered = m.info.role === 'user' && next?.info.role !== 'assistant';
    const unfinished =
      m.info.role === 'assistant' && m.info.time?.completed === undefined && m.info.finish === undefined && next?.info.role !== 'assistant';
    if (unanswered || unfinished)
      out.push(...open.closeAll(), turnEndedUpdate({ outcome: 'interrupted', error: { message: LOST_TURN_MESSAGE } }));
  }
  return out;
}
