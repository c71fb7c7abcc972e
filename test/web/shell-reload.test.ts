/**
 * The page and the service worker name the same cache for the app's shell: a page that reloads
 * for the hub's current shell (a machine just recorded, its CSP widened) drops it there first
 * (web/src/net/shell-reload.ts), and the worker answers an open from it (web/public/sw.js). A
 * renamed cache on one side only would bring back the shell the reload was for leaving.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHELL_CACHE } from '../../web/src/net/shell-reload.js';

describe('the shell cache the page drops', () => {
  it('is the one the service worker answers opens from', () => {
    const sw = fs.readFileSync(path.resolve(import.meta.dirname, '../../web/public/sw.js'), 'utf8');
    expect(sw).toContain(`const CACHE = '${SHELL_CACHE}';`);
  });
});
