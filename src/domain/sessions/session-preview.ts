/**
 * The last message of a session, folded from the ACP updates it emits: the
 * session list shows its start. A user prompt starts a user message; agent text starts an agent
 * message unless the agent was already speaking; a tool call ends the message, so the next text
 * starts a new one. Pure: the draft lives on the session, the result goes to SessionMarks.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { SessionPreview } from './session-marks.js';

/** The message being folded; `open` while more chunks of it may come. */
export interface PreviewDraft extends SessionPreview {
  open: boolean;
}

/** The draft after one update; the same object when the update says nothing about messages. */
export function foldPreview(draft: PreviewDraft | undefined, update: SessionUpdate, maxChars: number): PreviewDraft | undefined {
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
    case 'agent_message_chunk': {
      const role = update.sessionUpdate === 'user_message_chunk' ? 'user' : 'agent';
      // A chunk may be megabytes; the preview needs its start only (Markdown markers are dropped later).
      const text = update.content.type === 'text' ? update.content.text.slice(0, maxChars * 2) : '';
      if (draft?.open && draft.role === role) {
        // Only the start of a message is shown: stop growing once it is long enough.
        return draft.text.length > maxChars ? draft : { role, text: (draft.text + text).slice(0, maxChars * 2), open: true };
      }
      return { role, text, open: true };
    }
    case 'tool_call':
    case 'plan':
      return draft?.open ? { ...draft, open: false } : draft;
    default:
      return draft;
  }
}

/** The last message of a page of history updates, if it has one. */
export function previewOfUpdates(updates: readonly SessionUpdate[], maxChars: number): SessionPreview | undefined {
  let draft: PreviewDraft | undefined;
  let last: SessionPreview | undefined;
  for (const u of updates) {
    draft = foldPreview(draft, u, maxChars);
    if (draft && draft.text.trim() !== '') last = { role: draft.role, text: draft.text };
  }
  return last;
}
