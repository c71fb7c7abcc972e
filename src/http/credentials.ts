/** Name of the HttpOnly cookie the built-in web app carries its device token in. */
export const AUTH_COOKIE = 'zcode_hub_token';

interface CredentialSource {
  headers: Record<string, string | string[] | undefined>;
  url: string;
}

/** Where a credential came from; `dpop` is `Authorization: DPoP` (a key-bound token, issue 18); `query` (`?token=`) is compat only and never logged. */
export type CredentialKind = 'bearer' | 'dpop' | 'cookie' | 'query';

/** Extracts the presented credential: `Authorization: Bearer` or `DPoP`, then the hub cookie, then `?token=`. */
export function extractCredential(req: CredentialSource): { kind: CredentialKind; value: string } | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^(Bearer|DPoP)\s+(\S+)\s*$/i.exec(auth);
    if (m?.[1] && m[2]) return { kind: m[1].toLowerCase() === 'dpop' ? 'dpop' : 'bearer', value: m[2] };
  }
  const cookie = req.headers.cookie;
  if (typeof cookie === 'string') {
    for (const part of cookie.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === AUTH_COOKIE) {
        // A malformed escape (`%E0%A4%A`) is no credential, not a 500 with a stack (issue 11 item 6).
        let value: string;
        try {
          value = decodeURIComponent(part.slice(eq + 1).trim());
        } catch {
          continue;
        }
        if (value) return { kind: 'cookie', value };
      }
    }
  }
  const q = req.url.indexOf('?');
  if (q !== -1) {
    const token = new URLSearchParams(req.url.slice(q + 1)).get('token');
    if (token) return { kind: 'query', value: token };
  }
  return undefined;
}
