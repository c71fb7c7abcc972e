/**
 * The phone app's rough edges, walked at 390×844 in light and dark over the real simulator and a
 * real git repository: inline code in what people write (a prompt, the session title it gives,
 * the list and the inbox) shown as code; the chat title given the header's width (the branch sits
 * under it); a question with one way to skip; a plan to approve without the form's how-to text;
 * Doctor on an operate device saying it is an admin report and what the device still sees;
 * Settings showing providers read-only and workflows to run (operate) or to see (view), each
 * saying exactly what the device may not do;
 * /docs on an operate device landing on a page that
 * says how to get admin, and an operate address on a view device on one that says how to get
 * operate, without a console error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeBothThemes } from './support/axe.js';
import { openDevice, PHONE } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';
import { git } from '../helpers/git.js';
import { encodeWorkflow } from '../../src/simulator/workflows/store.js';

const BRANCH = 'feature/phone-header-with-a-long-branch-name';
const { hub, phone } = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.3'] },
  setup: async () => {
    const ws = hub.workspace;
    git(ws, 'init', '-q');
    fs.writeFileSync(path.join(ws, 'README.md'), '# Demo\n');
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'base');
    git(ws, 'checkout', '-q', '-b', BRANCH);
    fs.writeFileSync(path.join(ws, 'notes.md'), 'a note\n');
  },
});

/** True when an element shows all of its text (nothing cut off with an ellipsis). */
const fits = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.scrollWidth <= el.clientWidth);

describe('phone edges at 390 px', () => {
  it('the chat title takes the header’s width; the branch sits under it, beside the state, and gives way first', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Edges phone');
    await newSession(page);
    const badge = page.getByTestId('git-badge');
    await expect.poll(() => page.getByTestId('git-branch').textContent()).toBe(BRANCH);
    // Under the title, in the state line.
    expect(await page.locator('.topbar-sub [data-testid=git-badge]').count()).toBe(1);
    const title = page.getByTestId('title-button');
    expect(await title.innerText()).toBe('Untitled session');
    expect(await fits(page, '[data-testid=title-button]')).toBe(true);
    // The title has the first row beside the back button; the long branch is cut, inside the phone.
    expect((await page.locator('.topbar-title').boundingBox())!.width).toBeGreaterThan(300);
    const b = (await badge.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
    expect(await fits(page, '[data-testid=git-branch]')).toBe(false);
    // Still a target a finger can hit, and still opens the sheet.
    expect(b.height).toBeGreaterThanOrEqual(24);
    await shoot(page, 'edges-header');
    await badge.click();
    await page.getByTestId('git-sheet').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('git-sheet').waitFor({ state: 'detached' });
  });

  it('`inline code` in a prompt shows as code in the message, the header, the list and the inbox, never as backticks', async () => {
    const { page } = phone;
    await sendPrompt(page, 'add the `greet` helper with permission');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.waitFor();
    await sheet.getByRole('button', { name: 'Later' }).click();
    await sheet.waitFor({ state: 'detached' });

    const message = page.getByTestId('user-message').last();
    // Its turn runs (waiting on the request): the prompt is sent, so its bubble is no longer drawn as on its way.
    await expect.poll(() => message.getAttribute('class')).not.toContain('msg-pending');
    expect(await message.locator('code').allInnerTexts()).toEqual(['greet']);
    expect(await message.locator('.msg-text').innerText()).toBe('add the greet helper with permission');
    const title = page.getByTestId('title-button');
    await expect.poll(() => title.locator('code').allInnerTexts()).toEqual(['greet']);
    expect(await title.innerText()).not.toContain('`');
    // The button's name is what it shows (axe's label-content-name-mismatch, run below).
    expect(await title.getAttribute('aria-label')).toBe('Rename: add the greet helper with permission');
    expect(await axeBothThemes(page, 'chat with inline code')).toEqual([]);
    await shoot(page, 'edges-inline-code-chat');
    // Four screen icons in the header (terminal, changes, files, the inbox with what waits): they
    // share the second row with the state, so the title keeps the first and reads whole.
    const icons = ['terminal-button', 'changes-button', 'files-button', 'inbox-button'].map((id) => page.getByTestId(id));
    for (const icon of icons) await icon.waitFor();
    const heading = (await page.locator('.topbar-title').boundingBox())!;
    expect(heading.width).toBeGreaterThan(300);
    expect(await fits(page, '[data-testid=title-button]')).toBe(true);
    for (const icon of icons) {
      const b = (await icon.boundingBox())!;
      expect(b.y).toBeGreaterThanOrEqual(heading.y + heading.height - 1);
      expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
      expect(Math.min(b.width, b.height)).toBeGreaterThanOrEqual(40);
    }

    // The inbox names the session with its code, and the request with a path inside the workspace.
    await page.getByTestId('inbox-button').click();
    const row = page.getByTestId('inbox-row').first();
    await row.waitFor();
    expect(await row.locator('.small code').allInnerTexts()).toEqual(['greet']);
    expect(await row.innerText()).not.toContain('`');
    expect(await row.innerText()).not.toContain(hub.workspace);
    await shoot(page, 'edges-inline-code-inbox');
    await row.getByTestId('inbox-answer').click();
    await sheet.getByTestId('option-allow_once').click();
    await sheet.waitFor({ state: 'detached' });

    await page.goto(hub.url);
    const listed = page.getByTestId('session-row').first().locator('.session-title');
    await expect.poll(() => listed.locator('code').allInnerTexts()).toEqual(['greet']);
    expect(await listed.innerText()).toBe('add the greet helper with permission');
    await shoot(page, 'edges-inline-code-list');
  });

  it('a question has one way to skip: Skip keeps this question skipped and moves on; no "Skip this question" choice', async () => {
    const { page } = phone;
    await page.getByTestId('session-row').first().click();
    await waitIdle(page);
    await sendPrompt(page, 'ask me a question');
    const sheet = page.getByTestId('interaction-sheet');
    const card = sheet.getByTestId('question-card');
    await card.waitFor();
    expect(await card.getAttribute('data-question')).toBe('0');
    expect(await sheet.getByText('Skip this question').count()).toBe(0);
    const radios = await card.locator('label.choice').allInnerTexts();
    expect(radios.map((r) => r.trim())).toEqual(['npm', 'pnpm', 'yarn']);
    expect(await sheet.getByRole('button', { name: /skip/i }).count()).toBe(1);
    await shoot(page, 'edges-question-skip');

    await card.getByTestId('question-skip').click();
    // The next card; the first is kept as skipped, by this device.
    await expect.poll(() => sheet.getByTestId('question-card').getAttribute('data-question')).toBe('1');
    expect(await sheet.getByTestId('partial-answer').innerText()).toContain('(skipped)');
    expect(await sheet.getByRole('button', { name: /skip/i }).count()).toBe(1);
    // Skipping the last question answers the form: the agent hears both were skipped.
    await sheet.getByTestId('question-skip').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
    const answer = page.getByTestId('agent-message').last();
    await expect.poll(() => answer.innerText()).toMatch(/Tooling: \(skipped\)[\s\S]*Checks: \(skipped\)/);
  });

  it('a plan to approve shows the plan and the sheet’s buttons, not the form’s how-to-answer text', async () => {
    const { page } = phone;
    await sendPrompt(page, 'make a plan first');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('plan-approve').waitFor();
    const text = await sheet.locator('.plan-text').innerText();
    expect(text).toContain('Run the tests');
    expect(text).not.toContain('Leave the box empty');
    expect(text).not.toContain('Ready to code?');
    await shoot(page, 'edges-plan-sheet');
    await sheet.getByTestId('plan-approve').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
  });

  it('Doctor on an operate device says it is a report for admin devices and what this device still sees, not "change this"', async () => {
    const { page } = phone;
    const before = phone.errors.length;
    await page.goto(`${hub.url}/settings/doctor`);
    const note = page.getByTestId('admin-only');
    await note.waitFor();
    expect(await page.locator('.topbar-title').first().innerText()).toBe('Doctor');
    expect(await note.locator('p').first().innerText()).toBe(
      'Doctor is a report, not a setting: it checks the hub’s addresses, secret files, peers and the agent’s setup, so only admin devices read it. This device still sees the agent’s state at the top of the screen whenever the agent is not ready.',
    );
    expect(await note.getByTestId('admin-how-to').locator('code').innerText()).toBe('zcode-hub pair --scope admin');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, 'edges-doctor-operate');
    expect(phone.errors.slice(before)).toEqual([]);
  });

  it('Settings say exactly what a non-admin device may not do: providers read-only, workflows to run (operate) or to see (view)', async () => {
    const { page } = phone;
    const before = phone.errors.length;
    const dir = path.join(hub.workspace, '.zcode', 'workflows');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'tidy.js'), encodeWorkflow({ description: 'Tidies the notes' }, 'return 1;\n'));
    await page.goto(`${hub.url}/settings`);
    // Providers and workflows are readable by every device; devices and the doctor report are not offered.
    await page.getByTestId('settings-workflows').waitFor();
    expect(
      await page.locator('[data-testid^="settings-"].nav-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid'))),
    ).toEqual(['settings-machines', 'settings-policy', 'settings-providers', 'settings-workflows']);
    expect(await page.getByTestId('admin-only').locator('p').first().innerText()).toBe(
      'The paired devices and the doctor report are for admin devices, and only an admin device adds, changes, tests or removes a provider.',
    );
    await shoot(page, 'edges-settings-operate');
    // An operate device runs a workflow: the whole card, and no note (nothing here is refused to it).
    await page.getByTestId('settings-workflows').click();
    const card = page.locator('li.card').filter({ hasText: 'tidy' });
    await card.getByRole('button', { name: 'Start' }).waitFor();
    expect(await page.locator('[data-testid="admin-only"], [data-testid="operate-only"]').count()).toBe(0);
    await shoot(page, 'edges-workflows-operate');
    // Providers: the list and what changing it needs, nothing to press.
    await page.goto(`${hub.url}/settings/providers`);
    await page.getByTestId('providers-intro').waitFor();
    await page.locator('main ul.rows').waitFor({ state: 'attached' });
    expect(await page.locator('[data-testid="provider"] button').count()).toBe(0);
    expect(await page.getByTestId('admin-only').locator('p').first().innerText()).toBe(
      'This device sees the providers; adding, changing, testing, turning on or off and removing one need an admin device.',
    );
    expect(await page.getByRole('button', { name: 'Add provider' }).count()).toBe(0);
    expect(await page.getByTestId('providers-intro').innerText()).not.toContain('Add a personal provider below');
    await shoot(page, 'edges-providers-operate');
    expect(phone.errors.slice(before)).toEqual([]);

    // A view device sees the saved workflows, and what starting one needs.
    const viewer = await openDevice();
    try {
      await pair(viewer, hub, 'Edges workflow viewer', 'view');
      const v = viewer.page;
      await v.goto(`${hub.url}/settings/workflows`);
      const seen = v.locator('li.card').filter({ hasText: 'tidy' });
      await seen.getByText('Tidies the notes').waitFor();
      expect(await seen.locator('button, textarea').count()).toBe(0);
      const note = v.getByTestId('operate-only');
      expect(await note.locator('p').first().innerText()).toBe(
        'This device sees the saved workflows; starting a run needs an operate device.',
      );
      expect(await note.getByTestId('operate-how-to').locator('code').innerText()).toBe('zcode-hub pair');
      expect(await v.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(await axeBothThemes(v, 'workflows on a view device')).toEqual([]);
      await shoot(v, 'edges-workflows-view');
      expect(viewer.errors).toEqual([]);
    } finally {
      await viewer.close();
    }
  });

  it('/docs on an operate device is the app’s needs-admin page with the command, no console errors; an admin gets docs that fit', async () => {
    const { page } = phone;
    const before = phone.errors.length;
    await page.goto(`${hub.url}/docs`);
    const card = page.getByTestId('needs-admin');
    await card.waitFor();
    expect(new URL(page.url()).pathname).toBe('/needs-admin');
    expect(await card.getByRole('heading').innerText()).toBe('This page needs an admin device');
    // It names the page that was opened: here the API docs.
    expect(await page.locator('.topbar-title').first().innerText()).toBe('API docs (REST reference)');
    expect(await card.getByTestId('needs-admin-why').innerText()).toBe(
      'The API docs describe the hub’s admin routes, so only admin devices open them.',
    );
    expect(await card.getByTestId('admin-how-to').locator('code').innerText()).toBe('zcode-hub pair --scope admin');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeBothThemes(page, 'needs admin')).toEqual([]);
    await shoot(page, 'edges-docs-operate');
    expect(phone.errors.slice(before)).toEqual([]);
    // Back goes to the sessions.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();

    // Another admin page names itself, not the API docs (people, tokens, public addresses), and
    // an address the app has no name for is shown as it was opened.
    for (const [path, title, why] of [
      ['/api/people', 'People', 'The people list, and which person each device belongs to, is managed from admin devices only.'],
      ['/api/tokens', 'Device tokens', 'Device tokens (pairing, renaming and revoking devices) are managed from admin devices only.'],
      [
        '/api/settings/public-urls',
        'Public addresses',
        'The addresses this hub answers to (its public URL, tunnels) are managed from admin devices only.',
      ],
      ['/api/peers', 'Admin only', 'The address you opened, /api/peers, is for admin devices only.'],
    ] as const) {
      await page.goto(`${hub.url}${path}`);
      await page.waitForURL((u) => u.pathname === '/needs-admin' && u.searchParams.get('from') === path);
      await card.getByTestId('needs-admin-why').getByText(why).waitFor();
      expect(await page.locator('.topbar-title').first().innerText(), path).toBe(title);
      expect(await card.getByTestId('admin-how-to').locator('code').innerText()).toBe('zcode-hub pair --scope admin');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    }
    await shoot(page, 'edges-people-operate');
    expect(phone.errors.slice(before)).toEqual([]);

    const admin = await openDevice();
    try {
      await pair(admin, hub, 'Edges admin', 'admin');
      await admin.page.goto(`${hub.url}/docs`);
      await admin.page.getByText('REST API of the zcode-hub daemon').waitFor();
      expect(await admin.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await shoot(admin.page, 'edges-docs-admin');
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.close();
    }
  });

  it('an operate-only address on a view device is the app’s needs-operate page with the command, not the JSON 403', async () => {
    const viewer = await openDevice();
    try {
      await pair(viewer, hub, 'Edges viewer', 'view');
      const { page } = viewer;
      await page.goto(`${hub.url}/api/workspaces`);
      const card = page.getByTestId('needs-operate');
      await card.waitFor();
      expect(new URL(page.url()).pathname).toBe('/needs-operate');
      expect(await card.getByRole('heading').innerText()).toBe('This page needs an operate device');
      expect(await card.getByTestId('operate-how-to').locator('code').innerText()).toBe('zcode-hub pair');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(await axeBothThemes(page, 'needs operate')).toEqual([]);
      await shoot(page, 'edges-operate-view');
      expect(viewer.errors).toEqual([]);
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('heading', { name: 'Sessions' }).waitFor();

      // A session nobody has prompted yet: no pickers for a view device and no usage for the
      // meter, so no config bar at all (it was an empty bordered strip under the header).
      const editor = await hub.initializedClient({ name: 'editor' });
      const { sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
      await page.goto(`${hub.url}/s/${sessionId}`);
      await page.getByText('Beginning of the conversation').waitFor();
      expect(await page.locator('.config-bar').evaluateAll((bars) => bars.filter((b) => b.childElementCount === 0).length)).toBe(0);
      await editor.close();
    } finally {
      await viewer.close();
    }
  });
});
