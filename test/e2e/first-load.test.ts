/**
 * What the phone does before its first screen (BENCHMARKS.md, B-PHONE): a paired phone opens the
 * hub's socket without waiting for its token check (`GET /api/me`) to answer — from the app's
 * first, small script, with `initialize`, while the rest downloads — a deep-linked chat
 * is loaded beside the session list rather than after it, both asked for behind `initialize`
 * rather than after its answer (a round trip less each on a slow link),
 * and a long chat asks for a screenful of history first, the older turns coming by page as it is
 * scrolled up. Real daemon, Chromium at 390×844.
 */
import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { WEB_LIMITS } from '../../web/src/limits.js';
import { phoneHub } from './support/fixture.js';
import { pair } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.2'] } });
/** Turns of two messages each: more than the first page holds (and under 10, so `turn number 1` names one). */
const TURNS = WEB_LIMITS.firstHistoryPage / 2 + 3;

/** The hub socket's frames, both ways, in the order Chromium saw them: `→ method` sent, `← #id` answers. */
function frameLog(page: Page): string[] {
  const log: string[] = [];
  page.on('websocket', (ws) => {
    if (new URL(ws.url()).pathname !== '/acp') return;
    const note = (dir: '→' | '←') => (f: { payload: string | Buffer }) => {
      const m = JSON.parse(String(f.payload)) as { id?: unknown; method?: string; error?: unknown };
      if (dir === '→' && m.method) log.push(`→ ${m.method}${m.id === undefined ? '' : ` #${String(m.id)}`}`);
      if (dir === '←' && !m.method) log.push(`← #${String(m.id)}${m.error === undefined ? '' : ' error'}`);
    };
    ws.on('framesent', note('→'));
    ws.on('framereceived', note('←'));
  });
  return log;
}

/** The id a request was sent with (`→ method #id` in the log). */
function idOf(log: string[], method: string): string | undefined {
  return log.find((l) => l.startsWith(`→ ${method} #`))?.split('#')[1];
}

/** A session an editor opened and prompted once with `text` (the chat shows `You asked: <text>`); answers its id. */
async function sessionAsked(text: string): Promise<string> {
  const editor = await hub.initializedClient({ name: 'editor' });
  const { sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
  await editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  await editor.close();
  return sessionId;
}

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

  it("opens the socket and sends initialize before the app's own script has arrived", async () => {
    const { page } = phone;
    // The service worker serves cached assets where page.route cannot see them: start without it.
    await page.evaluate(async () => {
      for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
      for (const k of await caches.keys()) await caches.delete(k);
    });
    let initializeSent: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => (initializeSent = resolve));
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        if ((JSON.parse(String(f.payload)) as { method?: string }).method === 'initialize') initializeSent();
      }),
    );
    // Hold the app's entry script until initialize went out: an app whose socket waited for it
    // would never send one, and the wait below would time out.
    let held = 0;
    const entry = /\/assets\/index-[^/]+\.js$/;
    await page.route(entry, async (route) => {
      held++;
      await Promise.race([sent, new Promise((r) => setTimeout(r, 20_000))]);
      await route.continue().catch(() => undefined);
    });
    try {
      await page.reload();
      const outcome = await Promise.race([sent.then(() => 'sent'), page.waitForTimeout(20_000).then(() => 'never sent')]);
      expect(outcome).toBe('sent');
      await page.getByRole('heading', { name: 'Sessions' }).waitFor();
      expect(held).toBe(1);
      await expect.poll(() => page.getByTestId('conn-indicator').getAttribute('data-status')).toBe('online');
    } finally {
      initializeSent();
      await page.unroute(entry);
    }
    expect(phone.errors).toEqual([]);
  }, 60_000);

  it("sends the list and the deep-linked chat's load before the app's own script has arrived, and the app asks neither again", async () => {
    const sessionId = await sessionAsked('early load check');

    const { page } = phone;
    // The service worker serves cached assets where page.route cannot see them: start without it.
    await page.evaluate(async () => {
      for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
      for (const k of await caches.keys()) await caches.delete(k);
    });
    const sent: string[] = [];
    let loadSent: () => void = () => undefined;
    const loaded = new Promise<void>((resolve) => (loadSent = resolve));
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        const method = (JSON.parse(String(f.payload)) as { method?: string }).method;
        if (method) sent.push(method);
        if (method === 'session/load') loadSent();
      }),
    );
    // Hold the app's entry script until the load went out: only the first script can have sent it.
    const entry = /\/assets\/index-[^/]+\.js$/;
    await page.route(entry, async (route) => {
      await Promise.race([loaded, new Promise((r) => setTimeout(r, 20_000))]);
      await route.continue().catch(() => undefined);
    });
    try {
      await page.goto(`${hub.url}/s/${sessionId}`);
      const outcome = await Promise.race([loaded.then(() => 'sent'), page.waitForTimeout(20_000).then(() => 'never sent')]);
      expect(outcome).toBe('sent');
      await page.getByRole('main').getByText('You asked: early load check').waitFor();
      await expect.poll(() => page.getByTestId('conn-indicator').getAttribute('data-status')).toBe('online');
    } finally {
      loadSent();
      await page.unroute(entry);
    }
    // The app took the first script's requests over: none of them asked twice.
    expect(sent.slice(0, 3)).toEqual(['initialize', 'session/list', 'session/load']);
    expect(sent.filter((m) => m === 'session/list' || m === 'session/load' || m === 'initialize')).toHaveLength(3);
    expect(phone.errors).toEqual([]);
  }, 60_000);

  it("a deep-linked chat's session/list and session/load go out behind initialize, before its answer", async () => {
    const sessionId = await sessionAsked('deep link check');

    // A page of its own: its socket passes through a route that holds every frame from the hub
    // until the app has sent its load. An app that waited for initialize's answer (a round trip)
    // before asking for the list and the chat would never send them, and the wait would time out.
    const page = await phone.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const sent: string[] = [];
    let holding = true;
    const held: Array<() => void> = [];
    await page.routeWebSocket(
      (url) => url.pathname === '/acp',
      (ws: WebSocketRoute) => {
        const server = ws.connectToServer();
        ws.onMessage((m) => {
          const method = (JSON.parse(String(m)) as { method?: string; id?: unknown }).method;
          if (method) sent.push(method);
          server.send(m);
        });
        server.onMessage((m) => (holding ? held.push(() => ws.send(m)) : ws.send(m)));
      },
    );
    try {
      await page.goto(`${hub.url}/s/${sessionId}`);
      await expect.poll(() => sent.includes('session/load'), { timeout: 20_000 }).toBe(true);
      expect(sent).toEqual(['initialize', 'session/list', 'session/load']);
    } finally {
      holding = false;
      for (const send of held.splice(0)) send();
    }
    await page.getByRole('main').getByText('You asked: deep link check').waitFor();
    await expect.poll(() => page.getByTestId('conn-indicator').getAttribute('data-status')).toBe('online');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('a deep link to a session that does not exist costs neither the connection nor the list', async () => {
    const { page } = phone;
    const log = frameLog(page);
    await page.goto(`${hub.url}/s/sess_no_such_session`);
    await expect.poll(() => log.includes(`← #${idOf(log, 'session/load')} error`)).toBe(true);
    await expect.poll(() => page.getByTestId('conn-indicator').getAttribute('data-status')).toBe('online');
    await page.getByRole('button', { name: /back/i }).first().click();
    await page.getByTestId('session-row').first().waitFor();
    expect(phone.errors).toEqual([]);
  }, 60_000);

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
