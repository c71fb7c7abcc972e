/**
 * What an action that did not go for want of the link says (a prompt, Stop, an answer, a
 * setting): why — offline past the wait's bound (ConnectionLost), the token revoked, the hub
 * refusing this app, the link closed (LinkGone) — in the words of that action, so the user knows
 * both what was lost and what would bring the link back.
 */
import { t, type MessageKey } from '../i18n.js';
import { ConnectionLost } from '../net/rpc-errors.js';
import { LinkGone } from '../net/online-wait.js';

export type Unsent = 'prompt' | 'stop' | 'answer' | 'setting';
type Why = 'offline' | LinkGone['why'];

const SENTENCES: Record<Unsent, Record<Why, MessageKey>> = {
  prompt: { offline: 'offlineNotSent', revoked: 'revokedNotSent', refused: 'refusedNotSent', closed: 'closedNotSent' },
  stop: { offline: 'stopNotSent', revoked: 'stopRevokedNotSent', refused: 'stopRefusedNotSent', closed: 'stopClosedNotSent' },
  answer: { offline: 'answerNotSent', revoked: 'answerRevokedNotSent', refused: 'answerRefusedNotSent', closed: 'answerClosedNotSent' },
  setting: {
    offline: 'settingNotChanged',
    revoked: 'settingRevokedNotChanged',
    refused: 'settingRefusedNotChanged',
    closed: 'settingClosedNotChanged',
  },
};

/** The sentence for `act`, which failed with `err`; undefined when `err` is not the link's (the caller says what it was). */
export function notSentWhy(act: Unsent, err: unknown): string | undefined {
  if (err instanceof ConnectionLost) return t(SENTENCES[act].offline);
  if (err instanceof LinkGone) return t(SENTENCES[act][err.why]);
  return undefined;
}
