/**
 * Turns that do not end well, over real sockets and the real simulator child: a failed turn is
 * never an `end_turn`, a child that dies mid-turn leaves a visible
 * `interrupted` marker after what was said, and a crash loop answers every
 * prompt in flight and refuses new ones at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AcpHttpClient } from '../helpers/acp-http-client.js';
import { AcpWsClient, RpcError } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';

let hub: HubHarness | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

interface Update {
  sessionId: string;
  update: { sessionUpdate: string; content?: { text?: string }; _meta?: { zcode?: { turnEnded?: TurnEnded } } };
  _meta?: { zcode?: { seq?: number } };
}
interface TurnEnded {
  outcome: string;
  promptId?: string;
  turnId?: string;
  promptedBy?: { name: string };
  error: { message: string; code?: string | number; type?: string };
}

const text = (t: string) => [{ type: 'text', text: t }];

function markers(c: AcpWsClient, sessionId: string): TurnEnded[] {
  return c
    .notifications<Update>('session/update')
    .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'session_info_update' && u.update._meta?.zcode?.turnEnded)
    .map((u) => u.update._meta?.zcode?.turnEnded as TurnEnded);
}

async function twoClients(h: HubHarness): Promise<{ a: AcpWsClient; b: AcpWsClient; sessionId: string }> {
  const a = await h.initializedClient({ name: 'prompter' });
  const b = await h.initializedClient({ name: 'watcher' });
  const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: h.workspace, mcpServers: [] });
  await b.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] });
  return { a, b, sessionId };
}

async function promptError(c: AcpWsClient, sessionId: string, t: string): Promise<RpcError> {
  try {
    const r = await c.request('session/prompt', { sessionId, prompt: text(t) });
    throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    return err;
  }
}

describe('[REC-05] turn endings', () => {
  it('a failed turn answers session/prompt with HUB_ERR_TURN_FAILED and journals a failed marker for everyone, also in replay', async () => {
    hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2'] });
    const { a, b, sessionId } = await twoClients(hub);
    const err = await promptError(a, sessionId, 'please fail now');
    expect(err.data).toMatchObject({ code: 'HUB_ERR_TURN_FAILED', details: { error: { code: 'sim_upstream_500' } } });
    expect(err.message).toMatch(/could not finish this turn/);
    const seen = await b.waitFor(() => markers(b, sessionId)[0]);
    expect(seen).toMatchObject({
      outcome: 'failed',
      promptedBy: { name: 'admin', person: 'admin', client: 'prompter' },
      error: { code: 'sim_upstream_500' },
    });
    await b.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.state === 'idle',
    );
    // A client that joins later rebuilds the same failure from history.
    const c = await hub.initializedClient({ name: 'late' });
    await c.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    expect(markers(c, sessionId)).toEqual([
      expect.objectContaining({ outcome: 'failed', error: expect.objectContaining({ code: 'sim_upstream_500' }) }),
    ]);
  });

  it('a child that dies mid-turn: the prompter is answered, everyone sees an interrupted marker after the text so far, the session is idle', async () => {
    hub = await startHub({ simArgs: ['--turn-delay-scale', '0.5'] });
    const { a, b, sessionId } = await twoClients(hub);
    const answered = promptError(a, sessionId, 'slow please');
    await b.waitFor(
      () =>
        b.notifications<Update>('session/update').filter((u) => u.update.sessionUpdate === 'agent_message_chunk').length >= 3 || undefined,
    );
    process.kill(hub.daemon.backend.status().pid as number, 'SIGKILL');
    const err = await answered;
    expect(err.data).toMatchObject({ code: 'HUB_ERR_BACKEND_UNAVAILABLE', details: { backend: 'restarting' } });
    const marker = await b.waitFor(() => markers(b, sessionId)[0]);
    expect(marker).toMatchObject({
      outcome: 'interrupted',
      promptedBy: { name: 'admin', person: 'admin', client: 'prompter' },
      error: { type: 'backend_restarted' },
    });
    const updates = b.notifications<Update>('session/update').filter((u) => u.sessionId === sessionId);
    const markerAt = updates.findIndex((u) => u.update._meta?.zcode?.turnEnded);
    expect(updates.slice(0, markerAt).some((u) => u.update.sessionUpdate === 'agent_message_chunk')).toBe(true);
    await b.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.state === 'idle',
    );
  });

  it('a run of kills: a prompt sent to a child that dies before it is ready is answered at the death, before the next child spawns', async () => {
    // A late answer to the liveness probe holds each new child in `restarting` while it already
    // takes work (a real CLI may answer out of order): the window a prompt sent right after a
    // respawn lands in. The backoff keeps the next spawn a second away.
    hub = await startHub({
      simArgs: ['--late-method', 'runtime/capabilities=3000', '--turn-delay-scale', '0.5'],
      limits: { restartBackoffBaseMs: 1_000, restartBackoffMaxMs: 1_000 },
    });
    const h = hub;
    await until(() => h.daemon.backend.status().state === 'ready' || undefined, 'the first child ready');
    const { a, b, sessionId } = await twoClients(h);
    process.kill(h.daemon.backend.status().pid as number, 'SIGKILL');
    await until(() => {
      const s = h.daemon.backend.status();
      return (s.epoch === 2 && s.state === 'restarting' && s.pid !== undefined) || undefined;
    }, 'the second child spawned, not ready yet');
    const events: string[] = [];
    const off = h.daemon.backend.onStatus((s) => {
      if (s.epoch === 3 && !events.includes('next child spawned')) events.push('next child spawned');
    });
    const answered = promptError(a, sessionId, 'slow please').then((err) => {
      events.push('prompt answered');
      return err;
    });
    await b.waitFor(
      () => b.notifications<Update>('session/update').some((u) => u.update.sessionUpdate === 'agent_message_chunk') || undefined,
    );
    expect(h.daemon.backend.status()).toMatchObject({ epoch: 2, state: 'restarting' });
    process.kill(h.daemon.backend.status().pid as number, 'SIGKILL');
    const err = await answered;
    await until(() => h.daemon.backend.status().state === 'ready' || undefined, 'the third child ready');
    off();
    expect(events).toEqual(['prompt answered', 'next child spawned']);
    expect(err.data).toMatchObject({ code: 'HUB_ERR_BACKEND_UNAVAILABLE', details: { backend: 'restarting' } });
    expect(markers(b, sessionId).at(-1)).toMatchObject({ outcome: 'interrupted', error: { type: 'backend_restarted' } });
  });

  it('crash loop → failed: the prompt in flight and the queued one are answered naming the fix, the session is idle, new prompts fail at once; what was said stays', async () => {
    // Two crashes in the window make a crash loop here; the child dies after a few events of every turn.
    hub = await startHub({ limits: { crashLoopCount: 2, restartBackoffBaseMs: 50, restartBackoffMaxMs: 100 } });
    const h = hub;
    const { a, b, sessionId } = await twoClients(h);
    const first = promptError(a, sessionId, 'slow one');
    await b.waitFor(
      () => b.notifications<Update>('session/update').some((u) => u.update.sessionUpdate === 'agent_message_chunk') || undefined,
    );
    process.kill(h.daemon.backend.status().pid as number, 'SIGKILL');
    await first;
    const backendStates = () => b.notifications<{ state: string; restarts: number }>('_zcode/backend_state');
    await b.waitFor(() => backendStates().some((s) => s.state === 'ready' && s.restarts === 1) || undefined, 30_000, 'respawned');
    const sessionUpdates = () => b.notifications<Update>('session/update').filter((u) => u.sessionId === sessionId);
    const before = sessionUpdates().length;
    const inFlight = promptError(a, sessionId, 'slow two');
    const lastState = () =>
      b
        .notifications<{ sessionId: string; state: string; queue: unknown[] }>('_zcode/turn_state')
        .filter((p) => p.sessionId === sessionId)
        .at(-1);
    await b.waitFor(() => lastState()?.state === 'running' || undefined, 20_000, 'running again');
    const queued = promptError(b, sessionId, 'queued three');
    await b.waitFor(() => lastState()?.queue.length === 1 || undefined, 20_000, `queued (${JSON.stringify(lastState())})`);
    const saidSoFar = () =>
      sessionUpdates()
        .slice(before)
        .filter((u) => u.update.sessionUpdate === 'agent_message_chunk')
        .map((u) => u.update.content?.text ?? '')
        .join('');
    await b.waitFor(() => saidSoFar() || undefined, 20_000, 'the second turn saying something');
    process.kill(h.daemon.backend.status().pid as number, 'SIGKILL');
    const [e1, e2] = await Promise.all([inFlight, queued]);
    expect(h.daemon.backend.status().state).toBe('failed');
    for (const e of [e1, e2]) {
      expect(e.data).toMatchObject({ code: 'HUB_ERR_BACKEND_UNAVAILABLE', details: { backend: 'failed' } });
      expect(e.message).toMatch(/crash loop/);
      expect(e.message).toMatch(/restart/);
    }
    // The running prompt's ending is the marker below, which names it; the queued prompt never ran: its answer names none.
    expect(e1.data).toMatchObject({ details: { promptId: expect.any(String) } });
    expect((e2.data as { details: Record<string, unknown> }).details).toEqual({ backend: 'failed' });
    const states = b
      .notifications<{ sessionId: string; state: string; queue: unknown[] }>('_zcode/turn_state')
      .filter((p) => p.sessionId === sessionId);
    expect(states.at(-1)).toMatchObject({ state: 'idle', queue: [] });
    expect(markers(b, sessionId).at(-1)).toMatchObject({ outcome: 'interrupted', error: { type: 'backend_failed' } });
    // What the cut turn had said stays, before its marker, for a client that was there and one that joins now.
    const said = saidSoFar();
    const marker = sessionUpdates().findIndex((u, i) => i >= before && u.update._meta?.zcode?.turnEnded !== undefined);
    expect(said.length).toBeGreaterThan(0);
    expect(
      sessionUpdates()
        .slice(marker + 1)
        .some((u) => u.update.sessionUpdate === 'agent_message_chunk'),
    ).toBe(false);
    const refused = await promptError(a, sessionId, 'while failed');
    expect(refused.data).toMatchObject({ code: 'HUB_ERR_BACKEND_UNAVAILABLE', details: { backend: 'failed' } });
    expect(refused.message).toMatch(/crash loop/);
    // An admin restarts the agent: a client that joins then gets the cut turn's words, then its marker.
    expect((await h.api('/api/backend/restart', { method: 'POST' })).status).toBe(200);
    await until(() => h.daemon.backend.status().state === 'ready' || undefined, 'the agent back');
    const late = await h.initializedClient({ name: 'late' });
    await late.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] });
    const lateUpdates = late.notifications<Update>('session/update').filter((u) => u.sessionId === sessionId);
    const lateText = lateUpdates
      .filter((u) => u.update.sessionUpdate === 'agent_message_chunk')
      .map((u) => u.update.content?.text ?? '')
      .join('');
    expect(lateText.endsWith(said)).toBe(true);
    const lastMarker = lateUpdates.findLastIndex((u) => u.update._meta?.zcode?.turnEnded !== undefined);
    expect(lateUpdates[lastMarker]?.update._meta?.zcode?.turnEnded).toMatchObject({
      outcome: 'interrupted',
      error: { type: 'backend_failed' },
    });
    expect(lateUpdates.findLastIndex((u) => u.update.sessionUpdate === 'agent_message_chunk')).toBeLessThan(lastMarker);
  });

  it('a stopped hub answers the prompt in flight over WebSocket and Streamable HTTP before it goes', async () => {
    const h = await startHub({ simArgs: ['--turn-delay-scale', '0.5'] });
    hub = h;
    // Opened outside the harness, which closes its own clients before its daemon.
    const ws = await AcpWsClient.connect(h.wsUrl, { token: h.adminToken });
    await ws.initialize({ name: 'ws' });
    const http = new AcpHttpClient(h.url, { authorization: `Bearer ${h.adminToken}` });
    await http.initialize('http');
    await http.openStream();
    const sessions = await Promise.all(
      [ws, http].map(async (c) => (await c.request<{ sessionId: string }>('session/new', { cwd: h.workspace, mcpServers: [] })).sessionId),
    );
    const settled = [ws, http].map((c, i) =>
      c.request('session/prompt', { sessionId: sessions[i], prompt: text('slow please') }).then(
        () => 'ended',
        (e: unknown) => (e as Error).message,
      ),
    );
    const chunks = (c: AcpWsClient | AcpHttpClient) =>
      c.messages.filter((m) => m.method === 'session/update' && (m.params as Update).update.sessionUpdate === 'agent_message_chunk').length;
    await until(() => (chunks(ws) > 0 && chunks(http) > 0) || undefined, 'both turns streaming');
    await h.close();
    expect(await Promise.all(settled)).toEqual(['The hub is shutting down', 'The hub is shutting down']);
    await ws.close().catch(() => undefined);
    http.close();
  });
});
