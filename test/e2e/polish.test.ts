/**
 * Phone polish on a 390×844 screen, light and dark: an obvious Stop button,
 * a text box that shrinks back after sending, a context meter that never claims a flat 0 %,
 * an offline pill clear of the pickers, question legends inside their box, and the todo list,
 * plan and question shown as what they are instead of raw tool names.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phoneHub } from './support/fixture.js';
import { pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.3'] } });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(page: Page, selector: string): Promise<Box> {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} has no box`);
  return b;
}

describe('phone polish', () => {
  it('Stop is a labelled red button; the text box is one line again after sending; the meter shows a real figure or nothing', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Polish phone');
    await page.getByTestId('new-session').click();
    await page.getByRole('button', { name: 'Create' }).click();
    const input = page.getByTestId('prompt-input');
    await input.waitFor();
    const oneLine = (await input.boundingBox())!.height;
    await input.fill('slow answer please\nwith a second line\nand a third');
    await input.dispatchEvent('input');
    expect((await input.boundingBox())!.height).toBeGreaterThan(oneLine + 10);
    await page.getByTestId('send-button').click();
    const stop = page.getByTestId('stop-button');
    await stop.waitFor();
    await expect.poll(async () => (await input.boundingBox())!.height).toBe(oneLine);
    expect(await stop.innerText()).toBe('Stop');
    const b = (await stop.boundingBox())!;
    expect(b.width).toBeGreaterThanOrEqual(64);
    expect(b.height).toBeGreaterThanOrEqual(44);
    const colours = await stop.evaluate((el) => ({ bg: getComputedStyle(el).backgroundColor, fg: getComputedStyle(el).color }));
    expect(colours).toEqual({ bg: 'rgb(201, 42, 42)', fg: 'rgb(255, 255, 255)' });
    await shoot(page, 'stop');
    await stop.click();
    await waitIdle(page);
    const meter = page.getByTestId('context-meter');
    if ((await meter.count()) > 0) expect(await meter.innerText()).not.toMatch(/(^|\D)0%/);
  });

  it('the offline pill does not cover the model and mode pickers', async () => {
    const { page, context } = phone;
    await context.setOffline(true);
    for (const conn of [...hub.daemon.app.gateway.connections()])
      if (conn.identity.name === 'Polish phone') conn.close(1001, 'network gone');
    const pill = page.locator('[data-testid=conn-indicator].conn-show');
    await pill.waitFor({ timeout: 20_000 });
    const pillBox = await box(page, '[data-testid=conn-indicator]');
    for (const sel of ['.config-bar', '.topbar']) expect(overlaps(pillBox, await box(page, sel))).toBe(false);
    await shoot(page, 'offline');
    await context.setOffline(false);
    await page.getByTestId('conn-indicator').and(page.locator('[data-status=online]')).waitFor({ timeout: 30_000 });
  });

  it('a question’s legend sits inside its box; the question card says what was asked', async () => {
    const { page } = phone;
    await sendPrompt(page, 'ask me a question');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.waitFor();
    // One card per question: each card's legend sits inside its box.
    for (let i = 0; i < 2; i++) {
      const fieldset = sheet
        .getByTestId('question-card')
        .and(page.locator(`[data-question="${i}"]`))
        .locator('fieldset.choices');
      await fieldset.waitFor();
      const f = (await fieldset.boundingBox())!;
      const l = (await fieldset.locator('legend').boundingBox())!;
      expect(l.y).toBeGreaterThanOrEqual(f.y);
      expect(l.x).toBeGreaterThan(f.x);
      if (i === 0) {
        await shoot(page, 'question-legend');
        await sheet.getByTestId('question-next').click();
      }
    }
    await sheet.getByTestId('submit').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
    const card = page.locator('[data-special=question]');
    await card.waitFor();
    expect(await card.locator('.tool-title').innerText()).toBe('2 questions');
  });

  it('the todo list and the plan render as a checklist and a plan, never as TodoWrite / ExitPlanMode', async () => {
    const { page } = phone;
    await sendPrompt(page, 'keep a todo list');
    await waitIdle(page);
    const todo = page.locator('[data-special=todo]').last();
    await todo.waitFor();
    // The last TodoWrite update can land just after the turn ends: wait for it rather than read once.
    await expect.poll(() => todo.locator('.pill').innerText()).toBe('3/3 done');
    // The steps are drawn once, in the turn's plan (the card points at it): open it there.
    const steps = page.getByTestId('plan');
    await expect.poll(() => steps.getAttribute('data-place')).toBe('turn');
    await steps.locator('summary').click();
    await expect.poll(() => steps.locator('li.plan-completed').count()).toBe(3);

    await sendPrompt(page, 'make a plan first');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.waitFor();
    await sheet.getByTestId('plan-approve').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
    const plan = page.locator('[data-special=plan]').last();
    await plan.waitFor();
    expect(await plan.locator('.tool-title').innerText()).toBe('Plan');
    const titles = await page.locator('.tool-title').allInnerTexts();
    for (const raw of ['TodoWrite', 'ExitPlanMode', 'AskUserQuestion']) expect(titles.filter((x) => x.startsWith(raw))).toEqual([]);
    await todo.scrollIntoViewIfNeeded();
    await shoot(page, 'special-cards');
    expect(phone.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|net::/.test(e.text))).toEqual([]);
  });
});
