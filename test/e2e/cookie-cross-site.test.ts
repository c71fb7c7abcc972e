/**
 * The device cookie on a typed address (reviewed for item 5): an admin phone may
 * open /docs by typing it, and no other page can make the browser use that cookie. Real Chromium,
 * so the Sec-Fetch-* headers are the browser's own, not written by the test: an attacker page on
 * another port of the same host (same *site*, so the SameSite=Strict cookie does travel) frames
 * /docs, fetches /api/me with credentials, and links to /docs; every one is refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { pair } from './support/flow.js';

const { hub, phone } = phoneHub({ setup: async ({ hub, phone }) => pair(phone, hub, 'Admin phone', 'admin') });

let attacker: http.Server;
let evil = '';

beforeAll(async () => {
  attacker = http.createServer((_req, res) => {
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
  attacker?.closeAllConnections();
  await new Promise<void>((resolve) => attacker?.close(() => resolve()));
});

/** One request the browser sent to the hub, with the headers it really sent (CDP, not Playwright's view). */
interface Sent {
  url: string;
  headers: Record<string, string>;
  status?: number;
}

/** Every request the page sent to the hub under `path` while `run` ran, as the network saw it. */
async function sentToHub(path: string, run: () => Promise<void>): Promise<Sent[]> {
  const cdp = await phone.context.newCDPSession(phone.page);
  const byId = new Map<string, Sent>();
  const get = (id: string): Sent => byId.get(id) ?? byId.set(id, { url: '', headers: {} }).get(id)!;
  cdp.on('Network.requestWillBeSent', (e) => {
    get(e.requestId).url = e.request.url;
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
    const s = get(e.requestId);
    s.headers = Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
  });
  cdp.on('Network.responseReceivedExtraInfo', (e) => {
    get(e.requestId).status = e.statusCode;
  });
  await cdp.send('Network.enable');
  try {
    await run();
    // The last answers' extra info can trail the page's own promises by a tick.
    await expect
      .poll(() => [...byId.values()].filter((s) => s.url.startsWith(`${hub.url}${path}`)).every((s) => s.status !== undefined))
      .toBe(true);
  } finally {
    await cdp.detach();
  }
  return [...byId.values()].filter((s) => s.url.startsWith(`${hub.url}${path}`));
}

describe('the device cookie outside the hub’s own pages', () => {
  it('typed into the address bar, /docs opens (the browser says Sec-Fetch-Site: none)', async () => {
    const res = await phone.page.goto(`${hub.url}/docs/`);
    expect(res?.status()).toBe(200);
    expect(await res?.request().headerValue('sec-fetch-site')).toBe('none');
    expect(await res?.request().headerValue('cookie')).toMatch(/zcode_hub_token_[0-9a-f]{32}=/);
  });

  it('another page on the same host frames it, fetches with credentials, links to it: all refused', async () => {
    const { page } = phone;
    const sent = await sentToHub('/', async () => {
      await page.goto(evil);
      expect(await page.evaluate('window.fetchResult')).toMatch(/^blocked/);
      expect(await page.evaluate('window.noCors')).toBe('opaque');
      await expect
        .poll(async () =>
          (
            await page
              .frameLocator('#frame')
              .locator('body')
              .innerText()
              .catch(() => '')
          ).includes('Swagger'),
        )
        .toBe(false);
    });
    const me = sent.filter((s) => s.url === `${hub.url}/api/me`);
    expect(me.map((s) => s.headers['sec-fetch-mode']).sort()).toEqual(['cors', 'no-cors']);
    for (const s of me) {
      // The cookie did travel (same site), and the hub still refused: the origin check, not SameSite, stopped it.
      expect(s.headers.cookie).toMatch(/zcode_hub_token_[0-9a-f]{32}=/);
      expect(s.status).toBe(403);
    }
    const framed = sent.find((s) => s.url === `${hub.url}/docs/`);
    expect(framed?.headers['sec-fetch-dest']).toBe('iframe');
    expect(framed?.headers.cookie).toMatch(/zcode_hub_token_[0-9a-f]{32}=/);
    expect(framed?.status).toBe(403);

    const clicked = await sentToHub('/docs/', async () => {
      await Promise.all([page.waitForURL(`${hub.url}/docs/`), page.click('#link')]);
    });
    expect(clicked[0]?.headers['sec-fetch-site']).toBe('same-site');
    expect(clicked[0]?.headers.cookie).toMatch(/zcode_hub_token_[0-9a-f]{32}=/);
    expect(clicked[0]?.status).toBe(403);
    expect(await page.locator('body').innerText()).toContain('Open this page from the hub itself');
    expect(await page.locator('.swagger-ui').count()).toBe(0);
  });
});
