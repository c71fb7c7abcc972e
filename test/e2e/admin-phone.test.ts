/**
 * Admin from the phone, 390×844 light and dark: the API docs open from
 * Settings and when typed; Providers explains the built-in providers before the personal list;
 * an empty Workflows screen says what workflows are and how to get one; the API docs fit the phone.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { openDevice, PHONE } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { pair, shoot } from './support/flow.js';

const { hub, phone } = phoneHub();

describe('admin on the phone', () => {
  it('Providers explains the built-in providers; Workflows has a way forward when empty', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Admin phone', 'admin');
    await page.goto(`${hub.url}/settings/providers`);
    const intro = page.getByTestId('providers-intro');
    await intro.waitFor();
    expect(await intro.innerText()).toMatch(/always available/);
    await shoot(page, 'providers');
    await page.goto(`${hub.url}/settings/workflows`);
    const empty = page.getByTestId('workflows-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toMatch(/\.zcode\/workflows/);
    await shoot(page, 'workflows-empty');
  });

  it('the API docs open from Settings and when typed into the address bar', async () => {
    const { page, context } = phone;
    await page.goto(`${hub.url}/settings`);
    const link = page.getByTestId('api-docs-link');
    await link.waitFor();
    const [docs] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await docs.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
    expect(await docs.locator('.swagger-ui .info .title').innerText()).toMatch(/zcode-hub/);
    await docs.close();
    // Typed: a user-initiated navigation, Sec-Fetch-Site: none.
    const res = await page.goto(`${hub.url}/docs`);
    expect(res?.status()).toBe(200);
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
  });

  it('the API docs fit a 390 px phone: laid out at its width, nothing wider, text at a readable size', async () => {
    const { page } = phone;
    await page.goto(`${hub.url}/docs`);
    const op = page.locator('.swagger-ui .opblock').first();
    await op.waitFor({ timeout: 30_000 });
    const fit = await page.evaluate(() => ({
      layoutWidth: window.innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      path: Number.parseFloat(getComputedStyle(document.querySelector('.opblock-summary-path') as Element).fontSize),
    }));
    expect(fit.layoutWidth).toBe(PHONE.width);
    expect(fit.scrollWidth).toBeLessThanOrEqual(PHONE.width);
    expect(fit.path).toBeGreaterThanOrEqual(14);
    // Every operation's method and path are inside the screen.
    const outside = await page
      .locator('.swagger-ui .opblock-summary')
      .evaluateAll((els, w) => els.filter((e) => e.getBoundingClientRect().right > w).map((e) => e.textContent?.trim() ?? ''), PHONE.width);
    expect(outside).toEqual([]);
    // An operation opens and its parameters still fit.
    await op.locator('.opblock-summary').click();
    await op.locator('.opblock-body').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, 'api-docs-phone');
  });

  it('an admin adds a tunnel address from the phone and the hub answers to it at once', async () => {
    const { page } = phone;
    await page.goto(`${hub.url}/settings`);
    const card = page.getByTestId('public-urls');
    await card.waitFor();
    const host = 'calm-river-1234.trycloudflare.com';
    // A request as the tunnel would forward it: Host is the tunnel's name.
    const probe = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: new URL(hub.url).port, path: '/api/health', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await probe()).toBe(403);
    await card.getByTestId('public-url-input').fill(`https://${host}`);
    await card.getByTestId('public-url-add').click();
    await expect.poll(() => card.getByTestId('public-url').allInnerTexts()).toEqual([expect.stringContaining(`https://${host}`)]);
    await card.scrollIntoViewIfNeeded();
    await shoot(page, 'public-urls');
    expect(await probe()).toBe(200);
  });

  it('a browser that is not paired gets a page telling it to pair, not JSON', async () => {
    const stranger = await openDevice();
    try {
      const res = await stranger.page.goto(`${hub.url}/docs`);
      expect(res?.status()).toBe(401);
      expect(await stranger.page.locator('h1').innerText()).toBe('This browser is not paired');
    } finally {
      await stranger.close();
    }
  });
});
