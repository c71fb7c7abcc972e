import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { HubHarness } from '../../helpers/hub-harness.js';
import type { Device } from './browser.js';

/**
 * Where the suites write their screenshots: the committed ones the README links when
 * UPDATE_SCREENSHOTS=1 (`npm run screenshots`), else a scratch folder, so an ordinary test run
 * leaves the checkout clean (tool titles carry temp paths, so every run's pictures differ).
 */
export const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? path.resolve(import.meta.dirname, '../../../docs/screenshots')
    : path.join(os.tmpdir(), 'zcode-hub-screenshots');

/** A one-time pairing code URL (`…/#pair=<code>`) minted by the admin over REST. */
export async function pairingUrl(hub: HubHarness, scope: 'operate' | 'admin' | 'view' = 'operate', person?: string): Promise<string> {
  const res = await hub.api('/api/pair/codes', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(person === undefined ? { scope } : { scope, person }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { url: string };
  return body.url;
}

/** Replaces the hub's approval rules (`PUT /api/policy` as the admin), failing the test when refused. */
export async function putRules(hub: HubHarness, rules: unknown[]): Promise<void> {
  const res = await hub.api('/api/policy', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules }),
  });
  expect(res.status).toBe(200);
}

/** Opens the pairing link on a device, names the device and waits for the session list; `person` = whose device it is. */
export async function pair(
  device: Device,
  hub: HubHarness,
  name: string,
  scope: 'operate' | 'admin' | 'view' = 'operate',
  person?: string,
): Promise<void> {
  const { page } = device;
  const url = await pairingUrl(hub, scope, person);
  const code = decodeURIComponent(url.split('#pair=')[1] ?? '');
  // Type the code (as someone reading it off the terminal would) to name the device too.
  await page.goto(hub.url);
  await page.getByLabel('Pairing code').fill(code);
  await page.getByLabel('Device name').fill(name);
  await page.getByRole('button', { name: 'Pair' }).click();
  await page.getByRole('heading', { name: 'Sessions' }).waitFor();
}

/**
 * Signs the device out from Settings as its user does (confirming the dialog) and returns once the
 * app has reloaded onto the pairing screen. The pairing screen shows before that reload too (the
 * hub drops the token first), so waiting for it alone can return mid-reload.
 */
export async function signOut(device: Device, hub: HubHarness): Promise<void> {
  const { page } = device;
  await page.goto(`${hub.url}/settings`);
  page.once('dialog', (d) => void d.accept());
  const reloaded = page.waitForEvent('load');
  await page.getByTestId('sign-out').click();
  await reloaded;
  await page.getByLabel('Pairing code').waitFor();
}

/** From the session list: a new session in the offered workspace, waiting for its chat. */
export async function newSession(page: Page): Promise<void> {
  await page.getByTestId('new-session').click();
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByTestId('prompt-input').waitFor();
}

/**
 * From the open chat: asks for the simulator's `background watch` task (a coloured line every
 * 250 ms × `--turn-delay-scale`, 240 lines) and allows its command once; returns once the sheet
 * has gone (the task runs, the turn that launched it may still be ending).
 */
export async function startWatchTask(page: Page): Promise<void> {
  await sendPrompt(page, 'run the background watch of the tests');
  const sheet = page.getByTestId('interaction-sheet');
  await sheet.getByTestId('option-allow_once').click();
  await sheet.waitFor({ state: 'detached' });
}

/** Sends a prompt from the open chat. */
/** Records the text of every `session/prompt` the page sends, in order, across every socket it opens, into `into`. */
export function recordPromptsSent(page: Page, into: string[]): void {
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const msg = JSON.parse(String(f.payload)) as { method?: string; params?: { prompt?: Array<{ text?: string }> } };
      if (msg.method === 'session/prompt') into.push(msg.params?.prompt?.map((b) => b.text ?? '').join('') ?? '');
    }),
  );
}

export async function sendPrompt(page: Page, text: string): Promise<void> {
  await page.getByTestId('prompt-input').fill(text);
  await page.getByTestId('send-button').click();
}

/** Waits until the open session's turn is over (no stop button). */
export async function waitIdle(page: Page): Promise<void> {
  await page.getByTestId('stop-button').waitFor({ state: 'detached', timeout: 60_000 });
}

/** Screenshot in light and dark (the system scheme is emulated; the app follows it). */
export async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
