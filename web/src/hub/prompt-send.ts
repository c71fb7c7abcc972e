/**
 * Sending a prompt from this device: shown at once as a local bubble, settled by the answer, or
 * by how the turn ended (a stop, a refusal, a limit) with a notice; a failure the hub tells
 * everyone (turn-ended.ts) is not told twice (ARCHITECTURE.md §4.4).
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { t } from '../i18n.js';
import { WEB_LIMITS } from '../limits.js';
import { LinkGone, TakenBack } from '../net/online-wait.js';
import { ConnectionLost, RpcError } from '../net/rpc-connection.js';
import { rec, str } from '../wire.js';
import { store, updateChat } from './app-state.js';
import { addNotice, settleLocalPrompt, withdrawLocalPrompt } from './chat-reducer.js';
import type { HubClient } from './hub-client.js';
import { notSentWhy } from './not-sent.js';
import { dropWaitingPrompt, promptJoinsChat, showWaitingPrompt } from './waiting-prompts.js';

/** Numbers this device's local prompt bubbles (with the time, unique per page). */
let localSeq = 1;
/** What withdraws each prompt sent and not yet answered, by its local id (`$/cancel_request`). */
const withdrawals = new Map<string, AbortController>();

/**
 * Takes back a prompt of this page still waiting in the hub's queue (its chip's "Don't send"):
 * the hub answers it `cancelled`, and its text goes back to the box as a stopped queued prompt's does.
 */
export function takeBackQueued(localId: string): void {
  withdrawals.get(localId)?.abort();
}

/** Sends a prompt (`session/prompt`); queued by the hub when the session is busy. */
export async function sendPrompt(
  client: HubClient,
  sessionId: string,
  text: string,
  images: Array<{ mimeType: string; data: string }>,
  links: Array<{ type: 'resource_link'; uri: string; name: string }>,
): Promise<void> {
  const blocks: ContentBlock[] = [
    ...images.map((i) => ({ type: 'image' as const, mimeType: i.mimeType, data: i.data })),
    ...(text ? [{ type: 'text' as const, text }] : []),
    // Files mentioned with `@`: the text keeps the mention, the link names the file exactly.
    ...links,
  ];
  const localId = `local-${Date.now()}-${localSeq++}`;
  // A link down but reconnecting — a reconnect whose handshake is loading the chat on screen, or
  // a hub restarting between two attempts — will be back by itself: the prompt shows at once,
  // marked waiting, and goes once online, after that load has settled the chat
  // (waiting-prompts.ts), unless the user takes it back or WEB_LIMITS.waitOnlineMs passes first.
  // Refused at once, a prompt sent while a machine restarted was lost ("offline").
  const takeBack = client.outlook() === 'coming' ? showWaitingPrompt(client.hubId, sessionId, localId, blocks) : undefined;
  try {
    await client.whenOnline(WEB_LIMITS.waitOnlineMs, takeBack);
  } catch (err) {
    if (takeBack) dropWaitingPrompt(sessionId, localId);
    throw err;
  }
  promptJoinsChat(sessionId, localId, blocks);
  const withdraw = new AbortController();
  withdrawals.set(localId, withdraw);
  try {
    const { stopReason: reason } = await client.conn.call('session/prompt', { sessionId, prompt: blocks }, 0, withdraw.signal);
    // Stopped while it waited behind the running turn (Stop returns the stopper's queued prompts;
    // its chip's "Don't send" withdraws it alone): it never ran, so its text goes back to the box,
    // as a waiting prompt's does — no sentence, the user chose it — rather than vanishing.
    if (reason === 'cancelled' && store.get().chats[sessionId]?.outbox.some((o) => o.localId === localId)) {
      updateChat(sessionId, (c) => withdrawLocalPrompt(c, localId));
      throw new TakenBack();
    }
    updateChat(sessionId, (c) => {
      const settled = settleLocalPrompt(c, localId);
      if (reason === 'cancelled') return addNotice(settled, t('turnStopped'), 'info');
      if (reason === 'refusal') return addNotice(settled, t('turnRefused'), 'warning');
      if (reason === 'max_tokens' || reason === 'max_turn_requests') return addNotice(settled, t('turnLimit'), 'warning');
      return settled;
    });
  } catch (err) {
    // Stopped while queued (above): already out of the chat.
    if (err instanceof TakenBack) throw err;
    // Refused, never run: an answer naming no promptId means nothing is journaled for it (the hub
    // shutting down, a queued prompt cut off by a crash loop, a limit) — no notice anyone else sees
    // and none a rebuilt chat keeps. Its place in the chat goes and the text goes back to the box.
    if (err instanceof RpcError && promptIdOf(err) === undefined) {
      updateChat(sessionId, (c) => withdrawLocalPrompt(c, localId));
      throw new PromptRefused(err.message);
    }
    // A dropped socket does not stop the turn (ARCHITECTURE.md §5): the replay shows how it went;
    // nor does a link stopped for good (LinkGone: signed out, the machine removed) — the turn runs
    // on, it is only no longer watched from here. A turn that failed or was cut off is told to
    // everyone by the journaled turnEnded line (turn-ended.ts), with its Retry: no second notice
    // for the prompter.
    const told = err instanceof RpcError && (err.hubCode === 'HUB_ERR_TURN_FAILED' || err.hubCode === 'HUB_ERR_BACKEND_UNAVAILABLE');
    if (err instanceof ConnectionLost || err instanceof LinkGone || told) updateChat(sessionId, (c) => settleLocalPrompt(c, localId));
    else updateChat(sessionId, (c) => settleLocalPrompt(c, localId, `${t('turnFailed')}: ${(err as Error).message}`));
  } finally {
    withdrawals.delete(localId);
  }
}

/** The prompt the hub answered with an error naming no promptId: refused, it never ran. */
export class PromptRefused extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'PromptRefused';
  }
}

function promptIdOf(err: RpcError): string | undefined {
  return str(rec(rec(err.data)?.['details'])?.['promptId']);
}

/**
 * What a prompt that was not sent says, its text given back: why it did not go — the link
 * offline past the wait's bound, the token revoked, the hub refusing this app, the link closed,
 * the hub refusing the prompt itself — or nothing when the user took it back.
 */
export function promptNotSent(err: unknown): string | undefined {
  if (err instanceof TakenBack) return undefined;
  if (err instanceof PromptRefused) return t('refusedNotRun', err.why.replace(/[.。]\s*$/, ''));
  return notSentWhy('prompt', err) ?? t('sendFailed');
}
