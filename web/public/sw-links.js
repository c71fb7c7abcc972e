/*
 * Where a push notification may take the phone (docs/SECURITY.md "Push deep links"): only a deep
 * link of the app on the worker's own origin, in the forms a hub sends (src/push/push-text.ts):
 * `/s/<sessionId>` or `/m/<hubId>/s/<sessionId>`, optionally `?answer=<interactionId>`.
 * Anything else — `/\evil.example`, `//evil.example`, an encoded slash or backslash, another
 * scheme, another origin — is dropped, and the notification opens its session instead.
 * Loaded by sw.js with importScripts, and by test/web/sw-links.test.ts: the same code.
 */

/**
 * One path segment as encodeURIComponent writes it, without an encoded slash or backslash
 * (`%2F`, `%5C`), and not `.` or `..`.
 */
const LINK_SEGMENT = "(?!\\.\\.?(?:[/?]|$))(?:[A-Za-z0-9_.!~*'()-]|%(?!2[Ff]|5[Cc])[0-9A-Fa-f]{2})+";
const LINK_PATH = new RegExp(`^(?:/m/${LINK_SEGMENT})?/s/${LINK_SEGMENT}$`);
const LINK_QUERY = new RegExp(`^(?:\\?answer=${LINK_SEGMENT})?$`);
/** Longest link a notification may carry. */
const LINK_MAX = 2048;

/** Control characters, spaces and backslashes never belong in a link (URL parsing strips or rewrites them). */
function hasStrayCharacter(text) {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f || c === 0x5c) return true;
  }
  return false;
}

/**
 * The app path (`pathname` + `search`) `raw` opens on `origin`, or `undefined` when it is not one
 * of the app's deep links. Checked before and after parsing: a browser reads `\` as `/`.
 */
function appLink(raw, origin) {
  if (typeof raw !== 'string' || raw.length > LINK_MAX) return undefined;
  if (!raw.startsWith('/') || hasStrayCharacter(raw)) return undefined;
  let url;
  try {
    url = new URL(raw, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(origin).origin || url.hash) return undefined;
  if (!LINK_PATH.test(url.pathname) || !LINK_QUERY.test(url.search)) return undefined;
  const path = url.pathname + url.search;
  return path === raw ? path : undefined;
}

// A classic script's functions are globals already; said once so the worker's use is explicit.
globalThis.appLink = appLink;
