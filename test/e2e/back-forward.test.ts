/**
 * Back to the app from another page restores it from the back/forward cache at once (the app
 * lets go of its WebSocket on `pagehide`; an open one keeps a page out of the cache in Chromium
 * and Safari, and this Chromium instead kills it on the way in, with the console error "WebSocket
 * connection … failed: Page entered Back-Forward Cache"), then reconnects and catches up on what
 * happened meanwhile.
 * Real daemon, Chromium at 390×844; the proof that the page was kept is a value set on the old
 * page that is still there, a `pageshow` with `persisted`, and no `Page.backForwardCacheNotUsed`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { openDevice, type Device } from './support/browser.js';
import { pair, sendPrompt, waitIdle } from './support/flow.js';

let hub: HubHarness;
let phone: Device;
beforeAll(async () => {
  hub = await startHub();
  phone = await openDevice({ backForwardCache: true });
});
afterAll(async () => {
  await phone?.close().catch(() => undefined);
  await hub?.close();
});

type Kept = Window & { keptMark?: string; restoredFromCache?: boolean };

describe('the phone app and the back/forward cache', () => {
  it('comes back from the cache on Back, then is live again and shows what changed meanwhile', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Phone');
    await page.getByTestId('new-session').click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('prompt-input').waitFor();
    await sendPrompt(page, 'hello there');
    await expect.poll(() => page.getByRole('main').getByText('You asked: hello there').count(), { timeout: 30_000 }).toBe(1);
    await waitIdle(page);
    const sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    expect(sessionId).not.toBe('');

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.enable');
    const notUsed: unknown[] = [];
    cdp.on('Page.backForwardCacheNotUsed', (e) => notUsed.push(e));
    await page.evaluate(() => {
      const w = window as Kept;
      w.keptMark = 'kept';
      window.addEventListener('pageshow', (e) => {
        w.restoredFromCache = e.persisted;
      });
    });

    // Another site (a page of its own, so the app's document is the one left behind).
    await page.goto('data:text/html,<title>Elsewhere</title><p>Elsewhere</p>');
    // Meanwhile the session is renamed elsewhere: the restored page must catch up on it.
    const res = await hub.api(`/api/sessions/${encodeURIComponent(sessionId)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Renamed while away' }),
    });
    expect(res.status).toBe(200);
    await page.goBack({ waitUntil: 'commit' });

    expect(notUsed).toEqual([]);
    expect(await page.evaluate(() => (window as Kept).keptMark)).toBe('kept');
    await expect.poll(() => page.evaluate(() => (window as Kept).restoredFromCache)).toBe(true);
    // Live again: the rename made while away shows, and a new prompt is answered.
    await expect.poll(() => page.getByRole('banner').innerText()).toContain('Renamed while away');
    await sendPrompt(page, 'and once more');
    await expect.poll(() => page.getByRole('main').getByText('You asked: and once more').count(), { timeout: 30_000 }).toBe(1);
    await waitIdle(page);
    expect(phone.errors).toEqual([]);
  });
});
