/**
 * A device that may not answer still sees what is being approved (docs/CLIENT-PROTOCOL.md
 * "Approval rules"): at 390×844 on a real daemon with the simulator child, under a rule that
 * leaves changes and commands to Ann, Bo's read-only sheet shows the command and where it runs,
 * an edit's diff and a written file's first lines — with no answer buttons — from the inbox of a
 * session Bo never opened (the view's `toolCall`) as from the chat.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, putRules, sendPrompt, shoot, waitIdle } from './support/flow.js';

const {
  hub,
  phone: ann,
  laptop: bo,
} = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.4'] },
  laptop: true,
  setup: async ({ hub }) => {
    await putRules(hub, [
      {
        id: 'changes',
        description: 'changes and commands need ann',
        match: { kind: ['edit', 'execute'] },
        decide: 'ask',
        approvers: { people: ['ann'] },
      },
    ]);
  },
});

async function fits(page: Page, sheet: Locator): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  expect((await sheet.boundingBox())?.width ?? Infinity).toBeLessThanOrEqual(PHONE.width);
}

/** The sheet is a read-only copy: it says for whom it waits and offers no answer. */
async function readOnly(sheet: Locator): Promise<void> {
  expect(await sheet.getByTestId('perm-read-only').innerText()).toBe('waiting for ann: this device cannot answer it.');
  expect(await sheet.locator('.perm-actions button').count()).toBe(0);
}

let sessionUrl = '';

describe('read-only copies show what is being approved', () => {
  it('a command: the inbox copy of a session Bo never opened shows the command and where it runs', async () => {
    await pair(ann, hub, 'Ann phone', 'operate', 'ann');
    await pair(bo, hub, 'Bo phone', 'operate', 'bo');
    const a = ann.page;
    const b = bo.page;
    await newSession(a);
    sessionUrl = a.url();
    await sendPrompt(a, 'run the tests, permission needed');
    await a.getByTestId('interaction-sheet').getByTestId('option-allow_once').waitFor();

    // Bo has not opened the session: the inbox copy carries the request's tool call.
    await b.getByTestId('inbox-button').click();
    const others = b.getByTestId('inbox-others');
    await others.getByTestId('inbox-row').waitFor();
    await others.getByTestId('inbox-answer').click();
    const sheet = b.getByTestId('interaction-sheet');
    await sheet.getByTestId('perm-command').waitFor();
    expect(await sheet.getByTestId('perm-command').locator('pre').innerText()).toBe('npm test');
    expect(await sheet.getByTestId('perm-cwd').innerText()).toBe(`Runs in ${path.basename(hub.workspace)}`);
    expect(await sheet.getByTestId('perm-details-elsewhere').count()).toBe(0);
    await readOnly(sheet);
    await fits(b, sheet);
    await shoot(b, 'read-only-command');
    await sheet.getByRole('button', { name: 'Later' }).click();
    // Into the session (the chat, for the next test).
    await others.getByRole('button', { name: 'Open session' }).click();
    await b.getByTestId('prompt-input').waitFor();
    expect(b.url()).toBe(sessionUrl);

    await a.getByTestId('interaction-sheet').getByTestId('option-allow_once').click();
    await waitIdle(a);
    await b.getByTestId('waiting-others').waitFor({ state: 'detached' });
  });

  it('an edit’s diff and a written file’s first lines, in the chat and from the inbox', async () => {
    const a = ann.page;
    const b = bo.page;
    fs.writeFileSync(path.join(hub.workspace, 'README.md'), '# Demo\n\nA project.\n');
    await sendPrompt(a, 'please edit the project');
    const annSheet = a.getByTestId('interaction-sheet');
    await annSheet.getByTestId('perm-edit').waitFor();

    // Bo is in the chat: View opens the read-only copy with the diff.
    expect(b.url()).toBe(sessionUrl);
    const banner = b.getByTestId('waiting-others');
    await banner.getByTestId('waiting-view').click();
    const sheet = b.getByTestId('interaction-sheet');
    const edit = sheet.getByTestId('perm-edit');
    await edit.waitFor();
    expect(await edit.locator('figcaption').innerText()).toMatch(/^README\.md\s+edit$/);
    expect(await edit.getByTestId('diff-block').innerText()).toContain('## Usage');
    expect(await edit.getByTestId('diff-block').locator('tr[data-op="+"]').count()).toBeGreaterThan(3);
    await readOnly(sheet);
    await fits(b, sheet);
    await shoot(b, 'read-only-edit');
    await sheet.getByRole('button', { name: 'Later' }).click();

    // Ann allows the edit; the next request writes a new file. Bo opens it from the inbox this time.
    await annSheet.getByRole('button', { name: 'Allow once' }).click();
    await annSheet.getByTestId('perm-write').waitFor();
    // Back to the inbox (Bo came to the chat from there), the chat still held.
    await b.goBack();
    expect(new URL(b.url()).pathname).toBe('/inbox');
    const row = b.getByTestId('inbox-others').getByTestId('inbox-row');
    await expect.poll(() => row.innerText()).toMatch(/greet\.ts/);
    await row.getByTestId('inbox-answer').click();
    const write = sheet.getByTestId('perm-write');
    await write.waitFor();
    expect(await write.locator('figcaption').innerText()).toMatch(/^src\/greet\.ts/);
    expect(await write.getByTestId('diff-block').innerText()).toContain('export function greet');
    expect(await sheet.getByTestId('perm-details-elsewhere').count()).toBe(0);
    await readOnly(sheet);
    await fits(b, sheet);
    await sheet.getByRole('button', { name: 'Later' }).click();

    await annSheet.getByRole('button', { name: 'Allow once' }).click();
    await waitIdle(a);
    expect(fs.readFileSync(path.join(hub.workspace, 'src', 'greet.ts'), 'utf8')).toContain('export function greet');
    expect([...ann.errors, ...bo.errors]).toEqual([]);
  });
});
