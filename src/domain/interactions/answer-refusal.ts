/**
 * Why an answer to an interaction was refused, said the same way to every transport
 * (docs/CLIENT-PROTOCOL.md "Approval rules", "Refusals"): the REST answer route throws it as a
 * HubError, an ACP client is sent `_zcode/answer_refused` with the same reason, code and message.
 * Pure: the caller decides which refusal applies and how it is sent.
 */
import { HubError, type HubErrorCode } from '../../errors.js';
import type { ApprovalState } from '../../policy/approval-state.js';
import type { InteractionRecord } from './interactions.js';

/**
 * `not_eligible`: the rule's approvers (or `localOnly`) leave this caller out; `already_voted`:
 * this person allowed already (each person counts once); `settled`: the request was decided
 * before the answer arrived; `invalid`: the answer is not one the caller was offered.
 */
export type RefusalReason = 'not_eligible' | 'already_voted' | 'settled' | 'invalid';

export interface AnswerRefusal {
  reason: RefusalReason;
  /** The HubError code the REST route answers with. */
  code: HubErrorCode;
  message: string;
  /** `waitingFor` (not_eligible), `approval` (already_voted), `state` and `resolvedBy` (settled). */
  details: Record<string, unknown>;
}

/** The caller is not among the approvers the rule names. */
export function notEligible(approval: ApprovalState, person: string): AnswerRefusal {
  const waitingFor = approval.waitingFor();
  return {
    reason: 'not_eligible',
    code: 'HUB_ERR_FORBIDDEN',
    message: `This request is ${waitingFor}; ${person} may not answer it`,
    details: { waitingFor },
  };
}

/** The caller's person allowed already, from this or another device. */
export function alreadyVoted(approval: ApprovalState, person: string): AnswerRefusal {
  return {
    reason: 'already_voted',
    code: 'HUB_ERR_CONFLICT',
    message: `${person} already allowed this request; each person counts once`,
    details: { approval: approval.view() },
  };
}

/** The request was decided (or cancelled, lost, expired) before this answer. */
export function alreadySettled(record: InteractionRecord): AnswerRefusal {
  const { state, resolvedBy } = record.view;
  const by = resolvedBy === undefined ? '' : ` by ${resolvedBy.name}`;
  return {
    reason: 'settled',
    code: 'HUB_ERR_ALREADY_RESOLVED',
    message: `Interaction already ${state}${by}`,
    details: { state, ...(resolvedBy === undefined ? {} : { resolvedBy }) },
  };
}

/** The answer does not fit the request as offered (an option not offered, a malformed form). */
export function invalidAnswer(why: string): AnswerRefusal {
  return { reason: 'invalid', code: 'HUB_ERR_BAD_REQUEST', message: why, details: {} };
}

/** The REST route's error for a refusal: `details.reason` names it as the notification does. */
export function refusalError(refusal: AnswerRefusal): HubError {
  return new HubError(refusal.code, refusal.message, { reason: refusal.reason, ...refusal.details });
}
