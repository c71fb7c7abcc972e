/**
 * The phone, end to end: a real daemon on the simulator, Debian's Chromium at 360×780.
 * pair → session → prompt → stream → permission → question → plan → stop → lose the
 * connection and recover without losing a message → another device answers first.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { openDevice, type Device } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { pair, sendPrompt, shoot, signOut, waitIdle } from './support/flow.js';

let laptop: Device | undefined;
let sessionId = '';
/** Console errors are expected only while the network is deliberately down. */
const offlineWindows: Array<[number, number]> = [];

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] } });
afterAll(async () => {
  await laptop?.close();
});

describe('phone web app', () => {
  it('[WEB-01] shows the pairing screen to a new device (initial load under 300 KB gzipped) and pairs with a one-time code', async () => {
    const { page } = phone;
    const loaded: Array<{ url: string; gz: number }> = [];
    const onResponse = async (r: import('playwright-core').Response) => {
      if (r.request().method() === 'GET' && r.ok()) loaded.push({ url: r.url(), gz: gzipSync(await r.body()).length });
    };
    page.on('response', onResponse);
    await page.goto(hub.url);
    await page.getByRole('heading', { name: 'Pair this device' }).waitFor();
    await page.waitForLoadState('networkidle');
    page.off('response', onResponse);
    const total = loaded.reduce((n, r) => n + r.gz, 0);
    expect(loaded.some((r) => r.url.includes('/assets/') && r.url.endsWith('.js'))).toBe(true);
    expect(total).toBeLessThan(300 * 1024);
    await shoot(page, 'pair');
    await pair(phone, hub, 'Test phone', 'admin');
    // The token is an HttpOnly cookie: present for the hub, invisible to script.
    const cookies = await phone.context.cookies(hub.url);
    expect(cookies.find((c) => /^zcode_hub_token_[0-9a-f]{32}$/.test(c.name))?.httpOnly).toBe(true);
    expect(await page.evaluate(() => document.cookie)).not.toContain('zcode_hub_token');
  });

  it('[WEB-02] creates a session in a workspace and streams a Markdown answer with reasoning and a tool card', async () => {
    const { page } = phone;
    await page.getByTestId('new-session').click();
    // No session exists yet: the hub's default workspace (initialize `_meta.zcode`) is offered.
    expect(await page.getByLabel('Workspace').inputValue()).toBe(hub.workspace);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('prompt-input').waitFor();
    sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    expect(sessionId).not.toBe('');
    await sendPrompt(page, 'Explain this project in a few words');
    await page.getByTestId('user-message').filter({ hasText: 'Explain this project' }).waitFor();
    await page.getByTestId('agent-message').first().waitFor();
    await waitIdle(page);
    await expect.poll(() => page.getByTestId('tool-card').count()).toBeGreaterThan(0);
    await page.getByTestId('thought').first().waitFor();
    expect(await page.locator('.msg-agent .md').first().innerHTML()).toMatch(/<(p|h\d|ul|ol|pre)/);
    await shoot(page, 'chat');
  });

  it('[WEB-03] approves a permission from the bottom sheet', async () => {
    const { page } = phone;
    await sendPrompt(page, 'run the tests, permission needed');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.waitFor();
    await shoot(page, 'permission');
    await sheet.getByTestId('option-allow_once').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
    const card = page
      .getByTestId('tool-card')
      .filter({ hasText: /npm test|Bash/ })
      .last();
    await expect.poll(() => card.getAttribute('data-status')).toBe('completed');
  });

  it('[WEB-03] answers a question card by card: one single-select, then one multi-select', async () => {
    const { page } = phone;
    await sendPrompt(page, 'I have a question for you');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.waitFor();
    const first = sheet.getByTestId('question-card').and(page.locator('[data-question="0"]'));
    await first.getByTestId('form-choice').locator('input[type=radio]').first().check();
    await first.getByTestId('question-next').click();
    const multi = sheet.getByTestId('question-card').and(page.locator('[data-question="1"]')).locator('input[type=checkbox]');
    await multi.nth(0).check();
    await multi.nth(1).check();
    await shoot(page, 'question');
    await sheet.getByTestId('submit').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
  });

  it('[WEB-03] approves a plan', async () => {
    const { page } = phone;
    await sendPrompt(page, 'make a plan first');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.waitFor();
    await shoot(page, 'plan');
    await sheet.getByTestId('plan-approve').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
    await page.getByTestId('plan').waitFor();
  });

  it('[WEB-04] shows the queue while busy and stops the running turn', async () => {
    const { page } = phone;
    await sendPrompt(page, 'slow answer please');
    await page.getByTestId('stop-button').waitFor();
    await sendPrompt(page, 'and this one after it');
    await page.getByTestId('queue').filter({ hasText: 'and this one after it' }).waitFor();
    await page.getByTestId('stop-button').click();
    await page.getByTestId('notice').filter({ hasText: 'Stopped' }).last().waitFor();
    await waitIdle(page);
    await page.getByTestId('queue').waitFor({ state: 'detached' });
    // Stop also returned the prompt queued behind the turn: it never ran, and its text is back in
    // the box to send again or not — one "Stopped", for the turn that ran.
    await expect.poll(() => page.getByTestId('prompt-input').inputValue()).toBe('and this one after it');
    expect(await page.getByTestId('notice').filter({ hasText: 'Stopped' }).count()).toBe(1);
    expect(await page.getByTestId('user-message').filter({ hasText: 'and this one after it' }).count()).toBe(0);
    await page.getByTestId('prompt-input').fill('');
  });

  it('[WEB-05] attaches a photo (downscaled on a canvas) and switches the mode', async () => {
    const { page } = phone;
    // A 3000×2000 PNG drawn in the page: the prompt must carry it at most 1600 px wide.
    const png = await page.evaluate(async () => {
      const c = document.createElement('canvas');
      c.width = 3000;
      c.height = 2000;
      const g = c.getContext('2d');
      if (!g) throw new Error('no canvas');
      g.fillStyle = '#3b5bdb';
      g.fillRect(0, 0, 3000, 2000);
      return c.toDataURL('image/png').split(',')[1] ?? '';
    });
    await page
      .locator('input[type=file][multiple]')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    await page.locator('.thumb img').waitFor();
    await sendPrompt(page, 'what is in this picture');
    const img = page.getByTestId('user-message').last().locator('img');
    await img.waitFor();
    expect(await img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : -1))).toBe(1600);
    await waitIdle(page);
    const mode = page.getByTestId('picker-mode');
    const values = await mode.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const other = values.find((v) => v !== 'build' && v !== '');
    if (!other) throw new Error(`no other mode in ${values.join(',')}`);
    await mode.selectOption(other);
    await expect.poll(() => mode.inputValue()).toBe(other);
    await mode.selectOption('build');
    await expect.poll(() => mode.inputValue()).toBe('build');
  });

  it('[WS-05] [WEB-06] loses the connection mid-turn and recovers without losing a message', async () => {
    const { page, context } = phone;
    await sendPrompt(page, 'slow stream while I walk into a tunnel');
    const last = page.getByTestId('agent-message').last();
    await page.getByTestId('stop-button').waitFor();
    await expect.poll(async () => (await last.textContent())?.length ?? 0).toBeGreaterThan(0);
    const start = Date.now();
    await context.setOffline(true);
    try {
      // The network is gone: the connection dies without a close handshake (as when a phone
      // changes networks). Not a close frame: Chromium's offline emulation may hold that frame
      // back, and the page then stays "online" for as long as the emulation lasts.
      for (const conn of [...hub.daemon.app.gateway.connections()]) if (conn.identity.name === 'Test phone') conn.terminate();
      await page.getByTestId('conn-indicator').and(page.locator('[data-status=offline],[data-status=connecting]')).waitFor();
      await page.waitForTimeout(1_500);
    } finally {
      // Even when the wait failed: the file's later tests need the network.
      await context.setOffline(false);
    }
    await page.getByTestId('conn-indicator').and(page.locator('[data-status=online]')).waitFor({ timeout: 30_000 });
    offlineWindows.push([start, Date.now()]);
    await waitIdle(page);
    const shown = (await last.textContent()) ?? '';
    // A device that never dropped: load the same session fresh and compare the last answer.
    const fresh = await openDevice();
    try {
      await fresh.context.addCookies(await context.cookies(hub.url));
      await fresh.page.addInitScript(() => localStorage.setItem('zcode-hub.paired', '1'));
      await fresh.page.goto(`${hub.url}/s/${encodeURIComponent(sessionId)}`);
      const freshLast = fresh.page.getByTestId('agent-message').last();
      await expect.poll(async () => (await freshLast.textContent()) ?? '', { timeout: 30_000 }).toBe(shown);
    } finally {
      await fresh.close();
    }
    expect(shown.length).toBeGreaterThan(20);
  });

  it('[WEB-07] closes the sheet when another device answers first, and says who answered', async () => {
    laptop = await openDevice();
    await pair(laptop, hub, 'Laptop browser');
    await laptop.page.goto(`${hub.url}/s/${encodeURIComponent(sessionId)}`);
    await laptop.page.getByTestId('prompt-input').waitFor();
    const { page } = phone;
    await sendPrompt(page, 'another permission please');
    const phoneSheet = page.getByTestId('interaction-sheet');
    const laptopSheet = laptop.page.getByTestId('interaction-sheet');
    await phoneSheet.waitFor();
    await laptopSheet.waitFor();
    await laptopSheet.getByTestId('option-allow_once').click();
    await phoneSheet.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toContain('Answered by Laptop browser');
    await waitIdle(page);
    // Who prompted what: the laptop shows the phone's prompt as it arrived.
    await laptop.page.getByTestId('user-message').filter({ hasText: 'another permission please' }).waitFor();
  });

  it('[WEB-07] answers from the inbox over REST on a device that has no session open', async () => {
    const tablet = await openDevice();
    try {
      await pair(tablet, hub, 'Tablet');
      await sendPrompt(phone.page, 'permission for the inbox');
      await phone.page.getByTestId('interaction-sheet').waitFor();
      await tablet.page.getByTestId('inbox-count').waitFor();
      await tablet.page.getByTestId('inbox-button').click();
      await tablet.page.getByTestId('inbox-row').first().waitFor();
      await tablet.page.getByTestId('inbox-answer').first().click();
      await tablet.page.getByTestId('interaction-sheet').getByTestId('option-allow_once').click();
      await phone.page.getByTestId('interaction-sheet').waitFor({ state: 'detached' });
      await expect.poll(() => phone.page.getByTestId('toast').allTextContents()).toContain('Answered by Tablet');
      await waitIdle(phone.page);
      await tablet.page.getByTestId('inbox-row').waitFor({ state: 'detached' });
      expect(tablet.errors).toEqual([]);
    } finally {
      await tablet.close();
    }
  });

  it('[WEB-11] signs a device out: its token is revoked, the cookie cleared, and it is back at pairing', async () => {
    const spare = await openDevice();
    try {
      await pair(spare, hub, 'Spare phone');
      await signOut(spare, hub);
      expect((await spare.context.cookies(hub.url)).find((c) => c.name.startsWith('zcode_hub_token'))).toBeUndefined();
      const tokens = (await (await hub.api('/api/tokens')).json()) as { tokens: Array<{ name: string; state: string }> };
      expect(tokens.tokens.find((t) => t.name === 'Spare phone')?.state).toBe('revoked');
    } finally {
      await spare.close();
    }
  });

  it('[WEB-08] lists sessions with live badges, the inbox and settings', async () => {
    const { page } = phone;
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('session-row').first().waitFor();
    await shoot(page, 'sessions');
    await page.getByTestId('inbox-button').click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await shoot(page, 'inbox');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await shoot(page, 'settings');
    await page.getByTestId('language').selectOption('zh-CN');
    await page.getByRole('heading', { name: '设置' }).waitFor();
    await shoot(page, 'settings-zh');
    // The list in Chinese too: badges, preview, age and the search box.
    await page.getByRole('button', { name: '返回' }).click();
    await page.getByTestId('session-row').first().waitFor();
    await shoot(page, 'sessions-zh');
    await page.goto(`${hub.url}/settings`);
    await page.getByTestId('language').selectOption('en');
  });

  it('[WEB-09] installs as a PWA and opens offline from the service worker shell', async () => {
    const { page, context } = phone;
    const manifest = (await (await fetch(`${hub.url}/manifest.webmanifest`)).json()) as {
      display: string;
      icons: Array<{ sizes: string }>;
    };
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Online reload under the worker's control fills its cache; then the network goes away.
    await page.goto(hub.url);
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    const start = Date.now();
    await context.setOffline(true);
    try {
      await page.goto(`${hub.url}/inbox`);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      await page.getByTestId('conn-indicator').and(page.locator('[data-status=offline],[data-status=connecting]')).waitFor();
    } finally {
      await context.setOffline(false);
    }
    await page.getByTestId('conn-indicator').and(page.locator('[data-status=online]')).waitFor({ timeout: 30_000 });
    offlineWindows.push([start, Date.now()]);
  });

  it('[WEB-10] logs no console errors outside the deliberate offline window', () => {
    const outside = (d: Device | undefined) =>
      (d?.errors ?? []).filter((e) => !offlineWindows.some(([a, b]) => e.at >= a && e.at <= b + 2_000));
    expect(outside(phone)).toEqual([]);
    expect(outside(laptop)).toEqual([]);
  });
});
