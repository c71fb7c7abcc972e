/**
 * A question copy asked one card at a time (clients with `oneQuestionAtATime`, the
 * zcode-acp-remote profile: docs/CLIENT-PROTOCOL.md). Each card's tool_call goes to this client
 * first; its request follows `prefaceMs` later, because that client applies updates in batches
 * and looks the tool call up the moment the request lands. The next card is sent only once the
 * previous one is answered; a `cancelled` reply dismisses the copy, like every other shape.
 */
import { checkStepReply, questionStepAnswersToZcode, toQuestionSteps, type QuestionStep } from '../../acp/question-steps.js';
import type { ElicitationInteraction, QuestionInteraction, ZcodeAnswer } from '../../acp/interactions.js';
import type { ClientPort } from '../delivery/client-port.js';
import { Frame } from '../delivery/frame.js';
import type { InteractionCopy } from './interactions.js';

function notification(method: string, params: unknown): Frame {
  return new Frame(JSON.stringify({ jsonrpc: '2.0', method, params }));
}

/** Opens a one-card-at-a-time copy; `onReply` is called at most once. */
export function openStepwiseCopy(
  acp: QuestionInteraction | ElicitationInteraction,
  client: ClientPort,
  prefaceMs: number,
  onReply: (reply: ZcodeAnswer) => void,
): InteractionCopy {
  const steps = toQuestionSteps(acp);
  const replies: unknown[] = [];
  let open = true;
  let timer: NodeJS.Timeout | undefined;
  let outstanding: string | number | undefined;
  let shown: QuestionStep | undefined;

  const closeCard = (): void => {
    if (shown) client.sendFrame(notification('session/update', shown.done));
    shown = undefined;
  };
  const stop = (): void => {
    open = false;
    clearTimeout(timer);
    if (outstanding !== undefined) client.cancelRequest(outstanding);
    outstanding = undefined;
    closeCard();
  };
  const finish = (reply: ZcodeAnswer): void => {
    if (!open) return;
    stop();
    onReply(reply);
  };
  const ask = (k: number): void => {
    const s = steps[k];
    if (s === undefined) return finish(questionStepAnswersToZcode(acp, steps, replies));
    shown = s;
    client.sendFrame(notification('session/update', s.preface));
    timer = setTimeout(() => {
      if (!open || !client.open) return;
      const { id, response } = client.request('session/request_permission', s.request);
      outstanding = id;
      response.then(
        (value) => {
          if (!open || outstanding !== id) return;
          outstanding = undefined;
          const checked = checkStepReply(s, value);
          if (checked === 'dismissed') return finish({ type: 'dismissed' });
          if (checked !== 'ok') return finish({ type: 'invalid', reason: checked.invalid });
          replies[k] = value;
          closeCard();
          ask(k + 1);
        },
        () => {
          // Withdrawn or the connection went away: silence, like the other shapes.
          if (outstanding === id) outstanding = undefined;
          open = false;
          clearTimeout(timer);
        },
      );
    }, prefaceMs);
  };
  ask(0);
  return {
    withdraw(): void {
      if (open) stop();
    },
  };
}
