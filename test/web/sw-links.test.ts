import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

/**
 * A push's deep link opens only the app's own pages (docs/SECURITY.md "Push endpoints"). The
 * resolver is web/public/sw-links.js, loaded here exactly as the worker loads it (a classic
 * script evaluated in its own global scope). Then web/public/sw.js itself runs in a context that
 * stands in for the ServiceWorkerGlobalScope (Chromium is the real one, test/e2e/machines.test.ts),
 * and receives a push and a notification click carrying a foreign link, as an attacker who can
 * make a hub send one would write it.
 */

const PUBLIC = path.join(import.meta.dirname, '../../web/public');
const ORIGIN = 'https://app.example';
type AppLink = (raw: unknown, origin: string) => string | undefined;

function loadAppLink(): AppLink {
  const context = vm.createContext({ URL });
  vm.runInContext(fs.readFileSync(path.join(PUBLIC, 'sw-links.js'), 'utf8'), context, { filename: 'sw-links.js' });
  return context['appLink'] as AppLink;
}

describe('appLink (web/public/sw-links.js)', () => {
  const appLink = loadAppLink();

  it('keeps the deep links a hub sends', () => {
    for (const link of [
      '/s/3f9c2a',
      '/s/sess_01HZX%3Aa%20b',
      '/m/hub-7/s/3f9c2a',
      '/m/hub-7/s/3f9c2a?answer=perm-1',
      '/s/3f9c2a?answer=q%3A2',
    ])
      expect(appLink(link, ORIGIN), link).toBe(link);
  });

  it('drops everything else: other hosts, encoded slashes and backslashes, other schemes, other pages', () => {
    for (const link of [
      '/\\evil.example/x',
      '/\\/evil.example/s/x',
      '//evil.example/s/x',
      '\\\\evil.example/s/x',
      '/%5Cevil.example/x',
      '/%5cevil.example',
      '%2F%2Fevil.example/s/x',
      '/s/%2F%2Fevil.example',
      '/s/a%5Cb',
      '/m/%2F%2Fevil/s/x',
      '/s/..',
      '/s/./x',
      '/m/../s/x',
      '/s/x/../../evil',
      'javascript:alert(1)',
      'JavaScript:alert(1)//s/x',
      ' /s/x',
      '/s/x\n',
      '/\t/evil.example/s/x',
      'https://evil.example/s/x',
      `${ORIGIN}.evil.example/s/x`,
      'data:text/html,<script>alert(1)</script>',
      '/s/x#/\\evil.example',
      '/s/x?next=//evil.example',
      '/settings',
      '/',
      '',
      `/s/${'a'.repeat(2100)}`,
      42,
      undefined,
      { toString: () => '/s/x' },
    ])
      expect(appLink(link, ORIGIN), String(link)).toBeUndefined();
  });
});

interface Shown {
  title: string;
  options: { data: { url: string } };
}

/** Runs web/public/sw.js with a registration scoped `scope`; returns its event handlers and what it did. */
function startWorker(scope: string) {
  const handlers = new Map<string, (event: unknown) => void>();
  const shown: Shown[] = [];
  const opened: string[] = [];
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    registration: {
      scope: `${ORIGIN}${scope}`,
      showNotification: async (title: string, options: Shown['options']) => void shown.push({ title, options }),
    },
    clients: { matchAll: async () => [], openWindow: async (url: string) => void opened.push(url), claim: async () => undefined },
    addEventListener: (type: string, fn: (event: unknown) => void) => handlers.set(type, fn),
    skipWaiting: async () => undefined,
  };
  const context = vm.createContext({ self, URL, encodeURIComponent });
  Object.assign(context, {
    importScripts: (p: string) => vm.runInContext(fs.readFileSync(path.join(PUBLIC, p), 'utf8'), context, { filename: p }),
  });
  vm.runInContext(fs.readFileSync(path.join(PUBLIC, 'sw.js'), 'utf8'), context, { filename: 'sw.js' });
  const fire = async (type: string, event: object): Promise<void> => {
    const waits: Array<Promise<unknown>> = [];
    handlers.get(type)?.({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  const push = (payload: object) => fire('push', { data: { json: () => payload, text: () => JSON.stringify(payload) } });
  const click = (url: unknown) => fire('notificationclick', { notification: { close: () => undefined, data: { url } } });
  return { shown, opened, push, click };
}

describe('web/public/sw.js with a foreign deep link', () => {
  it('a push linking another site opens its session instead; a valid link still opens its sheet', async () => {
    const w = startWorker('/');
    await w.push({ kind: 'needs_you', sessionId: 's1', title: 'Needs you', url: '/\\evil.example/x' });
    await w.push({ kind: 'needs_you', sessionId: 's1', title: 'Needs you', url: '/%5Cevil.example/x' });
    await w.push({ kind: 'needs_you', sessionId: 's1', title: 'Needs you', url: 'https://evil.example/s/s1' });
    await w.push({ kind: 'needs_you', sessionId: 's1', title: 'Needs you', url: '/s/s1?answer=i1' });
    expect(w.shown.map((s) => s.options.data.url)).toEqual(['/s/s1', '/s/s1', '/s/s1', '/s/s1?answer=i1']);
  });

  it("a machine's registration keeps its prefix; another machine's prefix is not a way out", async () => {
    const w = startWorker('/m/hub-b/');
    await w.push({ kind: 'needs_you', sessionId: 's1', url: '/m/hub-b/s/s1?answer=i1', hub: { hubId: 'hub-b', name: 'desktop' } });
    await w.push({ kind: 'needs_you', sessionId: 's1', url: '/m/hub-b/\\evil.example', hub: { hubId: 'hub-b', name: 'desktop' } });
    expect(w.shown.map((s) => s.options.data.url)).toEqual(['/m/hub-b/s/s1?answer=i1', '/m/hub-b/s/s1']);
  });

  it('a click on a notification with a foreign link (shown by an older worker) opens the app, not the link', async () => {
    const w = startWorker('/');
    for (const url of ['/\\evil.example/x', '//evil.example', 'javascript:alert(1)', 'https://evil.example/']) await w.click(url);
    await w.click('/m/hub-b/s/s1?answer=i1');
    expect(w.opened).toEqual(['/', '/', '/', '/', '/m/hub-b/s/s1?answer=i1']);
  });
});
