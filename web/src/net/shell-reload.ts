/**
 * The service worker's cache of the app's shell (web/public/sw.js `CACHE`; test/web/shell-reload.test.ts
 * checks the two agree). An open of the app is answered from it, so a page that must come back
 * with the hub's current shell — its CSP widened for a machine just recorded — drops the cached
 * one before reloading. A reload is answered from the network anyway where the browser marks it
 * as one (its request's cache mode); this does not depend on that.
 */
export const SHELL_CACHE = 'zcode-hub-shell-v1';

/** Reloads the page onto the hub's current shell. */
export async function reloadOntoHubShell(): Promise<void> {
  try {
    if ('caches' in globalThis) await (await caches.open(SHELL_CACHE)).delete('/');
  } catch {
    // No Cache Storage here (an insecure origin has no worker either): a plain reload.
  }
  location.reload();
}
