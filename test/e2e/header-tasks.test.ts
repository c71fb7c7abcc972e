/**
 * The chat header counts the session's running background tasks as the hub does, not only the
 * cards of the loaded page of history: a quiet task (the simulator's `background server`: one
 * line, then silent) launched turns ago, whose card the replay no longer reaches, still shows
 * "Task running" and the terminal count after a reload, and its panel says why no card is shown.
 * The hub replays at most `replayMaxMessages` messages here, so two later turns push the card out.
 * Real daemon and simulator child, Chromium at 390×844.
 */
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { limits: { replayMaxMessages: 4 } } });

describe('the chat header while a task older than the loaded history runs', () => {
  it('shows the hub’s running-task count after a reload, with no card of the task loaded', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Phone');
    await page.getByTestId('new-session').click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('prompt-input').waitFor();
    await sendPrompt(page, 'start the background server');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('option-allow_once').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
    await expect.poll(() => page.getByRole('main').getByText('The dev server is running in the background').count()).toBe(1);
    const badge = page.getByTestId('state-badge');
    await expect.poll(() => badge.getAttribute('data-badge')).toBe('task');
    // Two more turns: the task's turn falls out of the replayed tail.
    for (const text of ['what does the readme say', 'and the license']) {
      await sendPrompt(page, text);
      // The simulator's answer quotes the prompt: this turn answered, then over.
      await expect.poll(() => page.getByRole('main').getByText(`You asked: ${text}`).count(), { timeout: 30_000 }).toBe(1);
      await waitIdle(page);
    }

    await page.reload();
    await page.getByTestId('prompt-input').waitFor();
    await expect.poll(() => page.getByText('and the license').count()).toBeGreaterThan(0);
    // The premise: the task's turn is not among what the reload shows (the header's title is that prompt).
    expect(await page.getByRole('main').getByText('start the background server').count()).toBe(0);
    expect(await page.getByTestId('open-terminal').count()).toBe(0);
    await expect.poll(() => badge.getAttribute('data-badge')).toBe('task');
    expect(await badge.innerText()).toBe('Task running');
    expect(await page.getByTestId('terminal-running').innerText()).toBe('1');
    await shoot(page, 'chat-old-task-running');

    await badge.click();
    const empty = page.getByTestId('terminal-empty');
    await expect.poll(() => empty.innerText()).toContain('still running');
    expect(await axeBothThemes(page, 'terminal with an older task running')).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
