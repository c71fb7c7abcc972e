import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/**
 * How long a device's context may take to go away (`Device.close`). Chromium can leave a context's
 * disposal unanswered for good: seen when its page was in the middle of a reload its service
 * worker served (a sign-out reloads the app), in three of four loops of that flow within six
 * sign-outs. Past this bound the context is left to the file's Chromium, which is closed (killed
 * if need be) after the file's tests.
 */
const CONTEXT_CLOSE_MS = 30_000;

/** Debian's Chromium; never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The phone viewport of the suites: an iPhone 12–15 class phone, as the screenshots show it. */
export const PHONE = { width: 390, height: 844 };
/** The same phone, by the name older suites use. */
export const PHONE_390 = PHONE;
/** A small phone, for a test that is specifically about a narrow screen. */
export const SMALL_PHONE = { width: 360, height: 780 };

/** How a device's browser is set up (default: PHONE, light, en-US). */
export interface DeviceOptions {
  colorScheme?: 'light' | 'dark';
  locale?: string;
  viewport?: { width: number; height: number };
  /** Accept the hub's self-signed test certificate (a hub started with `--tls-cert`). */
  ignoreHttpsErrors?: boolean;
  /**
   * A Chromium of its own with an on-disk profile, for what an incognito-like context does not
   * have: Chromium refuses a push subscription there.
   */
  ownProfile?: boolean;
  /**
   * Keep Chromium's back/forward cache on (implies `ownProfile`): playwright turns it off by
   * default (`--disable-back-forward-cache`), and a suite about it needs it on.
   */
  backForwardCache?: boolean;
}

/** One "device": its own browser context (cookies, storage, service workers), page and console log. */
export interface Device {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions, with the time they happened. */
  errors: Array<{ at: number; text: string }>;
  close(): Promise<void>;
}

/**
 * One Chromium per test file (and per set of flags), started on first use: a browser context is
 * as separate as a fresh profile for what the suites test (cookies, storage, service workers) and
 * costs milliseconds, where a Chromium process costs a second or more of a busy machine's CPU.
 * A worker runs its files one after another (vitest.e2e.config.ts: not isolated), and
 * `closeBrowsers` (test/e2e/support/teardown.ts) ends them after each file, so files never share one.
 */
const browsers = new Map<string, Promise<Browser>>();

function sharedBrowser(args: string[]): Promise<Browser> {
  const key = args.join(' ');
  let b = browsers.get(key);
  if (!b) {
    b = chromium.launch({ executablePath: CHROMIUM, headless: true, args });
    // A launch that failed is not kept: the next device tries again (and reports its own error).
    b.catch(() => browsers.delete(key));
    browsers.set(key, b);
  }
  return b;
}

/** Closes the file's shared Chromium processes. */
export async function closeBrowsers(): Promise<void> {
  const all = [...browsers.values()];
  browsers.clear();
  await Promise.all(all.map(async (b) => (await b.catch(() => undefined))?.close()));
}

/** Opens a device: a phone-sized context in the file's Chromium (or, `ownProfile`, a Chromium with a fresh profile). */
export async function openDevice(opts: DeviceOptions = {}): Promise<Device> {
  // The flag too: the context option alone still refuses the service worker's script.
  const args = opts.ignoreHttpsErrors ? [...ARGS, '--ignore-certificate-errors'] : ARGS;
  const options: BrowserContextOptions = {
    viewport: opts.viewport ?? PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: opts.locale ?? 'en-US',
    colorScheme: opts.colorScheme ?? 'light',
    reducedMotion: 'reduce',
    ...(opts.ignoreHttpsErrors ? { ignoreHTTPSErrors: true } : {}),
  };
  let dir: string | undefined;
  let context: BrowserContext;
  if (opts.ownProfile || opts.backForwardCache) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-e2e-profile-'));
    context = await chromium.launchPersistentContext(dir, {
      executablePath: CHROMIUM,
      headless: true,
      args,
      ...(opts.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
      ...options,
    });
  } else context = await (await sharedBrowser(args)).newContext(options);
  context.setDefaultTimeout(20_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: Device['errors'] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push({ at: Date.now(), text: m.text() });
  });
  page.on('pageerror', (e) => errors.push({ at: Date.now(), text: `pageerror: ${e.message}` }));
  return {
    context,
    page,
    errors,
    async close() {
      // Off the app first: a page mid-navigation is what Chromium's disposal was seen hanging on.
      for (const p of context.pages()) await p.goto('about:blank', { timeout: 10_000 }).catch(() => undefined);
      const closed = await Promise.race([
        context.close().then(
          () => true,
          () => true,
        ),
        sleep(CONTEXT_CLOSE_MS, false, { ref: false }),
      ]);
      if (!closed) process.stderr.write(`a browser context was not closed in ${CONTEXT_CLOSE_MS} ms; left to its Chromium\n`);
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
