/**
 * What a wire recording (wire-recorder.ts) must never hold: provider API keys, tokens,
 * authorization headers and cookies — by key, with the logger's own redaction names
 * (src/logger.ts REDACT_PATHS) — and, by value, every secret string of the personal provider
 * file (APP-SERVER.md §9.2: a rule's `access`), wherever such a string shows up inside another
 * string of a message.
 */
import fs from 'node:fs';
import { REDACT_PATHS } from '../logger.js';

/** What a redacted value reads as. */
export const REDACTED = '[redacted]';

/** Secrets shorter than this are not searched for inside other strings (they would match by chance). */
const MIN_SECRET_CHARS = 8;

/**
 * Key names redacted wherever they appear, from the logger's paths (`*.headers.authorization` →
 * `authorization`). `code` is left out: on this wire it is a JSON-RPC or event error code, never
 * a pairing code (those do not reach the child).
 */
const KEY_NAMES = new Set(
  REDACT_PATHS.map((p) =>
    p
      .split('.')
      .pop()!
      .replace(/^\["?|"?\]$/g, '')
      .toLowerCase(),
  ).filter((k) => k !== 'code'),
);

/** Keys whose string values are secrets whatever their exact name (`githubToken`, `clientSecret`, `x-api-key`). */
const SECRET_KEY = /(token|secret|password|api[-_]?key|authorization|cookie|credential|dpop)/i;

/** True when a string under `key` is a secret. */
export function isSecretKey(key: string): boolean {
  return KEY_NAMES.has(key.toLowerCase()) || SECRET_KEY.test(key);
}

/** Every string under an `access` object or a secret key of a JSON value (the provider file's secrets). */
export function secretStrings(value: unknown, inSecret = false, out: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    if (inSecret && value.length >= MIN_SECRET_CHARS) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) secretStrings(v, inSecret, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) secretStrings(v, inSecret || k === 'access' || isSecretKey(k), out);
  }
  return out;
}

/** The provider file's secrets (none when it is missing or not JSON). */
export function providerFileSecrets(file: string): Set<string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return new Set();
  }
  try {
    const doc: unknown = JSON.parse(text);
    return secretStrings(doc);
  } catch {
    // A file that is not JSON holds no rule the child could load, but its text may still hold a key.
    return new Set(text.match(/[A-Za-z0-9_\-.]{20,}/g) ?? []);
  }
}

/** A copy of `value` with secret keys blanked and known secret strings cut out of every string. */
export function redactWire(value: unknown, secrets: ReadonlySet<string>): unknown {
  if (typeof value === 'string') {
    let s = value;
    for (const secret of secrets) if (s.includes(secret)) s = s.split(secret).join(REDACTED);
    return s;
  }
  if (Array.isArray(value)) return value.map((v) => redactWire(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = typeof v === 'string' && isSecretKey(k) ? REDACTED : isSecretKey(k) && isHeaderBag(v) ? REDACTED : redactWire(v, secrets);
    return out;
  }
  return value;
}

/** An object of strings under a secret key (`authorization: {scheme, credentials}`): all of it goes. */
function isHeaderBag(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}
