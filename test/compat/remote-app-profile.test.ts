import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { RemoteApp } from '../helpers/remote-app.js';
import { until } from '../helpers/until.js';

/**
 * What the zcode-acp-remote profile is sent: only what the app handles
 * (`session/update`, `$/zcode/turnState`, `$/cancel_request` and its requests), a running
 * indicator that stays on while a prompt of the session is waiting, and sessions with `status`.
 */
const UNDERSTOOD = new Set(['session/update', '$/zcode/turnState', '$/cancel_request', 'session/request_permission', 'elicitation/create']);
let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

describe('zcode-acp-remote: profile', () => {
  it('gets no _zcode/* notifications, and turnState stays running while its prompt waits behind another', async () => {
    const editor = await hub.initializedClient({ name: 'editor' });
    const { sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const app = await RemoteApp.connect(hub.url, await hub.token('operate', 'phone'));
    try {
      await app.loadSession(sessionId, hub.workspace);
      const editorTurn = editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'slow' }] });
      await until(
        () => (app.turnStates.some((t) => t.sessionId === sessionId && t.running) ? true : undefined),
        'the app to see the editor turn running',
      );
      const seen = app.turnStates.length;
      // The app sends its prompt while the editor's turn runs: the hub queues it.
      const appTurn = app.prompt(sessionId, 'hello');
      await editorTurn;
      expect(await appTurn).toMatchObject({ stopReason: 'end_turn' });
      await until(() => (app.turnStates.at(-1)?.running === false ? true : undefined), 'the final running:false');
      const after = app.turnStates
        .slice(seen)
        .filter((t) => t.sessionId === sessionId)
        .map((t) => t.running);
      // Busy from the editor's turn through the app's own: one `false`, at the very end.
      expect(after.indexOf(false)).toBe(after.length - 1);
      const foreign = app.methods().filter((m) => !UNDERSTOOD.has(m));
      expect(foreign).toEqual([]);
    } finally {
      app.close();
      await editor.close();
    }
  });

  it('/api/instances sessions carry status running|idle', async () => {
    const editor = await hub.initializedClient({ name: 'editor' });
    const { sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const app = await RemoteApp.connect(hub.url, await hub.token('view', 'phone'));
    try {
      const sessions = async () =>
        ((await (await app.api('/api/instances')).json()) as Array<{ sessions: Array<{ sessionId: string; status?: string }> }>)[0]!
          .sessions;
      expect((await sessions()).find((s) => s.sessionId === sessionId)?.status).toBe('idle');
      const turn = editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'slow' }] });
      await until(
        async () => ((await sessions()).find((s) => s.sessionId === sessionId)?.status === 'running' ? true : undefined),
        'status running',
      );
      await editor.request('session/cancel', { sessionId });
      await turn;
      await until(
        async () => ((await sessions()).find((s) => s.sessionId === sessionId)?.status === 'idle' ? true : undefined),
        'status idle again',
      );
    } finally {
      app.close();
      await editor.close();
    }
  });

  it('"Close session" takes the session out of /api/instances and /status until it is used again (409 while running)', async () => {
    const editor = await hub.initializedClient({ name: 'editor' });
    const { sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    const app = await RemoteApp.connect(hub.url, await hub.token('operate', 'phone'));
    try {
      const listed = async () =>
        ((await (await app.api('/api/instances')).json()) as Array<{ sessions: Array<{ sessionId: string }> }>)[0]!.sessions.some(
          (s) => s.sessionId === sessionId,
        );
      const inStatus = async () =>
        ((await (await app.api('/api/instances/zcode-hub/status')).json()) as { sessions: Array<{ sessionId: string }> }).sessions.some(
          (s) => s.sessionId === sessionId,
        );
      expect(await listed()).toBe(true);

      // While a turn runs the app is told 409 ("cancel the turn first").
      const turn = editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'slow' }] });
      await until(
        async () =>
          (await app.api(`/api/instances/zcode-hub/sessions/${encodeURIComponent(sessionId)}/close`, 'POST')).status === 409
            ? true
            : undefined,
        'close refused while running',
      );
      await editor.request('session/cancel', { sessionId });
      await turn;

      const closed = await app.api(`/api/instances/zcode-hub/sessions/${encodeURIComponent(sessionId)}/close`, 'POST');
      expect(closed.status).toBe(200);
      expect(await closed.json()).toEqual({ ok: true });
      expect(await listed()).toBe(false);
      expect(await inStatus()).toBe(false);

      // Used again (the editor prompts it): back in the app's list, nothing was deleted.
      await editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello again' }] });
      expect(await listed()).toBe(true);
      expect(await inStatus()).toBe(true);
    } finally {
      app.close();
      await editor.close();
    }
  });
});
