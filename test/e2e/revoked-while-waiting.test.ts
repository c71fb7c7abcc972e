/**
 * A prompt waiting for the link when the device's token is revoked, at 390×844: the daemon is
 * stopped, the phone sends (the prompt waits) and types a draft, the token is revoked on the state
 * dir, and the daemon starts again. The page becomes the pairing screen, which says a message was
 * not sent and will be back, and offers the name the device had; paired again as the same person,
 * the session's composer holds both texts with a line saying they were not sent (and no toast says
 * it again) — and nothing was sent by itself. Then the device is revoked with a draft in the box and
 * someone else pairs the same browser: they are shown none of it, and the device keeps none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTokenCli } from '../../src/cli/token.js';
import { collector } from '../helpers/cli-io.js';
import { openDevice, PHONE_390, type Device } from './support/browser.js';
import { newSession, pair, pairingUrl, recordPromptsSent, sendPrompt, shoot } from './support/flow.js';
import { startMachine, type Machine } from './support/machines.js';

let m: Machine;
let phone: Device;
/** The text of every `session/prompt` the page sent, across every socket. */
const promptsSent: string[] = [];

beforeAll(async () => {
  m = await startMachine('laptop', '127.0.0.1');
  phone = await openDevice({ viewport: PHONE_390 });
  recordPromptsSent(phone.page, promptsSent);
  await pair(phone, m.hub, 'Ann pocket phone', 'operate', 'ann');
  await newSession(phone.page);
});
/** The id of the active token named `name`. */
async function activeToken(name: string): Promise<string> {
  const tokens = (await (await m.hub.api('/api/tokens')).json()) as { tokens: Array<{ id: string; name: string; state: string }> };
  const id = tokens.tokens.find((t) => t.name === name && t.state === 'active')?.id ?? '';
  expect(id).not.toBe('');
  return id;
}

afterAll(async () => {
  await phone?.close();
  await m?.close();
});

describe('a prompt waiting when the device is revoked', () => {
  it('is kept on the device, said so at the pairing screen, and back in its composer after pairing again, unsent', async () => {
    const { page } = phone;
    const sessionUrl = page.url();
    const id = await activeToken('Ann pocket phone');
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
    expect(await page.getByTestId('drafts-kept').innerText()).toMatch(
      /not sent.*back in its session’s message box when you pair again as the same person/,
    );
    // The name the device had, not the browser's.
    expect(await page.getByLabel('Device name').inputValue()).toBe('Ann pocket phone');
    await shoot(page, 'revoked-while-waiting-pair');

    const url = await pairingUrl(m.hub, 'operate', 'ann');
    await page.getByLabel('Pairing code').fill(decodeURIComponent(url.split('#pair=')[1] ?? ''));
    await page.getByRole('button', { name: 'Pair' }).click();
    // Back where it was: the session's chat, its composer holding what was kept.
    await page.getByLabel('Pairing code').waitFor({ state: 'detached' });
    expect(page.url()).toBe(sessionUrl);
    await expect.poll(() => page.getByTestId('prompt-input').inputValue(), { timeout: 30_000 }).toBe(`${waitingText}\n${draft}`);
    // Said once, by the box: the pairing screen said it would be back, so no toast says it was lost.
    expect(await page.getByTestId('draft-given-back').innerText()).toBe('Kept from before you paired again — not sent yet.');
    expect(await page.getByTestId('toast').filter({ hasText: 'not sent' }).count()).toBe(0);
    await shoot(page, 'revoked-while-waiting-back');
    // Given back, never sent by itself; and given once: after a reload the box holds it as its
    // draft (composer-drafts.ts), once — not the kept text a second time, nor the line saying so.
    expect(promptsSent).not.toContain(waitingText);
    await page.reload();
    await expect.poll(() => page.getByTestId('prompt-input').inputValue(), { timeout: 30_000 }).toBe(`${waitingText}\n${draft}`);
    expect(await page.getByTestId('draft-given-back').count()).toBe(0);
    expect(await page.getByTestId('user-message').filter({ hasText: waitingText }).count()).toBe(0);
    expect(promptsSent).not.toContain(waitingText);
  });

  it('is not given to someone else who pairs the same browser, and is not kept for them', async () => {
    const { page } = phone;
    const sessionUrl = page.url();
    const draft = 'ann’s private draft';
    await page.getByTestId('prompt-input').fill(draft);
    // An admin revokes Ann's device while the hub runs: the socket is closed on it at once.
    const res = await m.hub.api(`/api/tokens/${await activeToken('Ann pocket phone')}`, { method: 'DELETE' });
    expect(res.ok).toBe(true);
    await page.getByLabel('Pairing code').waitFor({ timeout: 60_000 });
    await page.getByTestId('drafts-kept').waitFor();

    // Bob pairs the shared browser.
    const url = await pairingUrl(m.hub, 'operate', 'bob');
    await page.getByLabel('Pairing code').fill(decodeURIComponent(url.split('#pair=')[1] ?? ''));
    await page.getByLabel('Device name').fill('Shared tablet');
    await page.getByRole('button', { name: 'Pair' }).click();
    await page.getByLabel('Pairing code').waitFor({ state: 'detached' });
    expect(page.url()).toBe(sessionUrl);
    // Once the hub said who this is (the new link online), Ann's text is gone from the device…
    await expect.poll(() => page.getByTestId('conn-indicator').getAttribute('data-status'), { timeout: 30_000 }).toBe('online');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('zcode-hub.kept-drafts')), { timeout: 30_000 }).toBeNull();
    // …and was never shown to Bob.
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('');
    expect(await page.getByTestId('draft-given-back').count()).toBe(0);
    await shoot(page, 'revoked-while-waiting-other-person');
    expect(promptsSent).not.toContain(draft);
  });
});
