/**
 * The backend link against the real simulator child: the session flow, -32010, stop, -32004
 * resume, and re-announced permission requests.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BackendInteractionRequest, BackendNotification } from '../../src/ports/backend-port.js';
import { BackendRpcError } from '../../src/ports/backend-port.js';
import { RpcPeer } from '../../src/backend/rpc-peer.js';
import { ChildTransport } from '../../src/backend/child-transport.js';
import type { IncomingMessage, OutgoingMessage } from '../../src/backend/envelope.js';
import { simLink, type SimLink } from './sim-harness.js';
import { until } from '../helpers/until.js';
import { waitFor } from './helpers.js';

const open: SimLink[] = [];
function harness(...args: Parameters<typeof simLink>): SimLink {
  const h = simLink(...args);
  open.push(h);
  return h;
}
afterEach(async () => {
  vi.restoreAllMocks();
  for (const h of open.splice(0)) await h.dispose();
});

type Opt = { optionId: string; response: unknown };
const allowOnce = async (req: BackendInteractionRequest): Promise<unknown> =>
  (req.params as { options: Opt[] }).options.find((o) => o.optionId === 'allow_once')!.response;

function params(n: BackendNotification): Record<string, unknown> {
  return (n.params ?? {}) as Record<string, unknown>;
}

async function createSession(h: SimLink): Promise<string> {
  const snap = (await h.link.request('session/create', { workspace: { workspacePath: h.home, workspaceKey: h.home } })) as {
    session: { sessionId: string };
  };
  return snap.session.sessionId;
}

describe('backend link × simulator: session flow', () => {
  it('[CHD-08] create → subscribe → send → events → permission answered by the InteractionHandler → turn.completed; a busy send gets -32010; stop cancels', async () => {
    const h = harness();
    const asked: BackendInteractionRequest[] = [];
    h.link.setInteractionHandler(async (req) => {
      asked.push(req);
      return allowOnce(req);
    });
    const notes: BackendNotification[] = [];
    h.link.onNotification((n) => notes.push(n));
    await h.link.start();
    expect(h.link.status()).toMatchObject({ state: 'ready', kind: 'sim', epoch: 1 });

    const sid = await createSession(h);
    await expect(h.link.request('session/subscribe', { sessionId: sid, deliveryKind: 'web-remote-replayable' })).resolves.toMatchObject({
      sessionId: sid,
    });
    await expect(h.link.request('session/send', { sessionId: sid, content: 'run the tests, ask permission first' })).resolves.toMatchObject(
      { sessionId: sid, accepted: true },
    );

    // One running prompt per session (§11.6): the link surfaces -32010 as a typed error for the domain's queue.
    const busy = await h.link.request('session/send', { sessionId: sid, content: 'and again' }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(BackendRpcError);
    expect(busy).toMatchObject({ code: -32010, message: 'A prompt is already running for this session' });

    await waitFor(
      () => notes.find((n) => n.method === 'state.updated' && params(n).sessionId === sid && params(n).reason === 'prompt_completed'),
      15_000,
      'prompt_completed',
    );
    const types = notes.filter((n) => n.method === 'session/event' && params(n).sessionId === sid).map((n) => params(n).type);
    expect(types).toContain('turn.started');
    expect(types).toContain('permission.requested');
    expect(types).toContain('tool.updated');
    expect(types).toContain('turn.completed');
    const completed = notes.find((n) => params(n).type === 'turn.completed');
    expect(completed?.receivedAt).toBeGreaterThan(0);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'interaction/requestPermission', sessionId: sid, epoch: 1 });
    expect(typeof asked[0]!.requestId).toBe('string');
    const seqs = notes.filter((n) => n.method === 'session/event' && params(n).sessionId === sid).map((n) => params(n).seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    // stop: a slow turn ends with turn.completed resultType cancelled (§4.9)
    const before = notes.length;
    await h.link.request('session/send', { sessionId: sid, content: 'give me a slow answer' });
    await waitFor(() => notes.slice(before).find((n) => params(n).type === 'turn.started'), 10_000, 'turn.started');
    await expect(h.link.request('session/stop', { sessionId: sid })).resolves.toEqual({});
    const cancelled = await waitFor(() => notes.slice(before).find((n) => params(n).type === 'turn.completed'), 10_000, 'cancelled turn');
    expect((params(cancelled).payload as { resultType?: string }).resultType).toBe('cancelled');
  });

  it('[CHD-08] -32004 after the child forgets its runtimes (SIGUSR2): one shared resume, onSessionResumed, then the retries succeed', async () => {
    const h = harness();
    const resumed: Array<{ sid: string; snapshot: unknown }> = [];
    h.link.onSessionResumed((sid, snapshot) => resumed.push({ sid, snapshot }));
    await h.link.start();
    const sid = await createSession(h);
    await h.link.request('session/subscribe', { sessionId: sid, deliveryKind: 'web-remote-replayable' });
    process.kill(h.link.status().pid!, 'SIGUSR2');
    // Direct proof the child forgot it, once the signal has landed (a busy machine may take a
    // while to deliver it; until then the session still reads).
    const forgot = await until(
      () =>
        h.link.request('session/read', { sessionId: sid }, { noResumeRetry: true }).then(
          () => undefined,
          (e: unknown) => e,
        ),
      'the child to forget its runtimes',
    );
    expect(forgot).toMatchObject({ code: -32004 });
    const out = await Promise.all([
      h.link.request('session/read', { sessionId: sid }),
      h.link.request('session/subscribe', { sessionId: sid, deliveryKind: 'web-remote-replayable' }),
      h.link.request('session/messages', { sessionId: sid }),
    ]);
    expect(out[1]).toMatchObject({ sessionId: sid });
    expect(resumed).toHaveLength(1);
    expect(resumed[0]!.sid).toBe(sid);
    expect(resumed[0]!.snapshot).toMatchObject({ session: { sessionId: sid } });

    // a session the child never persisted: resume fails with "Session not found", no second retry
    const err = await h.link.request('session/read', { sessionId: 'sess_does_not_exist' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'BackendRpcError', code: -32004, method: 'session/resume' });
    expect((err as Error).message).toMatch(/^Session not found/);
  });

  it('[CHD-07] a re-announced permission request (same requestId, new ids) reaches the handler once and every id gets the same answer', async () => {
    const incoming: Array<{ id: string | number; requestId: string }> = [];
    const answers = new Map<string | number, unknown[]>();
    const handle = RpcPeer.prototype.handle;
    vi.spyOn(RpcPeer.prototype, 'handle').mockImplementation(function (this: RpcPeer, message: IncomingMessage, at: number) {
      if (message.kind === 'request' && message.method === 'interaction/requestPermission')
        incoming.push({ id: message.id, requestId: (message.params as { requestId: string }).requestId });
      return handle.call(this, message, at);
    });
    const send = ChildTransport.prototype.send;
    vi.spyOn(ChildTransport.prototype, 'send').mockImplementation(function (
      this: ChildTransport,
      message: OutgoingMessage,
      method: string,
    ) {
      if (method === 'interaction/requestPermission')
        answers.set(message.id, [...(answers.get(message.id) ?? []), 'result' in message ? message.result : message]);
      return send.call(this, message, method);
    });

    const h = harness({ simArgs: ['--reannounce-scale', '0.01'] });
    let calls = 0;
    h.link.setInteractionHandler(async (req) => {
      calls++;
      // Hold the answer while the child re-announces at ≈10, 30, 70, 150 ms.
      await new Promise((r) => setTimeout(r, 400));
      return allowOnce(req);
    });
    const notes: BackendNotification[] = [];
    h.link.onNotification((n) => notes.push(n));
    await h.link.start();
    const sid = await createSession(h);
    await h.link.request('session/subscribe', { sessionId: sid, deliveryKind: 'web-remote-replayable' });
    await h.link.request('session/send', { sessionId: sid, content: 'permission please' });
    await waitFor(() => notes.find((n) => params(n).type === 'turn.completed' && params(n).sessionId === sid), 15_000, 'turn.completed');
    await waitFor(() => incoming.every((i) => answers.has(i.id)), 2_000, 'every id answered');

    expect(calls).toBe(1);
    expect(incoming.length).toBeGreaterThanOrEqual(3);
    expect(new Set(incoming.map((i) => i.requestId)).size).toBe(1);
    const expected = { decision: 'allow', reason: 'Approved once' };
    for (const { id } of incoming) expect(answers.get(id)).toEqual([expected]); // exactly one answer per id
  });
});
