/**
 * `_zcode/partial_answer` (docs/CLIENT-PROTOCOL.md "Partial answers"): one question's answer is
 * kept on the pending interaction, refused exactly as a whole answer would be (scope, the rules'
 * approvers, a vote given, settled). The answer that completes the set is the whole answer and
 * goes through InteractionFlow.answer — the same race, rules and votes; the caller's own copy is
 * then withdrawn like everyone else's.
 */
import type { Identity } from '../../auth/identity.js';
import { scopeAllows } from '../../auth/identity.js';
import { HubError } from '../../errors.js';
import { alreadySettled, invalidAnswer, refusalError } from './answer-refusal.js';
import { authorOf } from '../people/author.js';
import type { HubCore } from '../hub-core.js';
import type { InteractionFlow } from './interaction-flow.js';
import { voterOf } from './interaction-gate.js';
import { announceProgress } from './interaction-notices.js';
import type { InteractionView } from './interactions.js';
import { completedAnswers, withPartialAnswer, type PartialAnswerInput } from './partial-answers.js';

export type { PartialAnswerInput };

/** Who answers (REST or a connection): identity from the token, the connection, whether it is local. */
export interface AnswerCaller {
  identity: Identity;
  clientId?: string;
  local?: boolean;
}

/** Keeps one question's answer, or answers the whole question with the last one. */
export function givePartialAnswer(
  core: HubCore,
  flow: InteractionFlow,
  interactionId: string,
  input: PartialAnswerInput,
  by: AnswerCaller,
): InteractionView {
  if (!scopeAllows(by.identity.scope, 'operate')) throw new HubError('HUB_ERR_FORBIDDEN', 'Answering needs the operate scope');
  const record = core.interactions.get(interactionId);
  if (!record) throw new HubError('HUB_ERR_NOT_FOUND', `Unknown interaction ${interactionId}`);
  if (record.view.state !== 'pending') throw refusalError(alreadySettled(record));
  const refused = flow.standing(record, voterOf(by.identity, by.local));
  if (refused) throw refusalError(refused);
  const questions = record.view.kind === 'question' ? (record.view.questions ?? []) : [];
  if (questions.length === 0) throw refusalError(invalidAnswer('Only a question is answered one question at a time'));
  const author = authorOf(by.identity, by.clientId);
  const kept = withPartialAnswer(record.view.partialAnswers, questions, input, author, core.config.limits.partialAnswerChars, Date.now());
  const answers = completedAnswers(questions, kept);
  if (answers === undefined) {
    record.view.partialAnswers = kept;
    // The audit log names every device that gave part of an answer, not only the last one.
    core.audit(by.identity, 'answer', record.view.sessionId, { interactionId, kind: record.view.kind, partial: input.questionIndex });
    announceProgress(core, record);
    return { ...record.view };
  }
  const own = by.clientId === undefined ? undefined : record.copies.get(by.clientId);
  const view = flow.answer(interactionId, { answers }, by);
  if (own !== undefined && by.clientId !== undefined && !record.copies.has(by.clientId)) own.withdraw();
  if (record.view.state === 'pending') {
    // A vote counted under an ask rule: the next approver answers afresh.
    delete record.view.partialAnswers;
    announceProgress(core, record);
    return { ...record.view };
  }
  return view;
}
