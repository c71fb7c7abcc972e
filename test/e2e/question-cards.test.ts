/**
 * Questions survive a reload (docs/CLIENT-PROTOCOL.md "Partial answers"): at 390×844 on a real
 * daemon with the simulator child, the phone answers the first of the question scenario's two
 * cards, reloads, and is shown the second card with the first answer listed (and who gave it);
 * a second device sees the same — live while the phone answers, and after opening the chat afresh —
 * answers the second card, and the agent echoes both answers.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { PHONE } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone, laptop } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] }, laptop: true });

const fits = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
const card = (page: Page) => page.getByTestId('interaction-sheet').getByTestId('question-card');

/** The sheet shows the second card with the first answer above it, named by who gave it. */
async function atSecondCard(page: Page): Promise<void> {
  await card(page).and(page.locator('[data-question="1"]')).waitFor();
  expect(await card(page).getByTestId('question-position').innerText()).toBe('Question 2 of 2');
  const earlier = page.getByTestId('interaction-sheet').getByTestId('partial-answer');
  await expect.poll(() => earlier.count()).toBe(1);
  const text = await earlier.innerText();
  expect(text).toContain('Which package manager should I use?');
  expect(text).toContain('pnpm');
  expect(text).toContain('Answered by ann · Ann phone');
  expect(await card(page).getByTestId('form-choice').locator('legend').innerText()).toBe('Which checks should run before commit?');
}

describe('a question answered card by card survives a reload and another device', () => {
  it('first card on the phone, reload, the second card shows with the first answer; the laptop sees the same and finishes', async () => {
    await pair(phone, hub, 'Ann phone', 'operate', 'ann');
    await pair(laptop, hub, 'Ann laptop', 'operate', 'ann');
    const p = phone.page;
    await newSession(p);
    const sessionUrl = p.url();
    await sendPrompt(p, 'ask me a question');
    // The laptop has the chat open too: it moves on live when the phone answers.
    const l = laptop.page;
    await l.goto(sessionUrl);
    await l.getByTestId('prompt-input').waitFor();
    await card(l).and(l.locator('[data-question="0"]')).waitFor();

    // One card at a time.
    await card(p).and(p.locator('[data-question="0"]')).waitFor();
    expect(await card(p).getByTestId('question-position').innerText()).toBe('Question 1 of 2');
    expect(await p.getByTestId('interaction-sheet').getByTestId('form-choice').count()).toBe(1);
    await card(p).getByLabel('pnpm').check();
    await shoot(p, 'question-card-1');
    await card(p).getByTestId('question-next').click();
    await atSecondCard(p);
    await atSecondCard(l);

    // A reload does not start over: the hub kept the first answer.
    await p.reload();
    await p.getByTestId('prompt-input').waitFor();
    await atSecondCard(p);
    await fits(p);
    expect(await axeBothThemes(p, 'question card with earlier answers')).toEqual([]);
    await shoot(p, 'question-card-2-after-reload');

    // A second device opening the chat afresh sees the same, and answers the last card.
    await l.reload();
    await l.getByTestId('prompt-input').waitFor();
    await atSecondCard(l);
    await card(l).getByLabel('lint').check();
    await card(l).getByLabel('tests').check();
    await card(l).getByTestId('submit').click();
    await l.getByTestId('interaction-sheet').waitFor({ state: 'detached' });
    await p.getByTestId('interaction-sheet').waitFor({ state: 'detached' });
    await waitIdle(p);
    const echo = p.getByTestId('agent-message').filter({ hasText: 'Your answers' }).last();
    await expect.poll(() => echo.innerText()).toContain('Checks: lint, tests');
    expect(await echo.innerText()).toContain('Tooling: pnpm');
    await shoot(p, 'question-cards-answered');
  });

  it('from the inbox, on a device with no session open: card by card, and the phone sees the first answer live', async () => {
    const p = phone.page;
    const l = laptop.page;
    await l.goto(hub.url);
    await sendPrompt(p, 'ask me a question');
    await card(p).and(p.locator('[data-question="0"]')).waitFor();
    await l.getByTestId('inbox-count').waitFor();
    await l.getByTestId('inbox-button').click();
    await l.getByTestId('inbox-row').first().waitFor();
    await l.getByTestId('inbox-answer').first().click();
    await card(l).and(l.locator('[data-question="0"]')).waitFor();
    await card(l).getByLabel('pnpm').check();
    await card(l).getByTestId('question-next').click();
    await card(l).and(l.locator('[data-question="1"]')).waitFor();
    // The phone, attached to the session, moves on with the laptop's answer named.
    await card(p).and(p.locator('[data-question="1"]')).waitFor();
    expect(await p.getByTestId('interaction-sheet').getByTestId('partial-answer').innerText()).toContain('Answered by ann · Ann laptop');
    await card(l).getByLabel('tests').check();
    await card(l).getByTestId('submit').click();
    await p.getByTestId('interaction-sheet').waitFor({ state: 'detached' });
    await waitIdle(p);
    const echo = p.getByTestId('agent-message').filter({ hasText: 'Your answers' }).last();
    await expect.poll(() => echo.innerText()).toContain('Checks: tests');
    expect(await echo.innerText()).toContain('Tooling: pnpm');
    await l.getByTestId('inbox-row').waitFor({ state: 'detached' });
    expect(laptop.errors).toEqual([]);
  });
});
