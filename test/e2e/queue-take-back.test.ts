/**
 * A prompt queued behind a running turn can be taken back alone, at 390×844 over the real
 * simulator: its chip in the queue has "Don't send" (×) on the device that sent it — not on another
 * device's chip — which withdraws it with ACP's `$/cancel_request`; the text is back in the box, the
 * running turn goes on, and the other device sees the queue without it.
 */
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone, laptop } = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.4'] },
  laptop: true,
  setup: async () => {
    await pair(phone, hub, 'Queue phone');
    await pair(laptop, hub, 'Queue laptop');
  },
});

describe('taking back a queued prompt', () => {
  it('withdraws it alone: back in the box, the turn runs on, every device sees the queue without it', async () => {
    const { page } = phone;
    await newSession(page);
    await laptop.page.goto(page.url());
    await laptop.page.getByTestId('prompt-input').waitFor();
    await sendPrompt(page, 'slow answer please');
    await page.getByTestId('stop-button').waitFor();
    await sendPrompt(page, 'on second thought, no');
    await sendPrompt(laptop.page, 'the laptop asks too');
    const queue = page.getByTestId('queue');
    await queue.filter({ hasText: 'the laptop asks too' }).waitFor({ timeout: 30_000 });
    await queue.filter({ hasText: 'on second thought, no' }).waitFor();
    // Only the phone's own chip can be taken back from the phone.
    expect(await page.getByTestId('queue-take-back').count()).toBe(1);
    await shoot(page, 'queue-take-back');
    expect(await axeBothThemes(page, 'queue with a chip to take back')).toEqual([]);
    await page.getByRole('button', { name: 'Don’t send: on second thought, no' }).click();

    await expect.poll(() => page.getByTestId('prompt-input').inputValue()).toBe('on second thought, no');
    await laptop.page.getByTestId('queue').filter({ hasText: 'on second thought, no' }).waitFor({ state: 'detached' });
    expect(await laptop.page.getByTestId('queue').filter({ hasText: 'the laptop asks too' }).count()).toBe(1);
    // The turn was not stopped, and nothing says it was.
    expect(await page.getByTestId('stop-button').count()).toBe(1);
    expect(await page.getByTestId('notice').count()).toBe(0);
    await waitIdle(page);
    await expect
      .poll(() => page.getByTestId('user-message').filter({ hasText: 'the laptop asks too' }).count(), { timeout: 60_000 })
      .toBe(1);
    await waitIdle(page);
    expect(await page.getByTestId('user-message').filter({ hasText: 'on second thought, no' }).count()).toBe(0);
    expect(phone.errors).toEqual([]);
  });
});
