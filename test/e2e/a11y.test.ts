/**
 * Accessibility on every screen of the phone app, at 390×844 in the light and the dark theme:
 * axe-core (injected as shipped) finds nothing serious or critical, and every screen has its one
 * `main` landmark — the session list, a chat with a finished turn and one still running with a
 * queued prompt, a permission sheet, Changes, Files, the inbox, Settings, Devices, the approval
 * rules and the add-machine sheet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, startWatchTask, waitIdle } from './support/flow.js';
import { addLink, startMachine, type Machine } from './support/machines.js';

const { hub, phone } = phoneHub({
  setup: async () => {
    fs.writeFileSync(path.join(hub.workspace, 'notes.md'), '# Notes\n\nSome text.\n');
  },
});
let other: Machine | undefined;
afterAll(async () => {
  await other?.close();
});

/** Findings of a test's screens, reported together at its end so one run names all of them. */
let findings: string[] = [];
beforeEach(() => {
  findings = [];
});

async function check(page: Page, screen: string): Promise<void> {
  findings.push(...(await axeBothThemes(page, screen)));
  await shoot(page, `a11y-${screen}`);
}

describe('accessibility of every screen (axe-core, light and dark, 390×844)', () => {
  it('a chat with a finished turn, a running one with a queued prompt, a permission sheet and the session list', async () => {
    const { page } = phone;
    await pair(phone, hub, 'A11y phone', 'admin');
    await newSession(page);
    // The todo card's "3/3 done" pill and the header's Done badge.
    await sendPrompt(page, 'keep a todo list');
    await waitIdle(page);
    await expect.poll(() => page.locator('[data-special=todo] .pill').last().innerText()).toBe('3/3 done');
    await check(page, 'chat-finished');

    // Stop shows while the turn runs; a second prompt waits in the queue with its author.
    await sendPrompt(page, 'a slow answer please');
    await page.getByTestId('stop-button').waitFor();
    await sendPrompt(page, 'and then this');
    await page.getByTestId('queue').waitFor();
    await check(page, 'chat-running');
    expect(await page.getByTestId('stop-button').count()).toBe(1);
    expect(await page.getByTestId('queue').count()).toBe(1);
    await page.getByTestId('stop-button').click();
    await waitIdle(page);

    await sendPrompt(page, 'run the tests, permission needed');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('perm-command').waitFor();
    await check(page, 'permission-sheet');
    await sheet.getByRole('button', { name: 'Later' }).click();
    await sheet.waitFor({ state: 'detached' });

    // The list with the session waiting ("Needs you").
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await page.getByText('Needs you').first().waitFor();
    await check(page, 'session-list');

    await page.getByTestId('inbox-button').click();
    await page.getByTestId('inbox-mine').waitFor();
    await check(page, 'inbox');
    await page.getByTestId('inbox-mine').getByRole('button', { name: 'Answer' }).click();
    await page.getByTestId('interaction-sheet').getByRole('button', { name: 'Allow once' }).click();
    await page.getByTestId('interaction-sheet').waitFor({ state: 'detached' });
    expect(findings).toEqual([]);
  });

  it('Changes and Files of a session that edited files', async () => {
    const { page } = phone;
    await page.goto(hub.url);
    await page.getByTestId('session-row').first().click();
    await page.getByTestId('prompt-input').waitFor();
    await waitIdle(page);
    await sendPrompt(page, 'please edit the project');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('option-allow_once').click();
    await expect.poll(() => sheet.innerText()).toContain('greet.ts');
    await sheet.getByTestId('option-allow_once').click();
    await waitIdle(page);
    await page.getByTestId('changes-count').waitFor();
    await check(page, 'chat-with-changes');
    await page.getByTestId('changes-button').click();
    await page.getByTestId('change-file').first().waitFor();
    await check(page, 'changes');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('files-button').click();
    await page.getByTestId('fs-entry').first().waitFor();
    await check(page, 'files');
    await page.getByTestId('fs-entry').filter({ hasText: 'notes.md' }).click();
    await page.getByTestId('file-viewer').waitFor();
    await check(page, 'file');
    expect(findings).toEqual([]);
  });

  it('the terminal panel of a running background task, searching', async () => {
    const { page } = phone;
    await page.goto(hub.url);
    await page.getByTestId('session-row').first().click();
    await page.getByTestId('prompt-input').waitFor();
    await waitIdle(page);
    await startWatchTask(page);
    await page.getByTestId('terminal-running').waitFor();
    await page.getByTestId('terminal-button').click();
    await expect.poll(() => page.getByTestId('terminal-output').innerText(), { timeout: 30_000 }).toContain('unit-008');
    await page.getByTestId('terminal-search').fill('expected');
    await page.getByTestId('terminal-matches').waitFor();
    await check(page, 'terminal');
    await page.getByTestId('terminal-stop').click();
    await expect.poll(() => page.getByTestId('terminal-status').innerText()).toBe('stopped');
    await check(page, 'terminal-stopped');
    expect(findings).toEqual([]);
  });

  it('Settings, Devices, the approval rules and the add-machine sheet', async () => {
    const { page } = phone;
    await page.goto(`${hub.url}/settings`);
    await page.getByTestId('settings-policy').waitFor();
    await check(page, 'settings');
    await page.goto(`${hub.url}/settings/devices`);
    await page.getByTestId('person').first().waitFor();
    await check(page, 'devices');
    await page.goto(`${hub.url}/settings/policy`);
    await page.getByText('No rules: every request waits for an operator.').waitFor();
    await check(page, 'policy');

    other = await startMachine('desktop', 'localhost');
    await page.goto(await addLink(other, hub.url));
    await page.getByTestId('add-machine-sheet').getByTestId('add-machine-question').waitFor();
    await check(page, 'add-machine');

    expect(findings).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
