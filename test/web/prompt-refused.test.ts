/**
 * A prompt the hub answers with an error (web/src/hub/prompt-send.ts): one naming its `promptId`
 * has a journaled ending every device is told of (the turn-ended line), so the prompter adds
 * nothing; one naming none never ran — the hub shutting down, a queued prompt cut off by a crash
 * loop, a refusal — and nothing anyone sees will tell of it, so its place in the chat goes and the
 * prompt box gets its text back (PromptRefused) with the hub's reason. A queued prompt Stop returned
 * (`cancelled` while still queued) never ran either: its text goes back without a sentence. A real
 * HubClient against a scripted hub on a real socket, so the test decides each answer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { PromptRefused, promptNotSent, takeBackQueued } from '../../web/src/hub/prompt-send.js';
import { t } from '../../web/src/i18n.js';
import { TakenBack } from '../../web/src/net/online-wait.js';
import type { Frame } from '../helpers/scripted-hub.js';
import { freshLoad, heldClient, promptFrom, SID, type Held } from '../helpers/held-reconnect.js';
import { until } from '../helpers/until.js';

let h: Held;

beforeEach(async () => {
  h = await heldClient();
  h.answer(await h.reconnectHeld(), freshLoad(4, 'e2', 0));
  await until(() => (h.client.conn.status === 'online' ? true : undefined), 'online');
});
afterEach(async () => {
  await h.close();
});

const prompt = (text: string) => promptFrom(h.client, text);

/** The hub's error answer to `req`: -32011 with its stable code and `details`. */
function refuse(req: Frame, message: string, details: Record<string, unknown>): void {
  h.hub.send({ jsonrpc: '2.0', id: req.id, error: { code: -32011, message, data: { code: 'HUB_ERR_BACKEND_UNAVAILABLE', details } } });
}

const chat = () => store.get().chats[SID];
const userTexts = () => chat()?.items.flatMap((it) => (it.kind === 'user' ? [it.text] : []));
const notices = () => chat()?.items.filter((it) => it.kind === 'notice');
const promptRequest = (n: number) => h.hub.request('session/prompt', n);
/** The hub says a turn runs in the chat: a prompt sent now waits in the outbox. */
async function turnRuns(): Promise<void> {
  h.notify('_zcode/turn_state', { sessionId: SID, state: 'running', queue: [] });
  await until(() => (chat()?.turn.state === 'running' ? true : undefined), 'the turn running');
}

describe('a prompt the hub answers with an error', () => {
  it('queued behind a running turn and never run (the hub shutting down): leaves the outbox and is given back, saying why', async () => {
    await turnRuns();
    const p = prompt('do this next');
    const req = await promptRequest(0);
    expect(chat()?.outbox.map((o) => o.text)).toEqual(['do this next']);
    refuse(req, 'The hub is shutting down', { backend: 'stopped' });
    await p.sent;
    expect(p.failed()).toBeInstanceOf(PromptRefused);
    expect(promptNotSent(p.failed())).toBe(t('refusedNotRun', 'The hub is shutting down'));
    expect(chat()?.outbox).toEqual([]);
    // Nothing is left in the chat to say it: the prompt box says it, holding the text.
    expect(notices()).toEqual([]);
    expect(userTexts()).toEqual([]);
  });

  it('sent on an idle session and refused before it ran (a crash loop): its bubble goes too; the reason loses its full stop', async () => {
    const p = prompt('try this');
    const req = await promptRequest(0);
    expect(userTexts()).toEqual(['try this']);
    refuse(req, 'The agent kept crashing. An admin can restart it.', { backend: 'failed' });
    await p.sent;
    expect(p.failed()).toBeInstanceOf(PromptRefused);
    expect(promptNotSent(p.failed())).toBe(t('refusedNotRun', 'The agent kept crashing. An admin can restart it'));
    expect(userTexts()).toEqual([]);
  });

  it('queued and stopped before it ran (Stop returns the stopper’s queued prompts): given back without a sentence, no notice', async () => {
    await turnRuns();
    const p = prompt('after this one');
    const req = await promptRequest(0);
    h.answer(req, { stopReason: 'cancelled' });
    await p.sent;
    expect(p.failed()).toBeInstanceOf(TakenBack);
    expect(promptNotSent(p.failed())).toBeUndefined();
    expect(chat()?.outbox).toEqual([]);
    expect(notices()).toEqual([]);
    // One that had started (its bubble in the chat) and was stopped keeps its bubble and says so.
    h.notify('_zcode/turn_state', { sessionId: SID, state: 'idle', queue: [] });
    await until(() => (chat()?.turn.state === 'idle' ? true : undefined), 'idle');
    const q = prompt('stopped while running');
    h.answer(await promptRequest(1), { stopReason: 'cancelled' });
    await q.sent;
    expect(q.failed()).toBeUndefined();
    expect(userTexts()).toEqual(['stopped while running']);
    expect(notices()?.map((n) => (n.kind === 'notice' ? n.text : ''))).toEqual([t('turnStopped')]);
  });

  it('whose turn ran and was cut off (its promptId named): settles quietly, the bubble stays, the journaled ending tells everyone', async () => {
    const p = prompt('slow answer');
    const req = await promptRequest(0);
    refuse(req, 'The hub is shutting down', { backend: 'stopped', promptId: 'p1' });
    await p.sent;
    expect(p.failed()).toBeUndefined();
    expect(userTexts()).toEqual(['slow answer']);
    expect(chat()?.items.find((it) => it.kind === 'user')).toMatchObject({ localId: undefined });
    expect(notices()).toEqual([]);
  });
});

describe('a prompt of this page taken back from the hub’s queue', () => {
  it('sends $/cancel_request for its own request on the socket it went on; answered cancelled, its text goes back', async () => {
    await turnRuns();
    const p = prompt('changed my mind');
    const req = await promptRequest(0);
    const localId = chat()?.outbox[0]?.localId ?? '';
    expect(localId).not.toBe('');
    takeBackQueued(localId);
    const cancel = await until(() => h.hub.frames.find((f) => f.method === '$/cancel_request'), 'the cancel');
    expect(cancel.params).toEqual({ requestId: req.id });
    h.answer(req, { stopReason: 'cancelled' });
    await p.sent;
    expect(p.failed()).toBeInstanceOf(TakenBack);
    expect(chat()?.outbox).toEqual([]);
    expect(notices()).toEqual([]);
    // Answered: taking it back again sends nothing more (a prompt sent after it arrives first in order).
    takeBackQueued(localId);
    prompt('the next one');
    await promptRequest(1);
    expect(h.hub.frames.filter((f) => f.method === '$/cancel_request')).toHaveLength(1);
  });
});
