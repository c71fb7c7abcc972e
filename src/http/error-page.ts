/**
 * A readable HTML answer for a browser that navigated to a page the hub refuses: a tunnel
 * hostname the hub does not know yet, or /docs without a paired cookie (a paired device without
 * the scope a page needs is sent to the web app's page for it, `needsScopePath`). API clients keep the
 * JSON error; only top-level navigations (`Sec-Fetch-Mode: navigate`, or no fetch metadata and
 * `Accept: text/html`) get this page. Pure; every variable part is escaped.
 */
import type { HubErrorCode } from '../errors.js';

/** True for a browser loading a page (not a fetch, an image, a WebSocket or curl). */
export function isPageNavigation(headers: Record<string, string | string[] | undefined>, method: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const mode = headers['sec-fetch-mode'];
  if (typeof mode === 'string') return mode === 'navigate';
  const accept = headers['accept'];
  return typeof accept === 'string' && accept.split(',')[0]?.trim() === 'text/html';
}

/** The web app's page for a paired device that opened an admin page (web/src/router-paths.ts `needsAdmin`). */
export const NEEDS_ADMIN_PATH = '/needs-admin';
/** The web app's page for a view device that opened an operate page (web/src/router-paths.ts `needsOperate`). */
export const NEEDS_OPERATE_PATH = '/needs-operate';

/**
 * Where a paired device that lacks `need` is sent: the app's page that names the scope and how to
 * get it. The admin page is told which address was opened (`?from=`, its path only: a query string
 * may hold a ticket), so it names that page rather than one it guesses.
 */
export function needsScopePath(need: 'operate' | 'admin', url?: string): string {
  if (need === 'operate') return NEEDS_OPERATE_PATH;
  const from = url === undefined ? '' : url.split('?')[0]!;
  return from.startsWith('/') ? `${NEEDS_ADMIN_PATH}?from=${encodeURIComponent(from)}` : NEEDS_ADMIN_PATH;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Hostnames of the quick-tunnel services people use to reach a laptop from a phone. */
export function isTunnelHost(host: string): boolean {
  return /\.(trycloudflare\.com|ngrok-free\.app|ngrok\.app|ngrok\.io|ngrok-free\.dev|loca\.lt|tailscale\.net|ts\.net)$/i.test(host);
}

interface PageText {
  title: string;
  body: string[];
}

function textFor(code: HubErrorCode, host: string): PageText | undefined {
  const url = `https://${host}`;
  switch (code) {
    case 'HUB_ERR_HOST':
      return {
        title: `This hub does not answer to ${host} yet`,
        body: [
          isTunnelHost(host)
            ? 'You reached it through a tunnel. For safety the hub only answers to addresses it was told about (this blocks DNS-rebinding attacks).'
            : 'For safety the hub only answers to addresses it was told about (this blocks DNS-rebinding attacks).',
          `On the computer running the hub, add this address, then reload this page:<br><code>zcode-hub public-url add ${esc(url)}</code>`,
          `(Or restart it with <code>zcode-hub start --public-url ${esc(url)}</code>. An admin device that can already reach the hub can add it in Settings → Public addresses.)`,
          'Tunnel recipes (cloudflared, Tailscale, ngrok): docs/SECURITY.md in the zcode-hub repository.',
        ],
      };
    case 'HUB_ERR_UNAUTHENTICATED':
      return {
        title: 'This browser is not paired',
        body: [
          'Open the hub’s home page on this device and pair it: run <code>zcode-hub pair --scope admin</code> on the computer and enter the code.',
          'The API docs need an admin device; other pages need any paired device.',
          '<a href="/">Go to the hub</a>',
        ],
      };
    case 'HUB_ERR_ORIGIN':
      return {
        title: 'Open this page from the hub itself',
        body: [
          'The request came from another site, so the hub refused to use this device’s credentials. Open the hub’s home page and follow its link instead.',
          '<a href="/">Go to the hub</a>',
        ],
      };
    default:
      return undefined;
  }
}

/** The page for a refused navigation, or undefined when the JSON error is the right answer. */
export function errorPage(code: HubErrorCode, host: string | undefined): string | undefined {
  const text = textFor(code, host ?? 'this address');
  if (!text) return undefined;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    // No icon to fetch: a browser asks for /favicon.ico, a 404 in its console, and on a refused host a refusal.
    '<link rel="icon" href="data:,">',
    `<title>${esc(text.title)}</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#15171c;background:#f6f7f9}code{background:#eef0f4;padding:2px 4px;border-radius:4px;overflow-wrap:anywhere}@media (prefers-color-scheme:dark){body{color:#e6e8ee;background:#15171c}code{background:#262a33}a{color:#748ffc}}</style>',
    '</head><body>',
    `<h1>${esc(text.title)}</h1>`,
    ...text.body.map((p) => `<p>${p}</p>`),
    `<p><small>${esc(code)}</small></p>`,
    '</body></html>',
  ].join('\n');
}
