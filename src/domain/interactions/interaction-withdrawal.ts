/**
 * When a form's `cancel` ends the interaction (docs/CLIENT-PROTOCOL.md "Interactions"). A client
 * that answers an `elicitation/create` form with `cancel` withdraws its own copy: others may
 * still answer. But when that was the last client able to answer — no other copy is open and no
 * eligible client is about to be offered it — nobody is left to ask, and leaving the request
 * pending would hold the agent's turn forever. The agent is then answered `cancel`, as a single
 * client's cancel would have answered it. A client that joins later finds the request settled.
 */
import { connectionAuthor } from '../people/author.js';
import type { ClientPort } from '../delivery/client-port.js';
import type { HubCore } from '../hub-core.js';
import { voterOf, type InteractionGate } from './interaction-gate.js';
import type { InteractionRecord } from './interactions.js';
import type { SessionState } from '../sessions/session-state.js';

/** What the agent is told when every client withdrew its form (APP-SERVER.md §6.3: `cancel`). */
export const EVERYONE_WITHDREW = { action: 'cancel', reason: 'Every client dismissed the request' } as const;

/**
 * True when no client of `session` can still answer `record`: no copy is open, and no attached
 * client that may answer is still replaying (it is offered the request when its replay ends).
 * `mayAnswer` says whether the approval rules let a client answer (observers never do).
 */
export function nobodyLeftToAnswer(record: InteractionRecord, session: SessionState, mayAnswer: (client: ClientPort) => boolean): boolean {
  if (record.copies.size > 0) return false;
  for (const a of session.attachments.values()) {
    const waiting = a.replaying && a.client.open && !record.sentTo.has(a.client.clientId);
    if (waiting && a.role !== 'observer' && mayAnswer(a.client)) return false;
  }
  return true;
}

/**
 * `client` just withdrew its form copy of `record` (its copy is already dropped): settles the
 * interaction `cancelled`, the agent answered `cancel`, when nobody is left to answer it.
 */
export function endIfNobodyLeft(core: HubCore, gate: InteractionGate, record: InteractionRecord, client: ClientPort): void {
  const session = core.findSession(record.view.sessionId);
  const mayAnswer = (c: ClientPort): boolean => gate.mayAnswer(record, voterOf(c.identity, c.local));
  if (record.view.state !== 'pending' || !session || !nobodyLeftToAnswer(record, session, mayAnswer)) return;
  const settled = core.interactions.settle(
    record.view.interactionId,
    'cancelled',
    EVERYONE_WITHDREW,
    'cancelled',
    connectionAuthor(client),
  );
  if (settled.won)
    core.audit(client, 'answer', record.view.sessionId, {
      interactionId: record.view.interactionId,
      kind: record.view.kind,
      outcome: 'cancelled',
    });
}
