import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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
}

/** One "device": its own Chromium profile (fresh user-data-dir), page and console log. */
export interface Device {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions, with the time they happened. */
  errors: Array<{ at: number; text: string }>;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh profile in a phone-sized viewport. */
export async function openDevice(opts: DeviceOptions = {}): Promise<Device> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-e2e-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    // The flag too: the context option alone still refuses the service worker's script.
    args: opts.ignoreHttpsErrors ? [...ARGS, '--ignore-certificate-errors'] : ARGS,
    viewport: opts.viewport ?? PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: opts.locale ?? 'en-US',
    colorScheme: opts.colorScheme ?? 'light',
    reducedMotion: 'reduce',
    ...(opts.ignoreHttpsErrors ? { ignoreHTTPSErrors: true } : {}),
  });
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
      await context.close().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
