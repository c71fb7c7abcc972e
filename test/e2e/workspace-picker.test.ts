/**
 * Picking a workspace on a 390×844 phone: the hub's workspace roots are one tap
 * away, folders inside them can be browsed (never out of them), and a path outside is refused
 * with the roots named instead of silently becoming the default.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { pair, shoot } from './support/flow.js';

let top = '';
let projects = '';
let infra = '';

const { hub, phone } = phoneHub({
  hub: () => {
    top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'picker-roots-')));
    projects = path.join(top, 'projects');
    infra = path.join(top, 'infra');
    for (const d of ['projects/shop/web', 'projects/blog', 'projects/.cache', 'infra'])
      fs.mkdirSync(path.join(top, d), { recursive: true });
    return { config: { workspace: projects, workspaces: [projects, infra] } };
  },
});
afterAll(() => {
  if (top) fs.rmSync(top, { recursive: true, force: true });
});

describe('the new-session workspace picker', () => {
  it('offers the roots, browses folders inside them, and opens the session in the picked one', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Picker phone');
    await page.getByTestId('new-session').click();
    const sheet = page.getByTestId('new-session-sheet');
    const roots = sheet.getByTestId('workspace-roots');
    await expect.poll(() => roots.getByRole('button').allInnerTexts()).toEqual(['projects', 'infra']);
    // The default (first) root is pre-selected.
    expect(await sheet.locator('input[name=cwd]').inputValue()).toBe(projects);
    await roots.getByRole('button', { name: 'infra' }).click();
    expect(await sheet.locator('input[name=cwd]').inputValue()).toBe(infra);

    await roots.getByRole('button', { name: 'projects' }).click();
    await sheet.getByTestId('browse-folders').click();
    const browser = sheet.getByTestId('folder-browser');
    const rows = browser.getByTestId('folder-row');
    // Hidden folders are not offered; at a root there is no way up.
    await expect.poll(() => rows.allInnerTexts()).toEqual(['blog', 'shop']);
    expect(await browser.getByTestId('folder-up').count()).toBe(0);
    await browser.getByRole('button', { name: 'Open shop' }).click();
    await expect.poll(() => browser.getByTestId('folder-path').innerText()).toBe('projects/shop');
    await expect.poll(() => rows.allInnerTexts()).toEqual(['web']);
    await shoot(page, 'new-session-browse');
    await browser.getByTestId('folder-up').click();
    await expect.poll(() => browser.getByTestId('folder-path').innerText()).toBe('projects');
    await browser.getByRole('button', { name: 'Open shop' }).click();
    await expect.poll(() => rows.allInnerTexts()).toEqual(['web']);
    await browser.getByTestId('folder-use').click();
    await browser.waitFor({ state: 'detached' });
    expect(await sheet.locator('input[name=cwd]').inputValue()).toBe(path.join(projects, 'shop'));

    await sheet.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('prompt-input').waitFor();
    const listed = (await (await hub.api('/api/sessions')).json()) as { sessions: Array<{ cwd: string }> };
    expect(listed.sessions.map((s) => s.cwd)).toEqual([path.join(projects, 'shop')]);
    expect(phone.errors).toEqual([]);
  });

  it('refuses a path outside the roots with the roots named; it never becomes the default', async () => {
    const { page } = phone;
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-session').click();
    const sheet = page.getByTestId('new-session-sheet');
    // The session just made is a recent workspace now, apart from the roots.
    await expect.poll(() => sheet.getByTestId('recent-workspaces').getByRole('button').allInnerTexts()).toEqual(['shop']);
    const input = sheet.locator('input[name=cwd]');
    for (const bad of ['/etc', 'projects/shop', top]) {
      await input.fill(bad);
      await sheet.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => sheet.getByRole('alert').innerText()).toBe(`Error: Pick a folder inside: ${projects}, ${infra}`);
    }
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await shoot(page, 'new-session-refused');
    // The hub refuses on its own too (a client that skips the check gets the same answer).
    const res = await hub.api('/api/workspaces/dirs?path=%2Fetc');
    expect(res.status).toBe(403);
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('new-session').click();
    expect(await page.getByTestId('new-session-sheet').locator('input[name=cwd]').inputValue()).not.toBe(top);
    await page.getByTestId('new-session-sheet').getByRole('button', { name: 'Cancel' }).click();
    const listed = (await (await hub.api('/api/sessions')).json()) as { sessions: Array<{ cwd: string }> };
    expect(listed.sessions).toHaveLength(1);
  });
});
