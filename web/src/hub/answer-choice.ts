/** The words of the button an answer came from ("Allow once", "Approve"), for "your answer … waits". */
import { t } from '../i18n.js';
import type { Answer, PendingInteraction } from './interactions.js';

export function answerChoice(i: PendingInteraction, answer: Answer): string {
  switch (answer.kind) {
    case 'option':
      return i.options?.find((o) => o.optionId === answer.optionId)?.name ?? answer.optionId;
    case 'approve':
      return t('approve');
    case 'feedback':
      return t('rejectWithFeedback');
    case 'decline':
      return i.kind === 'plan_approval' ? t('reject') : t('skip');
    case 'form':
    case 'questions':
      return t('submit');
  }
}
