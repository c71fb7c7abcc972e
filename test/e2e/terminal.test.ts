/**
 * The terminal panel at phone size (390×844) over a REAL background task of the simulator
 * (`background watch`: a coloured line every 250 ms): it streams live with its ANSI colours,
 * follows the end until scrolled up, searches and copies; a reload mid-task and a second
 * device joining late both see the output so far (cut to `taskOutputMaxChars`, with "Earlier
 * output trimmed"); the operate phone stops the task from the panel, the view laptop has no Stop.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phoneHub } from './support/fixture.js';
import { axeBothThemes } from './support/axe.js';
import { newSession, pair, sendPrompt, shoot, startWatchTask, waitIdle } from './support/flow.js';

const KEEP = 1_500;
const { hub, phone, laptop } = phoneHub({ hub: { limits: { taskOutputMaxChars: KEEP } }, laptop: true });

const output = (page: Page) => page.getByTestId('terminal-output');
/** The highest test-file number the panel shows. */
async function lastLine(page: Page): Promise<number> {
  const text = await output(page).innerText();
  const nums = [...text.matchAll(/unit-(\d{3})/g)].map((m) => Number(m[1]));
  return nums.length === 0 ? 0 : Math.max(...nums);
}
async function waitLine(page: Page, n: number): Promise<void> {
  await expect.poll(() => lastLine(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(n);
}

describe('phone web app: the terminal panel', () => {
  it('streams a background task live with colours, follows, searches, copies; reload and a late device see it; Stop from the panel (operate only)', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Terminal phone');
    await newSession(page);
    await startWatchTask(page);

    // From the tool card into the panel (the card previews the output without escape codes).
    const card = page.getByTestId('tool-card').filter({ hasText: 'npm run test:watch' });
    await expect.poll(() => card.locator('pre.terminal').innerText()).toContain('unit-002');
    expect(await card.locator('pre.terminal').innerText()).not.toContain('\u001b');
    expect(await page.getByTestId('terminal-running').innerText()).toBe('1');
    // The turn that launched it ended, the task runs on: the header says so (not "Idle"), and opens the terminal.
    await waitIdle(page);
    const state = page.getByTestId('state-badge');
    await expect.poll(() => state.getAttribute('data-badge')).toBe('task');
    expect(await state.innerText()).toBe('Task running');
    expect(await axeBothThemes(page, 'chat with a task running')).toEqual([]);
    await shoot(page, 'terminal-chat');
    await state.click();
    await page.getByTestId('terminal-view').waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('prompt-input').waitFor();
    await card.getByTestId('open-terminal').click();
    await page.getByTestId('terminal-view').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/\/terminal$/);
    await waitLine(page, 8);
    // Colours from the ANSI codes: a green ✓, a red ✗ (line 7), as styled spans, no escape text.
    const green = output(page).locator('.ansi-green-fg').first();
    expect(await green.innerText()).toBe('✓');
    expect(await green.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(126, 231, 135)');
    const red = output(page).locator('.ansi-red-fg').filter({ hasText: '✗' }).first();
    expect(await red.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 123, 114)');
    expect(await output(page).innerText()).not.toContain('\u001b');
    expect(await page.getByTestId('terminal-status').innerText()).toBe('running');

    // Follow: the end stays in view once the output overflows; scrolling up stops following.
    await waitLine(page, 45);
    const atEnd = () => output(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 24);
    expect(await output(page).evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await expect.poll(atEnd).toBe(true);
    expect(await page.getByTestId('terminal-follow').getAttribute('aria-pressed')).toBe('true');
    await output(page).evaluate((el) => {
      el.scrollTop = 0;
      el.dispatchEvent(new Event('scroll'));
    });
    await expect.poll(() => page.getByTestId('terminal-follow').getAttribute('aria-pressed')).toBe('false');
    const seen = await lastLine(page);
    await waitLine(page, seen + 3);
    expect(await output(page).evaluate((el) => el.scrollTop)).toBe(0);
    await page.getByTestId('terminal-follow').click();
    await expect.poll(atEnd).toBe(true);

    // Search marks the matches and steps through them.
    await page.getByTestId('terminal-search').fill('unit-014');
    await expect.poll(() => page.getByTestId('terminal-matches').innerText()).toBe('1 of 1');
    expect(await output(page).locator('mark.current').innerText()).toBe('unit-014');
    await page.getByTestId('terminal-search').fill('expected');
    await expect.poll(async () => (await page.getByTestId('terminal-matches').innerText()).startsWith('1 of ')).toBe(true);
    await page.getByTestId('terminal-next').click();
    await expect.poll(() => page.getByTestId('terminal-matches').innerText()).toMatch(/^2 of \d+$/);
    await shoot(page, 'terminal-search');
    await page.getByTestId('terminal-search').fill('');

    // Copy puts the plain text (no escape codes) on the clipboard.
    await phone.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: hub.url });
    await page.getByTestId('terminal-copy').click();
    await page.getByText('Output copied').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('unit-014.test.ts');
    expect(copied).not.toContain('\u001b');
    await shoot(page, 'terminal-running');

    // A reload mid-task: the output so far (cut to the hub's bound, marked), then it streams on.
    await waitLine(page, 60);
    const beforeReload = await lastLine(page);
    await page.reload();
    await page.getByTestId('terminal-view').waitFor();
    // Lines from before the reload are there (not only what streamed since).
    const earlier = `unit-${String(beforeReload - 5).padStart(3, '0')}`;
    await expect.poll(() => output(page).innerText()).toContain(earlier);
    await page.getByTestId('terminal-trimmed').waitFor();
    expect(await page.getByTestId('terminal-trimmed').innerText()).toBe('Earlier output trimmed');
    expect(await output(page).innerText()).not.toContain('unit-001');
    // The kept text starts at a whole line: no half escape sequence shown as text.
    expect(await output(page).innerText()).toMatch(/^(✓|✗|warn) test\/unit-\d{3}/);
    expect(await page.getByTestId('terminal-status').innerText()).toBe('running');
    await waitLine(page, beforeReload + 3);
    // The reloaded chat's header still says a task runs.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => page.getByTestId('state-badge').getAttribute('data-badge')).toBe('task');
    await page.getByTestId('terminal-button').click();
    await page.getByTestId('terminal-view').waitFor();

    // A view device joins late: the header's "Task running", the chat's terminal button, the output so far, no Stop.
    await pair(laptop, hub, 'Terminal laptop', 'view');
    const lp = laptop.page;
    await lp.getByTestId('session-row').first().click();
    await expect.poll(() => lp.getByTestId('state-badge').getAttribute('data-badge')).toBe('task');
    await lp.getByTestId('terminal-button').click();
    await lp.getByTestId('terminal-view').waitFor();
    await waitLine(lp, beforeReload + 3);
    await lp.getByTestId('terminal-trimmed').waitFor();
    await lp.getByTestId('terminal-view-only').waitFor();
    expect(await lp.getByTestId('terminal-stop').count()).toBe(0);
    await shoot(lp, 'terminal-view-device');

    // The phone stops the task from the panel: both devices see it stopped, no more lines.
    await page.getByTestId('terminal-stop').click();
    await expect.poll(() => page.getByTestId('terminal-status').innerText()).toBe('stopped');
    await expect.poll(() => lp.getByTestId('terminal-status').innerText()).toBe('stopped');
    expect(await page.getByTestId('terminal-stop').count()).toBe(0);
    const last = await lastLine(page);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('prompt-input').waitFor();
    // Stopped: the header no longer says a task runs, on either device.
    await expect.poll(() => page.getByTestId('state-badge').getAttribute('data-badge')).not.toBe('task');
    await lp.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => lp.getByTestId('state-badge').getAttribute('data-badge')).not.toBe('task');
    await page.getByTestId('terminal-button').click();
    expect(await lastLine(page)).toBe(last);

    // A foreground shell call's output is in the panel too, picked from the list of the session's terminals.
    await page.getByRole('button', { name: 'Back' }).click();
    await sendPrompt(page, 'run the tests, permission needed');
    await page.getByTestId('interaction-sheet').getByTestId('option-allow_once').click();
    await waitIdle(page);
    await page.getByTestId('terminal-button').click();
    const pick = page.getByTestId('terminal-pick');
    expect(await pick.locator('option').allInnerTexts()).toEqual(['npm run test:watch · stopped', 'npm test · finished']);
    await pick.selectOption({ label: 'npm test · finished' });
    await expect.poll(() => output(page).innerText()).toContain('Test Files  2 passed (2)');
    expect(await page.getByTestId('terminal-stop').count()).toBe(0);
    expect(phone.errors).toEqual([]);
    expect(laptop.errors).toEqual([]);
  });
});
