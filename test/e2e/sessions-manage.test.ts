/**
 * Managing sessions on a 390×844 phone (in part): rename from the chat's
 * title, delete it there, search by title, last activity on each row; the new-session sheet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Device } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.3'] } });

async function sessionWith(page: Device['page'], prompt: string): Promise<void> {
  await newSession(page);
  await sendPrompt(page, prompt);
  await waitIdle(page);
}

describe('managing sessions', () => {
  it('renames from the chat title, then finds it by searching; rows show their last activity', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Sessions phone');
    await sessionWith(page, 'Explain the cart');
    await page.getByTestId('title-button').click();
    const sheet = page.getByTestId('rename-sheet');
    await sheet.waitFor();
    await sheet.getByTestId('rename-input').fill('Checkout redesign');
    await sheet.getByTestId('rename-save').click();
    await sheet.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('title-button').innerText()).toBe('Checkout redesign');
    // The hub has it too (another device, or a reload, sees the new name).
    const sessions = (await (await hub.api('/api/sessions')).json()) as { sessions: Array<{ title?: string }> } | Array<{ title?: string }>;
    const list = Array.isArray(sessions) ? sessions : sessions.sessions;
    expect(list.map((x) => x.title)).toContain('Checkout redesign');

    await page.getByRole('button', { name: 'Back' }).click();
    await sessionWith(page, 'Look at the login page');
    await page.getByRole('button', { name: 'Back' }).click();
    const rows = page.getByTestId('session-row');
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => page.getByTestId('session-age').first().innerText()).toMatch(/just now|min ago/);
    await page.getByTestId('session-search').fill('checkout');
    await expect.poll(() => rows.locator('.session-title').allInnerTexts()).toEqual(['Checkout redesign']);
    await shoot(page, 'sessions-search');
    await page.getByTestId('session-search').fill('nothing like this');
    await expect.poll(() => rows.count()).toBe(0);
    await page.getByText('No session matches').waitFor();
    expect(phone.errors).toEqual([]);
  });

  it('rows preview the last message; archive hides a session until the Archived filter shows it; unarchive brings it back', async () => {
    const { page } = phone;
    const rows = page.getByTestId('session-row');
    const checkout = rows.filter({ hasText: 'Checkout redesign' });
    await page.getByTestId('session-search').fill('');
    // The last message is the agent's answer to "Explain the cart".
    await expect.poll(() => checkout.getByTestId('session-preview').innerText()).not.toBe('');
    await checkout.click();
    await page.getByTestId('title-button').click();
    await page.getByTestId('rename-sheet').getByTestId('archive-session').click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await expect.poll(() => rows.locator('.session-title').allInnerTexts()).not.toContain('Checkout redesign');
    const filter = page.getByTestId('archived-filter');
    await expect.poll(() => filter.innerText()).toBe('Archived (1)');
    // Another device (and a reload) sees it archived: the flag is the hub's.
    const listed = (await (await hub.api('/api/sessions?includeArchived=true')).json()) as {
      sessions: Array<{ title?: string; archived: boolean }>;
    };
    expect(listed.sessions.find((x) => x.title === 'Checkout redesign')?.archived).toBe(true);
    await page.reload();
    await filter.click();
    expect(await filter.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => rows.locator('.session-title').allInnerTexts()).toEqual(['Checkout redesign']);
    await shoot(page, 'sessions-archived');
    await page.getByTestId('unarchive').click();
    // The last archived one is back: the filter goes away and the list shows everything again.
    await filter.waitFor({ state: 'detached' });
    await expect.poll(() => rows.locator('.session-title').allInnerTexts()).toContain('Checkout redesign');
    expect(phone.errors).toEqual([]);
  });

  it('new session: recent workspaces are one tap; a folder that does not exist is refused and never becomes the default', async () => {
    const { page } = phone;
    const other = path.join(hub.workspace, 'shop');
    fs.mkdirSync(other, { recursive: true });
    const c = await hub.initializedClient({ name: 'other-editor' });
    await c.request('session/new', { cwd: other, mcpServers: [] });
    await page.reload();
    // The roots arrive late (a slow tunnel): the recent chips must not show the root meanwhile
    // and then shift under a finger when the roots come.
    // (The page's own fetch is slowed: the service worker keeps Playwright's routing out.)
    await page.evaluate(() => {
      const real = window.fetch.bind(window);
      window.fetch = (input, init) =>
        String(input).startsWith('/api/workspaces')
          ? new Promise((r) => setTimeout(r, 1000)).then(() => real(input, init))
          : real(input, init);
    });
    await page.getByTestId('new-session').click();
    const sheet = page.getByTestId('new-session-sheet');
    const recent = sheet.getByTestId('recent-workspaces');
    await recent.waitFor();
    expect(await recent.getByRole('button').allInnerTexts()).toEqual(['shop']);
    // The workspace root is offered apart from the recent folders.
    expect(await sheet.getByTestId('workspace-roots').getByRole('button').allInnerTexts()).toEqual([path.basename(hub.workspace)]);
    await recent.getByRole('button', { name: 'shop' }).click();
    expect(await sheet.locator('input[name=cwd]').inputValue()).toBe(other);
    await shoot(page, 'new-session');
    await sheet.locator('input[name=cwd]').fill('/does/not/exist');
    await sheet.getByRole('button', { name: 'Create' }).click();
    // Refused before it reaches the hub, naming where a session may work.
    await expect.poll(() => sheet.getByRole('alert').innerText()).toContain(`Pick a folder inside: ${hub.workspace}`);
    // Inside the root but missing: the hub's own refusal.
    await sheet.locator('input[name=cwd]').fill(path.join(hub.workspace, 'nope'));
    await sheet.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => sheet.getByRole('alert').innerText()).toMatch(/No such folder: .*nope/);
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('new-session').click();
    expect(await page.getByTestId('new-session-sheet').locator('input[name=cwd]').inputValue()).not.toBe('/does/not/exist');
    await page.getByTestId('new-session-sheet').getByRole('button', { name: 'Cancel' }).click();
    // A sheet closes by a tap outside it and by Escape; the buttons are real buttons.
    await page.getByTestId('new-session').click();
    await page.getByTestId('new-session-sheet').waitFor();
    await page.mouse.click(195, 60);
    await page.getByTestId('new-session-sheet').waitFor({ state: 'detached' });
    await page.getByTestId('new-session').click();
    await page.getByTestId('new-session-sheet').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('new-session-sheet').waitFor({ state: 'detached' });
    // An Escape in the very task the sheet appears in (before any frame is painted) closes it too:
    // a sheet that starts listening a frame late loses the key of a fast user, or a loaded machine.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const seen = new MutationObserver(() => {
            if (!document.querySelector('[data-testid=new-session-sheet]')) return;
            seen.disconnect();
            (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
            resolve();
          });
          seen.observe(document.body, { childList: true, subtree: true });
          document.querySelector<HTMLElement>('[data-testid=new-session]')!.click();
        }),
    );
    await page.getByTestId('new-session-sheet').waitFor({ state: 'detached', timeout: 5_000 });
    expect(await page.locator('button:not([type])').count()).toBe(0);
  });

  it('deletes a session from its title sheet, after a confirm', async () => {
    const { page } = phone;
    const rows = page.getByTestId('session-row');
    const before = await rows.count();
    await rows.filter({ hasText: 'Look at the login page' }).click();
    await page.getByTestId('title-button').click();
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('rename-sheet').getByTestId('delete-session').click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await expect.poll(() => rows.count()).toBe(before - 1);
    expect(await rows.locator('.session-title').allInnerTexts()).not.toContain('Look at the login page');
    const listed = (await (await hub.api('/api/sessions')).json()) as { sessions: Array<{ title?: string }> };
    expect(listed.sessions.map((x) => x.title)).not.toContain('Look at the login page');
    // With every session archived the list says so, instead of "No sessions yet".
    const left = (await (await hub.api('/api/sessions')).json()) as { sessions: Array<{ sessionId: string }> };
    for (const x of left.sessions)
      await hub.api(`/api/sessions/${x.sessionId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ archived: true }),
      });
    await expect.poll(() => rows.count()).toBe(0);
    await page.getByText('Every session is archived').waitFor();
    await page.getByTestId('archived-filter').waitFor();
  });
});
