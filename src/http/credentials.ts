/**
 * The cookie name of hubs before cookies were named per hub. Still read (after the hub's own),
 * so a phone paired then stays signed in; never set any more.
 */
export const LEGACY_AUTH_COOKIE = 'zcode_hub_token';

/**
 * Name of the HttpOnly cookie the built-in web app carries its device token in, one per hub:
 * browsers send a host's cookies to every port of it, so two hubs on one host name (or behind
 * one tunnel host) must not read each other's.
 */
export function authCookieName(hubId: string): string {
  return `${LEGACY_AUTH_COOKIE}_${hubId.replace(/[^0-9a-zA-Z]/g, '')}`;
}

interface CredentialSource {
  headers: Record<string, string | string[] | undefined>;
  url: string;
  method?: string;
}

/**
 * The single-use `?ticket=` of a WebSocket upgrade, if any. It wins over a cookie: the cookie is
 * ambient (sent to every port of the host), the ticket was asked for by this very client.
 */
export function upgradeTicket(req: CredentialSource): string | undefined {
  const upgrade = req.headers.upgrade;
  if (req.method !== 'GET' || typeof upgrade !== 'string' || upgrade.toLowerCase() !== 'websocket') return undefined;
  const q = req.url.indexOf('?');
  return q === -1 ? undefined : (new URLSearchParams(req.url.slice(q + 1)).get('ticket') ?? undefined);
}

/** Where a credential came from; `dpop` is `Authorization: DPoP` (a key-bound token); `query` (`?token=`) is compat only and never logged. */
export type CredentialKind = 'bearer' | 'dpop' | 'cookie' | 'query';

/** A cookie's value by name; a malformed escape (`%E0%A4%A`) is no value, not a 500 with a stack. */
function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      const value = decodeURIComponent(part.slice(eq + 1).trim());
      if (value) return value;
    } catch {
      // Not a credential; another cookie of the same name may be.
    }
  }
  return undefined;
}

/**
 * Extracts the presented credential: `Authorization: Bearer` or `DPoP`, then this hub's cookie
 * (`cookieName`, then the legacy name), then `?token=`. Another hub's cookie is not a credential here.
 */
export function extractCredential(
  req: CredentialSource,
  cookieName: string = LEGACY_AUTH_COOKIE,
): { kind: CredentialKind; value: string; cookie?: string } | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^(Bearer|DPoP)\s+(\S+)\s*$/i.exec(auth);
    if (m?.[1] && m[2]) return { kind: m[1].toLowerCase() === 'dpop' ? 'dpop' : 'bearer', value: m[2] };
  }
  const cookie = req.headers.cookie;
  if (typeof cookie === 'string') {
    for (const name of [cookieName, LEGACY_AUTH_COOKIE]) {
      const value = cookieValue(cookie, name);
      if (value) return { kind: 'cookie', value, cookie: name };
    }
  }
  const q = req.url.indexOf('?');
  if (q !== -1) {
    const token = new URLSearchParams(req.url.slice(q + 1)).get('token');
    if (token) return { kind: 'query', value: token };
  }
  return undefined;
}
