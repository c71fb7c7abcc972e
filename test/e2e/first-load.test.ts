/**
 * What the phone does before its first screen (BENCHMARKS.md, B-PHONE): a paired phone opens the
 * hub's socket without waiting for its token check (`GET /api/me`) to answer, and a long chat
 * asks for a screenful of history first, the older turns coming by page as it is scrolled up.
 * Real daemon, Chromium at 390×844.
 */
import { describe, expect, it } from 'vitest';
import { WEB_LIMITS } from '../../web/src/limits.js';
import { phoneHub } from './support/fixture.js';
import { pair } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.2'] } });
/** Turns of two messages each: more than the first page holds (and under 10, so `turn number 1` names one). */
const TURNS = WEB_LIMITS.firstHistoryPage / 2 + 3;

describe('the first load of a paired phone', () => {
  it('fetches the icon once on a new device: the favicon, not a second copy for the pairing logo', async () => {
    const { page } = phone;
    const icons: string[] = [];
    let faviconDone = false;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/icons/icon')) icons.push(r.resourceType());
    });
    page.on('requestfinished', (r) => {
      if (new URL(r.url()).pathname.startsWith('/icons/icon') && r.resourceType() === 'other') faviconDone = true;
    });
    await page.goto(hub.url);
    await page.getByLabel('Pairing code').waitFor();
    await page.waitForLoadState('load');
    await expect.poll(() => faviconDone).toBe(true);
    // The browser's own favicon fetch and nothing else: the logo on the pairing page is drawn inline.
    expect(icons).toEqual(['other']);
  });

  it('opens the socket while the token check is still unanswered', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Phone');
    // Hold every /api/me until the page has opened its socket: an app that waited for the
    // answer first would never open it, and the wait below would time out.
    let socketSeen: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => {
      socketSeen = resolve;
    });
    let held = 0;
    await page.route('**/api/me', async (route) => {
      held++;
      await seen;
      await route.continue().catch(() => undefined);
    });
    try {
      const socket = page.waitForEvent('websocket', { predicate: (ws) => new URL(ws.url()).pathname === '/acp' });
      await page.reload();
      await socket;
      socketSeen();
      await page.getByRole('heading', { name: 'Sessions' }).waitFor();
      expect(held).toBeGreaterThan(0);
    } finally {
      socketSeen();
      await page.unroute('**/api/me');
    }
  });

  it('asks for a screenful of history first and pages in the rest', async () => {
    const editor = await hub.initializedClient({ name: 'editor' });
    const { sessionId } = await editor.request<{ sessionId: string }>('session/new', {
      cwd: hub.workspace,
      mcpServers: [],
      _meta: { zcode: { mode: 'yolo' } },
    });
    for (let i = 1; i <= TURNS; i++)
      await editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: `turn number ${i}` }] });
    await editor.close();

    const { page } = phone;
    const limits: unknown[] = [];
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        const m = JSON.parse(String(f.payload)) as { method?: string; params?: { _meta?: { zcode?: { limit?: unknown } } } };
        if (m.method === 'session/load') limits.push(m.params?._meta?.zcode?.limit);
      }),
    );
    await page.goto(`${hub.url}/s/${sessionId}`);
    const chat = page.getByRole('main');
    await expect.poll(() => chat.getByText(`You asked: turn number ${TURNS}`).count()).toBe(1);
    expect(limits).toEqual([WEB_LIMITS.firstHistoryPage]);
    // The first turn is older than the first page: it arrives by page once the top is in view.
    await expect
      .poll(async () => {
        const more = page.getByTestId('load-earlier');
        if ((await more.count()) > 0) await more.scrollIntoViewIfNeeded().catch(() => undefined);
        return chat.getByText('You asked: turn number 1').count();
      })
      .toBe(1);
    expect(phone.errors).toEqual([]);
  }, 120_000);
});
