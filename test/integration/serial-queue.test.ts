import { afterEach, describe, expect, it } from 'vitest';
import { RpcError, type AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';

/**
 * The app-server runs one request at a time. With
 * `--slow-method session/list=8000` a `session/list` holds the child's queue for 8 s, so a
 * prompt's `session/send` written right behind it is answered — and run — only afterwards. The
 * hub's forward timeout (5 s here; the spawn's liveness probe needs it) must not report that prompt as failed: it waits
 * (`sendAnswerTimeoutMs`). When even that runs out, the prompt fails saying the agent may still
 * run it, and when it does its answer reaches the client — once, never sent again.
 */
let hub: HubHarness | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

const SLOW = ['--slow-method', 'session/list=8000', '--turn-delay-scale', '0.2'];

type Update = { sessionId: string; update: { sessionUpdate: string; content?: { text?: string } } };
const chunks = (c: AcpWsClient, sessionId: string, kind: string): string[] =>
  c
    .notifications<Update>('session/update')
    .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === kind)
    .map((n) => n.update.content?.text ?? '');

/** The user messages a fresh client is replayed for `sessionId`. */
async function userMessages(h: HubHarness, sessionId: string): Promise<string[]> {
  const joiner = await h.initializedClient({ name: 'joiner' });
  await joiner.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] });
  return chunks(joiner, sessionId, 'user_message_chunk');
}

describe('a prompt behind a slow request in the child', () => {
  it('is not failed at the forward timeout: it runs once the request in front of it is done', async () => {
    hub = await startHub({ simArgs: SLOW, limits: { forwardRequestTimeoutMs: 5000 } });
    const c = await hub.initializedClient({ name: 'waiter' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    // The list itself times out here (its answer comes after 8 s): it only fills the child's queue.
    const list = c.request('session/list', { cwd: hub.workspace }).catch(() => undefined);
    const result = await c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'hello behind a slow list' }],
    });
    expect(result.stopReason).toBe('end_turn');
    await list;
    expect(chunks(c, sessionId, 'agent_message_chunk').join('').length).toBeGreaterThan(0);
    expect(await userMessages(hub, sessionId)).toEqual(['hello behind a slow list']);
  });

  it('past sendAnswerTimeoutMs: fails saying it may still run; its answer still arrives, and it runs once', async () => {
    hub = await startHub({ simArgs: SLOW, limits: { forwardRequestTimeoutMs: 5000, sendAnswerTimeoutMs: 1500 } });
    const c = await hub.initializedClient({ name: 'impatient' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const list = c.request('session/list', { cwd: hub.workspace }).catch(() => undefined);
    const err = await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello again' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).message).toMatch(/may still run it/);
    await list;
    // The child runs it after the list: its answer reaches the client as the session's turn.
    await c.waitFor(() => (chunks(c, sessionId, 'agent_message_chunk').join('').length > 0 ? true : undefined), 20_000, 'the late answer');
    await c.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (s) => s.sessionId === sessionId && s.state === 'idle',
      20_000,
      c.notifications('_zcode/turn_state').length,
    );
    expect(await userMessages(hub, sessionId)).toEqual(['hello again']);
  });

  it('cancelled while its send waits behind the slow request: answered cancelled, and its turn does not run to the end', async () => {
    // --turn-start-ms: the turn is set up only after the send's answer, when both stops have run.
    hub = await startHub({ simArgs: [...SLOW, '--turn-start-ms', '300'], limits: { forwardRequestTimeoutMs: 5000, stopSettleMs: 1000 } });
    const c = await hub.initializedClient({ name: 'canceller' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const list = c.request('session/list', { cwd: hub.workspace }).catch(() => undefined);
    const prompt = c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'a slow answer please' }],
    });
    await c.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (s) => s.sessionId === sessionId && s.state === 'running',
    );
    c.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    await list;
    // The child took the send after the list and stopped its turn at once: no long answer arrives.
    await c.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (s) => s.sessionId === sessionId && s.state === 'idle',
      30_000,
    );
    // History, once the child is past the list (a load behind it times out and is tried again).
    const h = hub;
    const replayed = await until(
      async () => {
        const joiner = await h.initializedClient({ name: 'reader' });
        const ok = await joiner.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] }).then(
          () => true,
          () => false,
        );
        return ok ? chunks(joiner, sessionId, 'agent_message_chunk').join('') : undefined;
      },
      'a history load',
      60_000,
    );
    expect(replayed).not.toContain('Step 100 of a long answer.');
    // Stopped before or just after its turn began: never run twice.
    expect((await userMessages(h, sessionId)).filter((t) => t === 'a slow answer please').length).toBeLessThanOrEqual(1);
  });
});
