import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorPage, isPageNavigation, isTunnelHost, NEEDS_ADMIN_PATH, NEEDS_OPERATE_PATH } from '../../src/http/error-page.js';
import { DEFAULT_WEB_DIST } from '../../src/http/web.js';
import { createToken, startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';
import { rawRequest } from './helpers/raw-http.js';

// A browser that opens a page the hub refuses gets an HTML page that
// says why and what to run; API clients keep the JSON errors. An admin device can open /docs
// by typing it (Sec-Fetch-Site: none), never from another site.
const NAVIGATE = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html,application/xhtml+xml' };

describe('browser pages for refused requests', () => {
  let hub: SecuredHub;
  let admin: string;
  let operate: string;
  let view: string;
  const host = () => `127.0.0.1:${hub.port}`;

  beforeAll(async () => {
    hub = await startSecuredHub();
    admin = (await createToken(hub, 'admin')).token;
    operate = (await createToken(hub, 'operate')).token;
    view = (await createToken(hub, 'view')).token;
  });
  afterAll(async () => {
    await hub.close();
  });

  it('a quick-tunnel Host the hub does not know: an HTML page with the --public-url command; fetches still get JSON', async () => {
    const page = await rawRequest(hub.port, {
      path: '/',
      headers: { host: 'calm-river-1234.trycloudflare.com', ...NAVIGATE, 'sec-fetch-site': 'none' },
    });
    expect(page.status).toBe(403);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('This hub does not answer to calm-river-1234.trycloudflare.com yet');
    expect(page.body).toContain('zcode-hub public-url add https://calm-river-1234.trycloudflare.com');
    expect(page.body).toContain('zcode-hub start --public-url https://calm-river-1234.trycloudflare.com');
    expect(page.body).toContain('You reached it through a tunnel');
    expect(page.body).toContain('docs/SECURITY.md');
    const api = await rawRequest(hub.port, {
      path: '/api/me',
      headers: { host: 'calm-river-1234.trycloudflare.com', 'sec-fetch-mode': 'cors' },
    });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body)).toMatchObject({ error: { code: 'HUB_ERR_HOST' } });
  });

  it('an admin device that types /docs gets the API reference; cross-site it is refused with a page', async () => {
    const cookie = `zcode_hub_token=${admin}`;
    const typed = await rawRequest(hub.port, { path: '/docs/', headers: { host: host(), cookie, ...NAVIGATE, 'sec-fetch-site': 'none' } });
    expect(typed.status).toBe(200);
    expect(typed.body).toMatch(/swagger/i);
    const spec = await rawRequest(hub.port, {
      path: '/docs/json',
      headers: { host: host(), cookie, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
    });
    expect(spec.status).toBe(200);
    expect(JSON.parse(spec.body)).toHaveProperty('openapi');
    const crossSite = await rawRequest(hub.port, {
      path: '/docs/',
      headers: { host: host(), cookie, ...NAVIGATE, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toContain('Open this page from the hub itself');
    // "none" is a navigation's word: a typed non-GET still needs a same-origin request.
    const post = await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/tokens',
      headers: { host: host(), cookie, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'content-type': 'application/json' },
      body: '{"name":"x","scope":"view"}',
    });
    expect(post.status).toBe(403);
  });

  it('the typed-address exception is not a way in for another page (docs/SECURITY.md "The cookie on a typed address")', async () => {
    const cookie = `zcode_hub_token=${admin}`;
    const get = (headers: Record<string, string>) =>
      rawRequest(hub.port, { path: '/docs/', headers: { host: host(), cookie, ...headers } });
    // A frame is some page's doing, even when it claims "none".
    expect((await get({ ...NAVIGATE, 'sec-fetch-site': 'none', 'sec-fetch-dest': 'iframe' })).status).toBe(403);
    // A link from another port of the same host: same site, so SameSite=Strict lets the cookie through; the check does not.
    expect((await get({ ...NAVIGATE, 'sec-fetch-site': 'same-site' })).status).toBe(403);
    // fetch(…, {credentials: 'include'}) from elsewhere: with its Origin, and as no-cors without one.
    expect(
      (await get({ origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }))
        .status,
    ).toBe(403);
    expect((await get({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'empty' })).status).toBe(403);
    // "none" with a fetch's mode: no browser sends it; refused all the same.
    expect((await get({ 'sec-fetch-site': 'none', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' })).status).toBe(403);
    // A browser too old for Sec-Fetch-*: no exception, the cookie alone is not enough.
    expect((await get({ accept: 'text/html' })).status).toBe(403);
    // The typed page itself can never be framed.
    const typed = await get({ ...NAVIGATE, 'sec-fetch-site': 'none' });
    expect(typed.status).toBe(200);
    expect(typed.headers['x-frame-options']).toBe('DENY');
    expect(String(typed.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('/docs without a paired cookie: a page that says how to pair as admin; an operate device is sent to the app’s needs-admin page', async () => {
    const bare = await rawRequest(hub.port, { path: '/docs/', headers: { host: host(), ...NAVIGATE, 'sec-fetch-site': 'none' } });
    expect(bare.status).toBe(401);
    expect(bare.body).toContain('zcode-hub pair --scope admin');
    // No icon request (a 404 in the browser's console).
    expect(bare.body).toContain('<link rel="icon" href="data:,">');
    const op = await rawRequest(hub.port, {
      path: '/docs/',
      headers: { host: host(), cookie: `zcode_hub_token=${operate}`, ...NAVIGATE, 'sec-fetch-site': 'same-origin' },
    });
    // A redirect, not a 403 document (every browser logs that as an error); the app's page says how to get admin.
    expect(op.status).toBe(303);
    // With the path it opened, so the page names it.
    expect(op.headers['location']).toBe(`${NEEDS_ADMIN_PATH}?from=%2Fdocs%2F`);
    const landing = await rawRequest(hub.port, {
      path: NEEDS_ADMIN_PATH,
      headers: { host: host(), cookie: `zcode_hub_token=${operate}`, ...NAVIGATE, 'sec-fetch-site': 'same-origin' },
    });
    // The app's shell answers it, not a refusal: the page itself when web/dist is built, else the
    // shell's "not built" answer (a fresh clone runs these suites before the browser suites build it).
    if (fs.existsSync(path.join(DEFAULT_WEB_DIST, 'index.html'))) {
      expect(landing.status).toBe(200);
      expect(landing.headers['content-type']).toMatch(/^text\/html/);
    } else {
      expect(landing.status).toBe(503);
      expect(landing.body).toContain('The web app is not built');
    }
    // The same refusal to a fetch stays the JSON 403.
    const fetched = await rawRequest(hub.port, { path: '/docs/json', headers: { host: host(), authorization: `Bearer ${operate}` } });
    expect(fetched.status).toBe(403);
    expect(JSON.parse(fetched.body)).toMatchObject({ error: { code: 'HUB_ERR_FORBIDDEN' } });
    const api = await rawRequest(hub.port, { path: '/docs/json', headers: { host: host() } });
    expect(api.status).toBe(401);
    expect(JSON.parse(api.body)).toMatchObject({ error: { code: 'HUB_ERR_UNAUTHENTICATED' } });
  });

  it('an operate route opened by a view device: a redirect to the app’s needs-operate page; a fetch keeps the JSON 403', async () => {
    const nav = await rawRequest(hub.port, {
      path: '/api/workspaces',
      headers: { host: host(), cookie: `zcode_hub_token=${view}`, ...NAVIGATE, 'sec-fetch-site': 'none' },
    });
    expect(nav.status).toBe(303);
    expect(nav.headers['location']).toBe(NEEDS_OPERATE_PATH);
    // An admin route stays on the needs-admin page, whatever the device's scope below it.
    const admin = await rawRequest(hub.port, {
      path: '/api/tokens?ticket=secret-looking',
      headers: { host: host(), cookie: `zcode_hub_token=${view}`, ...NAVIGATE, 'sec-fetch-site': 'none' },
    });
    expect(admin.status).toBe(303);
    // The path it opened, never its query string (a ticket may ride there).
    expect(admin.headers['location']).toBe(`${NEEDS_ADMIN_PATH}?from=%2Fapi%2Ftokens`);
    const fetched = await rawRequest(hub.port, { path: '/api/workspaces', headers: { host: host(), authorization: `Bearer ${view}` } });
    expect(fetched.status).toBe(403);
    expect(JSON.parse(fetched.body)).toMatchObject({ error: { code: 'HUB_ERR_FORBIDDEN' } });
  });

  it('pure pieces: what counts as a page load, tunnels, escaping', () => {
    expect(isPageNavigation({ 'sec-fetch-mode': 'navigate' }, 'GET')).toBe(true);
    expect(isPageNavigation({ 'sec-fetch-mode': 'cors', accept: 'text/html' }, 'GET')).toBe(false);
    expect(isPageNavigation({ accept: 'text/html,*/*' }, 'GET')).toBe(true);
    expect(isPageNavigation({ accept: '*/*' }, 'GET')).toBe(false);
    expect(isPageNavigation({ 'sec-fetch-mode': 'navigate' }, 'POST')).toBe(false);
    expect(isTunnelHost('a-b.trycloudflare.com')).toBe(true);
    expect(isTunnelHost('x.ngrok-free.app')).toBe(true);
    expect(isTunnelHost('trycloudflare.com.evil.test')).toBe(false);
    expect(errorPage('HUB_ERR_HOST', '<script>')).not.toContain('<script>');
    expect(errorPage('HUB_ERR_NOT_FOUND', 'x')).toBeUndefined();
  });
});
