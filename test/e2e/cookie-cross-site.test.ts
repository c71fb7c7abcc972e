/**
 * The device cookie on a typed address (issue 14 item 6, reviewed for item 5): an admin phone may
 * open /docs by typing it, and no other page can make the browser use that cookie. Real Chromium,
 * so the Sec-Fetch-* headers are the browser's own, not written by the test: an attacker page on
 * another port of the same host (same *site*, so the SameSite=Strict cookie does travel) frames
 * /docs, fetches /api/me with credentials, and links to /docs; every one is refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { pair } from './support/flow.js';

const { hub, phone } = phoneHub({ setup: async ({ hub, phone }) => pair(phone, hub, 'Admin phone', 'admin') });

let attacker: http.Server;
let evil = '';

beforeAll(async () => {
  attacker = http.createServer((req, res) => {
    const target = hub.url;
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>evil</title>
<iframe id="frame" src="${target}/docs/"></iframe>
<a id="link" href="${target}/docs/">docs</a>
<script>
  window.fetchResult = fetch('${target}/api/me', { credentials: 'include' }).then((r) => 'status ' + r.status, (e) => 'blocked ' + e.name);
  window.noCors = fetch('${target}/api/me', { credentials: 'include', mode: 'no-cors' }).then((r) => r.type, (e) => 'blocked ' + e.name);
</script>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  evil = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => attacker?.close(() => resolve()));
});

/** Every answer the hub gave to the page for `path` while `run` ran. */
async function hubAnswers(path: string, run: () => Promise<void>): Promise<Response[]> {
  const seen: Response[] = [];
  const on = (r: Response) => {
    if (r.url().startsWith(`${hub.url}${path}`)) seen.push(r);
  };
  phone.page.on('response', on);
  try {
    await run();
  } finally {
    phone.page.off('response', on);
  }
  return seen;
}

describe('the device cookie outside the hub’s own pages', () => {
  it('typed into the address bar, /docs opens (the browser says Sec-Fetch-Site: none)', async () => {
    const res = await phone.page.goto(`${hub.url}/docs/`);
    expect(res?.status()).toBe(200);
    expect(await res?.request().headerValue('sec-fetch-site')).toBe('none');
    expect(await res?.request().headerValue('cookie')).toMatch(/zcode_hub_token=/);
  });

  it('another page on the same host frames it, fetches with credentials, links to it: all refused', async () => {
    const { page } = phone;
    const docs = await hubAnswers('/docs/', async () => {
      const me = await hubAnswers('/api/me', async () => {
        await page.goto(evil);
        // Both fetches settle (refused by the hub, then by CORS) before we look.
        expect(await page.evaluate('window.fetchResult')).toMatch(/^blocked/);
        expect(await page.evaluate('window.noCors')).toBe('opaque');
      });
      // The cookie did travel (same site), and the hub still refused: the origin check, not SameSite, stopped it.
      expect(me.length).toBeGreaterThanOrEqual(2);
      for (const r of me) {
        expect(await r.request().headerValue('cookie')).toMatch(/zcode_hub_token=/);
        expect(r.status()).toBe(403);
      }
      await expect.poll(async () => (await page.frameLocator('#frame').locator('body').innerText().catch(() => '')).includes('Swagger')).toBe(false);
    });
    // The frame's request: the browser says it is a frame of another site; the hub says no.
    const framed = docs[0];
    expect(framed && (await framed.request().headerValue('sec-fetch-dest'))).toBe('iframe');
    expect(framed?.status()).toBe(403);
    expect(framed?.headers()['x-frame-options']).toBe('DENY');

    const clicked = await hubAnswers('/docs/', async () => {
      await Promise.all([page.waitForURL(`${hub.url}/docs/`), page.click('#link')]);
    });
    expect(await clicked[0]?.request().headerValue('sec-fetch-site')).toBe('same-site');
    expect(clicked[0]?.status()).toBe(403);
    expect(await page.locator('body').innerText()).toContain('Open this page from the hub itself');
    expect(await page.locator('.swagger-ui').count()).toBe(0);
  });
});
