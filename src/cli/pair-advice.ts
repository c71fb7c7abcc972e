/** What `zcode-hub pair` adds when its link only works on this computer. Pure. */

/** True when the URL's host is a loopback name or address (a phone cannot open it). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The warning printed under a loopback link: why it will not open on a phone, and the fixes. */
export function loopbackAdvice(url: string): string {
  const port = new URL(url).port || '8377';
  return [
    '',
    `Note: this link points at this computer (${new URL(url).host}); a phone cannot open it. Either:`,
    `  - on the same Wi-Fi: zcode-hub start --host 0.0.0.0 --public-url http://<this computer's LAN address>:${port}`,
    `  - from anywhere, through a tunnel: cloudflared tunnel --url http://127.0.0.1:${port}`,
    '    then: zcode-hub public-url add https://<the name it prints>.trycloudflare.com   (no restart needed)',
    '  and run zcode-hub pair again. Recipes and their trade-offs: docs/SECURITY.md, "Exposing the hub through a tunnel".',
    'The code itself also works: type it into the web app opened at any address that reaches the hub.',
    '',
  ].join('\n');
}
