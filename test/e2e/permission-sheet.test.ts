/**
 * Approving what you can see, on a 390×844 phone against a real daemon on the simulator: the
 * permission sheet shows a command with where it runs, a written file's first lines (and all of
 * them on request), an edit's numbered diff, with "Allow once" as the one primary answer; the
 * inbox lists what waits for this device.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openDevice, PHONE } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] } });

/** Nothing is wider than the phone: the page does not scroll sideways and the sheet fits. */
async function fitsThePhone(page: Page, sheet: Locator): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const box = await sheet.boundingBox();
  expect(box?.width ?? Infinity).toBeLessThanOrEqual(PHONE.width);
}

/** The sheet's answer buttons, in focus order, with their look. */
async function answers(sheet: Locator): Promise<Array<{ name: string; cls: string }>> {
  return sheet
    .locator('.perm-actions button')
    .evaluateAll((els) => els.map((e) => ({ name: (e.textContent ?? '').trim(), cls: e.className })));
}

describe('phone web app: the permission sheet shows what is approved', () => {
  it('[WEB-03] a shell command shows the command and where it runs; Allow once is the primary answer and works', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Sheet phone');
    await newSession(page);
    await sendPrompt(page, 'run the tests, permission needed');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('perm-command').waitFor();
    expect(await sheet.getByTestId('perm-command').locator('pre').innerText()).toBe('npm test');
    // The workspace itself is shown by its folder name, not as an absolute path.
    expect(await sheet.getByTestId('perm-cwd').innerText()).toBe(`Runs in ${path.basename(hub.workspace)}`);
    expect(await answers(sheet)).toEqual([
      { name: 'Allow once', cls: 'primary' },
      { name: 'Always allow in this project', cls: 'quiet' },
      { name: 'Deny', cls: 'danger' },
    ]);
    expect(await sheet.locator('button.primary').count()).toBe(1);
    // A long command scrolls inside its box instead of widening the sheet.
    expect(
      await sheet
        .getByTestId('perm-command')
        .locator('pre')
        .evaluate((e) => [getComputedStyle(e).whiteSpace, getComputedStyle(e).overflowX]),
    ).toEqual(['pre', 'auto']);
    // Focus order: the sheet opens on its close button, then the answers, Allow once first.
    const focused = async () =>
      page.evaluate(() => {
        const e = document.activeElement as HTMLElement | null;
        return e?.getAttribute('aria-label') || (e?.textContent ?? '').trim();
      });
    expect(await focused()).toBe('Close');
    const order: string[] = [];
    for (let n = 0; n < 4; n++) {
      await page.keyboard.press('Tab');
      order.push(await focused());
    }
    expect(order).toEqual(['Allow once', 'Always allow in this project', 'Deny', 'Later']);
    await fitsThePhone(page, sheet);
    await shoot(page, 'permission');
    await sheet.getByRole('button', { name: 'Allow once' }).click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
    const card = page
      .getByTestId('tool-card')
      .filter({ hasText: /npm test|Bash/ })
      .last();
    await expect.poll(() => card.getAttribute('data-status')).toBe('completed');
  });

  it('[WEB-03] a write shows its first lines and expands to all of them; Deny answers it', async () => {
    const { page } = phone;
    // No README yet: the edit scenario creates it with a Write (11 lines), then writes src/greet.ts.
    await sendPrompt(page, 'please edit the project');
    const sheet = page.getByTestId('interaction-sheet');
    const write = sheet.getByTestId('perm-write');
    await write.waitFor();
    expect(await write.locator('figcaption').innerText()).toMatch(/^README\.md\s+whole file, 11 lines$/);
    const rows = write.locator('[data-testid=diff-block] tr');
    expect(await rows.count()).toBe(8);
    expect(await write.locator('[data-testid=diff-block]').innerText()).toContain('# Project');
    await fitsThePhone(page, sheet);
    await shoot(page, 'permission-write');
    const more = write.getByRole('button', { name: 'Show all 11 lines' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    await expect.poll(() => rows.count()).toBe(11);
    expect(await write.locator('[data-testid=diff-block]').innerText()).toContain('greet("world")');
    expect(await write.getByRole('button', { name: 'Show fewer lines' }).getAttribute('aria-expanded')).toBe('true');
    await sheet.getByRole('button', { name: 'Deny' }).click();
    // The next permission: the helper module, short enough to need no "Show all".
    await expect.poll(() => write.locator('figcaption').innerText()).toMatch(/^src\/greet\.ts/);
    expect(await write.getByTestId('perm-write-more').count()).toBe(0);
    await sheet.getByRole('button', { name: 'Allow once' }).click();
    await waitIdle(page);
    expect(fs.existsSync(path.join(hub.workspace, 'README.md'))).toBe(false);
    expect(fs.readFileSync(path.join(hub.workspace, 'src', 'greet.ts'), 'utf8')).toContain('export function greet');
  });

  it('[WEB-03] an edit shows its numbered, highlighted diff, long lines kept inside the screen', async () => {
    const { page } = phone;
    // A long line, and markup that must stay text.
    const long = `See ${'https://example.com/a-very-long-path/'.repeat(6)} <img src=x onerror="window.__pwned=1">`;
    fs.writeFileSync(path.join(hub.workspace, 'README.md'), `# Demo\n\nA project.\n${long}\n`);
    await sendPrompt(page, 'please edit the project');
    const sheet = page.getByTestId('interaction-sheet');
    const edit = sheet.getByTestId('perm-edit');
    await edit.waitFor();
    expect(await edit.locator('figcaption').innerText()).toMatch(/^README\.md\s+edit$/);
    const diff = edit.getByTestId('diff-block');
    // The hunk sits where the old text is in the file now: the long line is line 4.
    await expect.poll(() => diff.locator('tr[data-op=" "]').first().locator('.ud-no').first().innerText()).toBe('4');
    expect(await diff.locator('tr[data-op="+"]').count()).toBeGreaterThan(3);
    expect(await diff.innerText()).toContain('## Usage');
    expect(await diff.locator('[class^=hl-]').count()).toBeGreaterThan(0);
    expect(await edit.innerText()).not.toContain('Line numbers count');
    expect(await diff.innerText()).toContain('<img src=x onerror=');
    expect(await diff.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await fitsThePhone(page, sheet);
    await shoot(page, 'permission-edit');
    await sheet.getByRole('button', { name: 'Allow once' }).click();
    await sheet.getByTestId('perm-write').waitFor();
    await sheet.getByRole('button', { name: 'Allow once' }).click();
    await waitIdle(page);
    expect(fs.readFileSync(path.join(hub.workspace, 'README.md'), 'utf8')).toContain('## Usage');
  });

  it('[WEB-08] the inbox lists what waits for this device under its own heading', async () => {
    const { page } = phone;
    await sendPrompt(page, 'run the tests, permission needed');
    await page.getByTestId('interaction-sheet').getByTestId('perm-command').waitFor();
    await page.getByRole('button', { name: 'Later' }).click();
    await page.getByTestId('inbox-button').click();
    const mine = page.getByTestId('inbox-mine');
    await mine.getByRole('heading', { name: 'Waiting for you' }).waitFor();
    expect(await mine.getByTestId('inbox-row').count()).toBe(1);
    // The hub names no approval rules yet: nothing waits for someone else.
    expect(await page.getByTestId('inbox-others').count()).toBe(0);
    await shoot(page, 'inbox-split');
    await mine.getByRole('button', { name: 'Answer' }).click();
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('perm-command').waitFor();
    await sheet.getByRole('button', { name: 'Allow once' }).click();
    await mine.waitFor({ state: 'detached' });
    expect(phone.errors).toEqual([]);
  });

  it('[WEB-07] a device without the session open sees in the inbox what it approves, and answers there', async () => {
    const tablet = await openDevice();
    try {
      await pair(tablet, hub, 'Sheet tablet');
      // The phone is back in its chat (the last test left it in the inbox).
      await phone.page.goBack();
      await sendPrompt(phone.page, 'run the tests, permission needed');
      await phone.page.getByTestId('interaction-sheet').getByTestId('perm-command').waitFor();
      await tablet.page.getByTestId('inbox-button').click();
      await tablet.page.getByTestId('inbox-mine').getByRole('button', { name: 'Answer' }).click();
      const sheet = tablet.page.getByTestId('interaction-sheet');
      // The inbox copy carries the request's tool call (InteractionView.toolCall): the facts, without opening the session.
      await sheet.getByTestId('perm-command').waitFor();
      expect(await sheet.getByTestId('perm-command').locator('pre').innerText()).toBe('npm test');
      expect(await sheet.getByTestId('perm-cwd').innerText()).toBe(`Runs in ${path.basename(hub.workspace)}`);
      expect(await sheet.getByTestId('perm-details-elsewhere').count()).toBe(0);
      expect(new URL(tablet.page.url()).pathname).toBe('/inbox');
      await sheet.getByRole('button', { name: 'Allow once' }).click();
      await phone.page.getByTestId('interaction-sheet').waitFor({ state: 'detached' });
      await waitIdle(phone.page);
      expect(tablet.errors).toEqual([]);
    } finally {
      await tablet.close();
    }
  });
});
