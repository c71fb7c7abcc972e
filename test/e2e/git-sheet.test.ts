/**
 * The chat header's branch and dirty count on a 390×844 phone, over a real repository made with
 * `git init` in the hub's workspace; the Git sheet lists the changed files and opens each diff.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, shoot } from './support/flow.js';
import { git } from '../helpers/git.js';

const { hub, phone } = phoneHub({
  setup: async () => {
    const ws = hub.workspace;
    git(ws, 'init', '-q');
    fs.writeFileSync(path.join(ws, 'README.md'), '# Demo\n\nA project.\n');
    fs.writeFileSync(path.join(ws, 'old.txt'), 'old\n');
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'base');
    git(ws, 'checkout', '-q', '-b', 'feature/phone');
    fs.writeFileSync(path.join(ws, 'README.md'), '# Demo\n\nA better project.\n');
    fs.rmSync(path.join(ws, 'old.txt'));
    fs.writeFileSync(path.join(ws, 'new note.md'), 'fresh\n');
  },
});

describe('phone web app: the Git sheet', () => {
  it('the header shows the branch and the dirty count; the sheet lists files and opens their diffs', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Git phone');
    await newSession(page);
    await expect.poll(() => page.getByTestId('git-branch').textContent()).toBe('feature/phone');
    expect(await page.getByTestId('git-dirty').innerText()).toBe('3');
    await page.getByTestId('git-badge').click();
    const sheet = page.getByTestId('git-sheet');
    await sheet.waitFor();
    const files = sheet.getByTestId('git-file');
    expect(await files.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')).sort())).toEqual([
      'README.md',
      'new note.md',
      'old.txt',
    ]);
    await sheet.locator('[data-path="README.md"] summary').click();
    const readme = sheet.locator('[data-path="README.md"]').getByTestId('diff-block');
    await readme.waitFor();
    expect(await readme.locator('[data-op="-"]').allInnerTexts()).toEqual([expect.stringContaining('A project.')]);
    expect(await readme.locator('[data-op="+"]').allInnerTexts()).toEqual([expect.stringContaining('A better project.')]);
    await sheet.locator('[data-path="new note.md"] summary').click();
    const added = sheet.locator('[data-path="new note.md"]').getByTestId('diff-block');
    await added.waitFor();
    expect(await added.locator('[data-op="+"]').allInnerTexts()).toEqual([expect.stringContaining('fresh')]);
    await shoot(page, 'git-sheet');
    // Nothing on the page runs sideways at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('shows the branch after a reload while a turn waits on a question (not only once the turn ends)', async () => {
    const { page } = phone;
    await page.goto(hub.url);
    await page.getByTestId('new-session').click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('prompt-input').fill('a question first');
    await page.getByTestId('send-button').click();
    await page.getByTestId('interaction-sheet').waitFor();
    await page.reload();
    await page.getByTestId('prompt-input').waitFor();
    await expect.poll(() => page.getByTestId('state-badge').getAttribute('data-badge')).toBe('needs_you');
    await expect.poll(() => page.getByTestId('git-branch').innerText()).toBe('feature/phone');
    expect(await page.getByTestId('git-dirty').innerText()).toBe('3');
    expect(phone.errors).toEqual([]);
  });
});
