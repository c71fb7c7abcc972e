/**
 * The installed app opens from the service worker's cached shell, a round trip before the hub's
 * could arrive (BENCHMARKS.md, B-PHONE), and fetches the hub's meanwhile for the next open: a new
 * CSP (here after a public address was added) is in the cache for that open, and a reload takes
 * it at once (the app's own reloads after adding a machine rely on it). A page opened on an older
 * build's shell is told a new one is on the hub, and is not reloaded under the person using it; a
 * screen whose script is gone from the hub (an older build's) says so and offers the reload.
 * Real daemon, Chromium at 390×844 with its service worker.
 */
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { pair } from './support/flow.js';

const { hub, phone } = phoneHub();

/** Adds `url` to the hub's public addresses as the admin does (it joins the shell's CSP `connect-src`). */
async function addPublicUrl(url: string): Promise<void> {
  const res = await hub.api('/api/settings/public-urls', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  expect(res.status).toBe(201);
}

/** The CSP of every document the page is given from now on, in order, and whether the worker answered. */
function shellsOf(page: Page): Array<{ csp: string; fromWorker: boolean }> {
  const seen: Array<{ csp: string; fromWorker: boolean }> = [];
  page.on('response', (r: Response) => {
    if (!r.request().isNavigationRequest() || r.frame() !== page.mainFrame()) return;
    seen.push({ csp: r.headers()['content-security-policy'] ?? '', fromWorker: r.fromServiceWorker() });
  });
  return seen;
}

/** The CSP of the shell the worker keeps for the next open. */
const cachedCsp = (page: Page) => page.evaluate(async () => (await caches.match('/'))?.headers.get('content-security-policy') ?? '');

const sessions = (page: Page) => page.getByRole('heading', { name: 'Sessions' }).waitFor();

describe('the shell from the service worker', () => {
  it('opens from the cached shell and keeps the hub’s new one for the next open', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Phone');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The page that registered the worker is not under its control; the next one is.
    await page.reload();
    await sessions(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await addPublicUrl('https://shell-one.example.com');
    const shells = shellsOf(page);
    await page.goto(hub.url);
    await sessions(page);
    // The cached shell, from before the address: no round trip waited for.
    expect(shells).toEqual([{ csp: expect.not.stringContaining('https://shell-one.example.com') as unknown, fromWorker: true }]);
    // The hub's, fetched meanwhile, is what the next open gets.
    await expect.poll(() => cachedCsp(page), { timeout: 10_000 }).toContain('https://shell-one.example.com');
    await page.goto(`${hub.url}/inbox`);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(shells).toHaveLength(2);
    expect(shells[1]!.csp).toContain('https://shell-one.example.com');
  });

  it('a reload takes the hub’s shell at once', async () => {
    const { page } = phone;
    await page.goto(`${hub.url}/inbox`);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await addPublicUrl('https://shell-two.example.com');
    const shells = shellsOf(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(shells).toHaveLength(1);
    expect(shells[0]!.csp).toContain('https://shell-two.example.com');
  });

  it('a page opened on an older build’s shell says a new one is on the hub, and stays', async () => {
    const { page } = phone;
    // What the worker would hold from before an upgrade: the same shell with other bytes.
    await page.evaluate(async () => {
      const now = await fetch('/');
      const older = `${await now.text()}<!-- an older build -->`;
      const cache = await caches.open('zcode-hub-shell-v1');
      await cache.put('/', new Response(older, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    });
    const shells = shellsOf(page);
    await page.goto(hub.url);
    await page.getByText('A new version of the app is on the hub: reload to use it.').waitFor();
    await sessions(page);
    // Only the cached shell was shown (the notice comes from its differing from the hub's), and no reload.
    expect(shells).toEqual([expect.objectContaining({ fromWorker: true }) as unknown]);
  });

  it('a screen whose script cannot be had says so, and a reload brings the hub’s app', async () => {
    const { page, context } = phone;
    // What an older build's page meets after an upgrade: its screen's chunk is gone from the hub.
    const gone = '**/assets/settings-view-*.js';
    await context.route(gone, (route) => route.abort());
    try {
      await page.goto(`${hub.url}/settings`);
      await page.getByTestId('screen-load-failed').getByText('This screen could not be loaded').waitFor();
    } finally {
      await context.unroute(gone);
    }
    await page.getByRole('button', { name: 'Reload the app' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await page.getByTestId('screen-load-failed').count()).toBe(0);
  });
});
