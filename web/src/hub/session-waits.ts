/**
 * What a session's pending requests ask of this device (docs/CLIENT-PROTOCOL.md "Approval
 * rules", `mayAnswer`): how many it may answer, how many wait for someone else and for whom.
 * The session badge and the chat banner read this, so a request for Ann never says "Needs you"
 * on Bo's phone.
 */
import { approvalOf } from './permission-facts.js';
import type { PendingInteraction } from './interactions.js';

export interface SessionWaits {
  /** Requests this device may answer. */
  mine: number;
  /** Requests that wait for someone else. */
  others: number;
  /** The hub's "waiting for ann" of the oldest request for someone else, when a rule says. */
  waitingFor?: string;
}

/** The waits of one session of one machine (hubId undefined = the home hub). */
export function sessionWaits(
  interactions: Readonly<Record<string, PendingInteraction>>,
  sessionId: string,
  hubId: string | undefined,
): SessionWaits {
  let mine = 0;
  let others = 0;
  let oldest: PendingInteraction | undefined;
  for (const i of Object.values(interactions)) {
    if (i.sessionId !== sessionId || i.hubId !== hubId) continue;
    if (approvalOf(i).eligible) mine += 1;
    else {
      others += 1;
      if (oldest === undefined || (i.createdAt ?? 0) < (oldest.createdAt ?? 0)) oldest = i;
    }
  }
  const waitingFor = oldest?.approval?.waitingFor;
  return { mine, others, ...(waitingFor === undefined ? {} : { waitingFor }) };
}
