/**
 * The composer and the plan at 390×844, over the real simulator: while a turn runs the text box
 * keeps a usable width (Stop takes Send's place, then turns compact beside Queue once something
 * is typed); a plan is pinned above the composer only while a step is open and, finished, sits
 * collapsed at the end of its turn; a todo list's steps show once in the chat.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.3'] } });

/** The text box's width, and whether its placeholder shows whole (measured in the box's own font). */
const inputRoom = (page: Page) =>
  page.getByTestId('prompt-input').evaluate((el: HTMLTextAreaElement) => {
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = cs.font;
    const inner = el.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight);
    return { width: el.getBoundingClientRect().width, placeholderFits: ctx.measureText(el.placeholder).width <= inner };
  });

describe('the composer and the plan at 390 px', () => {
  it('while a turn runs the text box keeps its width: Stop takes Send’s place, then turns compact beside Queue', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Composer phone');
    await newSession(page);
    const idle = await inputRoom(page);
    expect(idle.placeholderFits).toBe(true);

    await sendPrompt(page, 'slow answer please');
    const stop = page.getByTestId('stop-button');
    await stop.waitFor();
    // Nothing typed: the labelled Stop where Send was (there is nothing to send).
    expect(await stop.innerText()).toBe('Stop');
    expect(await page.getByTestId('send-button').count()).toBe(0);
    // The camera gives Stop its place; the gallery stays.
    expect(await page.getByRole('button', { name: 'Take photo' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Attach image' }).count()).toBe(1);
    const running = await inputRoom(page);
    expect(running.placeholderFits).toBe(true);
    // As wide as when idle, give or take a gap between buttons (146 px while the camera stayed beside the labelled Stop).
    expect(running.width).toBeGreaterThan(idle.width - 5);
    await shoot(page, 'composer-running');

    // Something typed: Send becomes Queue, Stop a round button still named Stop.
    await page.getByTestId('prompt-input').fill('and this one after it');
    const queue = page.getByTestId('send-button');
    await queue.waitFor();
    expect(await queue.getAttribute('aria-label')).toBe('Queue');
    expect(await stop.innerText()).toBe('');
    expect(await stop.getAttribute('aria-label')).toBe('Stop');
    const s = (await stop.boundingBox())!;
    expect(Math.min(s.width, s.height)).toBeGreaterThanOrEqual(44);
    expect((await inputRoom(page)).width).toBeGreaterThan(idle.width - 5);
    expect(await axeBothThemes(page, 'composer while a turn runs, text typed')).toEqual([]);
    await shoot(page, 'composer-queue');

    // Queueing still works; Stop still stops.
    await queue.click();
    await page.getByTestId('queue').filter({ hasText: 'and this one after it' }).waitFor();
    expect(await stop.innerText()).toBe('Stop');
    await stop.click();
    await waitIdle(page);
    // Idle again: Send is back, the text box as wide as before the turn.
    await page.getByTestId('send-button').waitFor();
    expect((await inputRoom(page)).width).toBe(idle.width);
    expect(await page.getByRole('button', { name: 'Take photo' }).count()).toBe(1);
  });

  it('a plan with open steps is pinned; once all are done it sits collapsed in its turn, expandable, not over the composer', async () => {
    const { page } = phone;
    await sendPrompt(page, 'make a plan first');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('plan-approve').waitFor();
    // The turn waits on the approval with every step open: the plan is pinned above the composer.
    const pinned = page.locator('[data-testid=plan][data-place=pinned]');
    await expect.poll(() => pinned.count()).toBe(1);
    expect(await pinned.locator('summary').innerText()).toMatch(/^Plan · 0\/\d+$/);
    await sheet.getByTestId('plan-approve').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);

    const inTurn = page.getByTestId('messages').locator('[data-testid=plan][data-place=turn]');
    await expect.poll(() => inTurn.count()).toBe(1);
    expect(await pinned.count()).toBe(0);
    const summary = await inTurn.locator('summary').innerText();
    expect(summary).toMatch(/^Plan · (\d+)\/\1$/);
    // Collapsed in its turn, after the turn's answer; a tap opens it.
    expect(await inTurn.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    expect(await inTurn.evaluate((d) => d.parentElement?.lastElementChild === d)).toBe(true);
    // Its summary line has the open/closed arrow every other folded card has: pointing right, down once open.
    const arrow = inTurn.locator('summary .icon');
    expect(await arrow.count()).toBe(1);
    const turned = () => arrow.evaluate((el) => getComputedStyle(el).transform);
    expect(await turned()).toBe('none');
    await inTurn.locator('summary').click();
    await expect.poll(() => inTurn.locator('li.plan-completed').first().isVisible()).toBe(true);
    await expect.poll(turned).toBe('matrix(0, 1, -1, 0, 0, 0)');
    // Opened at the foot of the chat, its steps are scrolled into view (the last one and the summary both shown).
    const inView = () =>
      inTurn.evaluate((d) => {
        let box = d.parentElement;
        while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
        const port = (box ?? document.documentElement).getBoundingClientRect();
        const last = d.querySelector('li:last-child')?.getBoundingClientRect();
        const top = d.querySelector('summary')?.getBoundingClientRect();
        return last !== undefined && top !== undefined && last.bottom <= port.bottom + 1 && top.top >= port.top - 1;
      });
    await expect.poll(inView).toBe(true);
    expect(await inTurn.locator('li').count()).toBe(await inTurn.locator('li.plan-completed').count());
    // Drawn whole among the messages: neither squeezed by the column nor cut off.
    const whole = () => inTurn.evaluate((d) => d.scrollHeight <= d.clientHeight + 1 && d.getBoundingClientRect().height >= 36);
    await expect.poll(whole).toBe(true);
    await inTurn.locator('summary').click();
    expect(await inTurn.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    expect(await whole()).toBe(true);
    await inTurn.locator('summary').click();
    expect(await axeBothThemes(page, 'finished plan in its turn')).toEqual([]);
    await shoot(page, 'plan-in-turn');
  });

  it('a todo list’s steps show once: in the plan for its turn, in the last card once a later turn starts', async () => {
    const { page } = phone;
    await sendPrompt(page, 'keep a todo list');
    await waitIdle(page);
    const cards = page.locator('[data-special=todo]');
    await expect.poll(() => cards.last().locator('.pill').innerText()).toBe('3/3 done');
    const plan = page.getByTestId('plan');
    await expect.poll(() => plan.getAttribute('data-place')).toBe('turn');
    expect(await plan.locator('summary').innerText()).toBe('Plan · 3/3');
    // Every card of this turn points at the plan; the steps are drawn once, in the plan.
    const n = await cards.count();
    expect(n).toBeGreaterThanOrEqual(2);
    expect(await cards.locator('.todo-list').count()).toBe(0);
    expect(await cards.locator('.todo-ref').allInnerTexts()).toEqual(
      Array.from({ length: n }, () => expect.stringContaining('in the plan')),
    );
    for (const step of ['Inspect the project layout', 'Add the missing test', 'Update the changelog'])
      expect(await page.locator('li').filter({ hasText: step }).count()).toBe(1);
    expect(await axeBothThemes(page, 'todo cards pointing at the plan')).toEqual([]);
    await shoot(page, 'todo-once');

    // A later turn without a plan: the plan view is gone, the turn's last card draws the list as it ended.
    await sendPrompt(page, 'a plain answer now');
    await expect.poll(() => plan.count()).toBe(0);
    await waitIdle(page);
    await expect.poll(() => cards.locator('.todo-list').count()).toBe(1);
    expect(await cards.last().locator('.todo-completed').count()).toBe(3);
    expect(await cards.locator('.todo-ref').allInnerTexts()).toEqual(
      Array.from({ length: n - 1 }, () => expect.stringContaining('updated below')),
    );
    for (const step of ['Inspect the project layout', 'Add the missing test', 'Update the changelog'])
      expect(await page.locator('li').filter({ hasText: step }).count()).toBe(1);
  });
});
