/**
 * A prompt waiting for the link when the device's token is revoked, at 390×844: the daemon is
 * stopped, the phone sends (the prompt waits) and types a draft, the token is revoked on the state
 * dir, and the daemon starts again. The page becomes the pairing screen, which says a message was
 * not sent and will be back, and offers the name the device had; paired again, the session's
 * composer holds both texts — and nothing was sent by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTokenCli } from '../../src/cli/token.js';
import { collector } from '../helpers/cli-io.js';
import { openDevice, PHONE_390, type Device } from './support/browser.js';
import { newSession, pair, pairingUrl, sendPrompt, shoot } from './support/flow.js';
import { startMachine, type Machine } from './support/machines.js';

let m: Machine;
let phone: Device;
/** The text of every `session/prompt` the page sent, across every socket. */
const promptsSent: string[] = [];

beforeAll(async () => {
  m = await startMachine('laptop', '127.0.0.1');
  phone = await openDevice({ viewport: PHONE_390 });
  phone.page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const msg = JSON.parse(String(f.payload)) as { method?: string; params?: { prompt?: Array<{ text?: string }> } };
      if (msg.method === 'session/prompt') promptsSent.push(msg.params?.prompt?.map((b) => b.text ?? '').join('') ?? '');
    }),
  );
  await pair(phone, m.hub, 'Ann pocket phone');
  await newSession(phone.page);
});
afterAll(async () => {
  await phone?.close();
  await m?.close();
});

describe('a prompt waiting when the device is revoked', () => {
  it('is kept on the device, said so at the pairing screen, and back in its composer after pairing again, unsent', async () => {
    const { page } = phone;
    const sessionUrl = page.url();
    const tokens = (await (await m.hub.api('/api/tokens')).json()) as { tokens: Array<{ id: string; name: string; state: string }> };
    const id = tokens.tokens.find((t) => t.name === 'Ann pocket phone' && t.state === 'active')?.id ?? '';
    expect(id).not.toBe('');
    await m.stop();
    await expect.poll(() => page.getByTestId('conn-indicator').getAttribute('data-status'), { timeout: 30_000 }).not.toBe('online');
    const waitingText = 'Sent while the hub was down';
    await sendPrompt(page, waitingText);
    await page.locator('[data-testid="user-message"][data-waiting="link"]').filter({ hasText: waitingText }).waitFor();
    const draft = 'and a draft not sent yet';
    await page.getByTestId('prompt-input').fill(draft);
    // An admin revokes the device while the hub is down (the CLI works on the state dir then).
    expect(await runTokenCli(['--state-dir', m.hub.stateDir, 'revoke', id], collector())).toBe(0);
    await m.start();

    await page.getByLabel('Pairing code').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('drafts-kept').innerText()).toMatch(/not sent.*back in its session’s message box after you pair again/);
    // The name the device had, not the browser's.
    expect(await page.getByLabel('Device name').inputValue()).toBe('Ann pocket phone');
    await shoot(page, 'revoked-while-waiting-pair');

    const url = await pairingUrl(m.hub);
    await page.getByLabel('Pairing code').fill(decodeURIComponent(url.split('#pair=')[1] ?? ''));
    await page.getByRole('button', { name: 'Pair' }).click();
    // Back where it was: the session's chat, its composer holding what was kept.
    await page.getByLabel('Pairing code').waitFor({ state: 'detached' });
    expect(page.url()).toBe(sessionUrl);
    await expect.poll(() => page.getByTestId('prompt-input').inputValue(), { timeout: 30_000 }).toBe(`${waitingText}\n${draft}`);
    await shoot(page, 'revoked-while-waiting-back');
    // Given back, never sent by itself; and given once (a reload does not bring it again).
    expect(promptsSent).not.toContain(waitingText);
    await page.reload();
    await page.getByTestId('prompt-input').waitFor();
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('');
    expect(await page.getByTestId('user-message').filter({ hasText: waitingText }).count()).toBe(0);
  });
});
