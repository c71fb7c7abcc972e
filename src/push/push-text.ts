/**
 * What a push notification says and opens: the session by name, what is
 * waiting (the tool to allow, the question, the plan) and a deep link that opens that very
 * sheet; "needs you" and "done" read differently and replace each other per session. Pure.
 */
import type { PushKind } from './push-notifier.js';

/** What push needs of a pending interaction (the domain's WaitingInteraction has these fields). */
export interface WaitingInteraction {
  interactionId: string;
  kind: 'permission' | 'question' | 'plan_approval';
  title: string;
  questions?: ReadonlyArray<{ question: string }>;
  plan?: string;
}

/** Longest body a notification gets (platforms cut around 120–180 characters anyway). */
const BODY_MAX = 140;

export interface PushContent {
  title: string;
  body: string;
  /** The page the notification opens (an app path on the home origin). */
  url: string;
  /** One notification per session: a newer one replaces the older (needs you ↔ done). */
  tag: string;
  /** "Needs you" stays until acted on; "done" may fade. */
  requireInteraction: boolean;
}

function cut(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > BODY_MAX ? `${one.slice(0, BODY_MAX - 1)}…` : one;
}

/** One line saying what an interaction asks for. */
export function waitingLine(i: WaitingInteraction): string {
  switch (i.kind) {
    case 'permission':
      return `Allow ${i.title}?`;
    case 'question': {
      const first = i.questions?.[0]?.question ?? i.title;
      const more = (i.questions?.length ?? 1) - 1;
      return more > 0 ? `${first} (+${more} more)` : first;
    }
    case 'plan_approval':
      return `Approve the plan?${
        i.plan
          ? ` ${
              i.plan
                .split('\n')
                .find((l) => l.trim() && !l.startsWith('#'))
                ?.trim() ?? ''
            }`
          : ''
      }`;
  }
}

/** Which machine sends it: its id makes the link `/m/<hubId>/s/<sessionId>`. */
export interface PushMachine {
  hubId: string;
  name: string;
}

/**
 * The notification for `kind` on a session named `name`; `waiting` = its oldest pending
 * interaction. With `machine` the link is the app's deep link to that machine's session
 * (`/m/<hubId>/s/<sessionId>`, MULTI-CONTRACT "Deep links"), which every home app can open.
 */
export function pushContent(
  kind: PushKind,
  sessionId: string,
  name: string,
  waiting?: WaitingInteraction,
  machine?: PushMachine,
): PushContent {
  const base = `${machine ? `/m/${encodeURIComponent(machine.hubId)}` : ''}/s/${encodeURIComponent(sessionId)}`;
  if (kind === 'needs_you') {
    return {
      title: `Needs you · ${cut(name)}`,
      body: cut(waiting ? waitingLine(waiting) : 'The agent is waiting for your answer.'),
      url: waiting ? `${base}?answer=${encodeURIComponent(waiting.interactionId)}` : base,
      tag: `session:${sessionId}`,
      requireInteraction: true,
    };
  }
  return {
    title: `Done · ${cut(name)}`,
    body: 'The agent finished its turn.',
    url: base,
    tag: `session:${sessionId}`,
    requireInteraction: false,
  };
}
