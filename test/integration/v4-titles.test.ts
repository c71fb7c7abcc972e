import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Newer CLIs send a session's titles only in v4 frames
 * (`v4/conversation/frame`, `state.updated` op with `patch.meta.title`), never as a legacy
 * `session.titleUpdated`, and generate a better title some time after the first turn. The
 * simulator does so with `--v4-titles`; the hub must follow the v4 topic and pass the title on
 * to ACP clients (`session_info_update`), session lists and the web app (`_zcode/session_state`).
 */
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2', '--v4-titles'] });
});
afterAll(async () => {
  await hub?.close();
});

describe('titles from v4 frames only', () => {
  it('the generated title reaches session_info_update, the session list and _zcode/session_state', async () => {
    const c = await hub.initializedClient({ name: 'titles' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const res = await c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'please survey the project layout for me' }],
    });
    expect(res.stopReason).toBe('end_turn');
    const generated = 'Please Survey The Project Layout For';

    const info = await c.waitForNotification<{ sessionId: string; update: { sessionUpdate: string; title?: string } }>(
      'session/update',
      (n) => n.sessionId === sessionId && n.update.sessionUpdate === 'session_info_update' && n.update.title === generated,
      20_000,
    );
    expect(info.update.title).toBe(generated);
    // The first-input title came the same way, before it.
    const titles = c
      .notifications<{ sessionId: string; update: { sessionUpdate: string; title?: string } }>('session/update')
      .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === 'session_info_update')
      .map((n) => n.update.title);
    expect(titles).toEqual(['please survey the project layout for me', generated]);

    await c.waitForNotification<{ sessionId: string; title?: string }>(
      '_zcode/session_state',
      (s) => s.sessionId === sessionId && s.title === generated,
    );
    const listed = await c.request<{ sessions: Array<{ sessionId: string; title?: string | null }> }>('session/list', {
      cwd: hub.workspace,
    });
    expect(listed.sessions.find((s) => s.sessionId === sessionId)?.title).toBe(generated);
    const rest = (await (await hub.api('/api/sessions')).json()) as { sessions: Array<{ sessionId: string; title: string }> };
    expect(rest.sessions.find((s) => s.sessionId === sessionId)?.title).toBe(generated);
  });
});
