/**
 * The context meter is the same on every screen of a session at phone size (390×844): the chat's
 * config bar and the header of its Changes, Files and Terminal screens show the same figure, and
 * so do a reload and a device that joins late (the hub replays the last usage: the agent's
 * history has none).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone, laptop } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.2'] }, laptop: true });

const meter = (page: Page) => page.getByTestId('context-meter');
const meterText = async (page: Page) => {
  await meter(page).waitFor();
  return meter(page).innerText();
};

/** The meter on the chat, then on each of the session's other screens (and back). */
async function everyScreen(page: Page, sessionPath: string, want: string): Promise<void> {
  expect(await meterText(page)).toBe(want);
  for (const [button, view] of [
    ['changes-button', 'changes-view'],
    ['files-button', 'files-view'],
  ] as const) {
    await page.getByTestId(button).click();
    await page.getByTestId(view).waitFor();
    expect(await meterText(page)).toBe(want);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('messages').waitFor();
  }
  await page.goto(`${hub.url}${sessionPath}/terminal`);
  await page.getByTestId('terminal-view').waitFor();
  expect(await meterText(page)).toBe(want);
  await page.goto(`${hub.url}${sessionPath}`);
  await page.getByTestId('messages').waitFor();
}

describe('phone web app: the context meter on every screen of a session', () => {
  it('shows the same figure on the chat, Changes, Files and Terminal, after a reload and on a late device', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Meter phone');
    await newSession(page);
    await sendPrompt(page, 'hello there');
    await waitIdle(page);
    const want = await meterText(page);
    expect(want).toMatch(/^Context (<1|\d+)%$/);
    const sessionPath = new URL(page.url()).pathname;

    await everyScreen(page, sessionPath, want);
    await page.getByTestId('changes-button').click();
    await meter(page).waitFor();
    await shoot(page, 'context-meter-changes');
    await page.getByRole('button', { name: 'Back' }).click();

    // A reload rebuilds the chat from history: the meter comes back with it.
    await page.reload();
    expect(await meterText(page)).toBe(want);

    // A device that joins after the turn sees the same meter everywhere.
    await pair(laptop, hub, 'Meter laptop');
    const lp = laptop.page;
    await lp.getByTestId('session-row').first().click();
    await everyScreen(lp, sessionPath, want);
    expect(phone.errors).toEqual([]);
    expect(laptop.errors).toEqual([]);
  });
});
