/**
 * What the prompt box holds is the session's draft for the tab, at 390×844 over the real
 * simulator: it is back after going to the session list and opening the chat again, after a
 * reload (as when a phone browser discards a background tab and reloads it), in the session it was
 * typed in only; sent, it is gone for good.
 */
import { describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.3'] } });

describe('the prompt box keeps its draft', () => {
  it('across the session list, a reload and another session; not once sent', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Draft phone');
    await newSession(page);
    const first = page.url();
    const input = page.getByTestId('prompt-input');
    await input.fill('half a thought about the tests');

    // Back to the list, then the chat again.
    await page.goBack();
    await page.getByTestId('session-row').first().waitFor();
    await page.goto(first);
    await expect.poll(() => input.inputValue()).toBe('half a thought about the tests');

    // A reload: given back once the hub has said who this device is.
    await page.reload();
    await expect.poll(() => input.inputValue()).toBe('half a thought about the tests');

    // Another session's box holds its own (nothing yet).
    await page.goto(hub.url);
    await newSession(page);
    expect(page.url()).not.toBe(first);
    expect(await input.inputValue()).toBe('');

    // Sent, the draft is gone: the box is empty after a reload.
    await page.goto(first);
    await expect.poll(() => input.inputValue()).toBe('half a thought about the tests');
    await page.getByTestId('send-button').click();
    await waitIdle(page);
    await page.reload();
    await page.getByTestId('user-message').filter({ hasText: 'half a thought about the tests' }).waitFor();
    expect(await input.inputValue()).toBe('');
    // The sent prompt ran once.
    expect(await page.getByTestId('user-message').filter({ hasText: 'half a thought about the tests' }).count()).toBe(1);
    expect(phone.errors).toEqual([]);
  });
});
