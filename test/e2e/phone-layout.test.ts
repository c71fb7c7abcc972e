/**
 * The phone layout at 390×844: the config bar shows three pickers and the context meter without
 * clipping any of them; tool titles show paths relative to the workspace and their inline code as
 * code, in the chat and in the inbox; the plan is pinned above the composer only for its own turn;
 * a session's preview does not glue the answer's heading to its first sentence; an operate
 * device's settings say how to get admin.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.3'] } });

/** Each element of `selector` inside the screen, and each select wide enough for its chosen text. */
async function nothingClipped(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els, width) => {
    const out: string[] = [];
    for (const el of els as HTMLElement[]) {
      const r = el.getBoundingClientRect();
      const name = el.getAttribute('data-testid') ?? el.className;
      if (r.left < 0 || r.right > width) out.push(`${name} is outside the screen (${Math.round(r.left)}–${Math.round(r.right)})`);
      if (el instanceof HTMLSelectElement) {
        // The chosen option's text, in the select's font, plus its padding and the arrow.
        const probe = document.createElement('span');
        const cs = getComputedStyle(el);
        probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${cs.font};letter-spacing:${cs.letterSpacing}`;
        probe.textContent = el.selectedOptions[0]?.textContent ?? '';
        document.body.append(probe);
        const need = probe.getBoundingClientRect().width + Number.parseFloat(cs.paddingLeft) + 18;
        probe.remove();
        if (el.clientWidth < need) out.push(`${name} cuts “${probe.textContent}” (${el.clientWidth} < ${Math.ceil(need)})`);
      }
    }
    return out;
  }, PHONE.width);
}

describe('phone layout at 390 px', () => {
  it('the config bar shows model, mode, thinking level and the context meter without clipping any', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Layout phone');
    await newSession(page);
    await page.getByTestId('picker-model').selectOption({ label: 'Sim Pro' });
    await page.getByTestId('picker-thought_level').selectOption('medium');
    await sendPrompt(page, 'hello there');
    await waitIdle(page);
    await page.getByTestId('context-meter').waitFor();
    expect(await page.locator('.config-bar select').count()).toBe(3);
    expect(await page.locator('.config-bar').evaluate((bar) => bar.scrollWidth <= bar.clientWidth)).toBe(true);
    expect(await nothingClipped(page, '.config-bar select, .config-bar [data-testid=context-meter]')).toEqual([]);
    await shoot(page, 'config-bar-three');
  });

  it('tool titles show workspace-relative paths and inline code as code, in the chat and the inbox', async () => {
    const { page } = phone;
    // The last turn's Read card: README.md of the workspace, not its absolute path.
    const read = page.getByTestId('tool-card').filter({ hasText: 'Read' }).last();
    expect(await read.locator('.tool-title').innerText()).toBe('Read README.md');
    expect(await read.innerText()).not.toContain(hub.workspace);
    // A command is shown as code, without the backticks of the title.
    await sendPrompt(page, 'run the tests, permission needed');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('perm-command').waitFor();
    await sheet.getByRole('button', { name: 'Later' }).click();
    const bash = page.getByTestId('tool-card').filter({ hasText: 'npm test' }).last();
    expect(await bash.locator('.tool-title code').allInnerTexts()).toEqual(['npm test']);
    expect(await bash.locator('.tool-title').innerText()).not.toContain('`');
    // …and not repeated under the title.
    expect(await bash.locator('.tool-input').count()).toBe(0);
    await shoot(page, 'tool-titles');
    await page.getByTestId('inbox-button').click();
    const row = page.getByTestId('inbox-row').first();
    await row.waitFor();
    expect(await row.locator('.inbox-title code').allInnerTexts()).toEqual(['npm test']);
    expect(await row.locator('.inbox-title').innerText()).not.toContain('`');
    await shoot(page, 'inbox-titles');
    await row.getByTestId('inbox-answer').click();
    await page.getByTestId('interaction-sheet').getByRole('button', { name: 'Allow once' }).click();
    await page.getByTestId('interaction-sheet').waitFor({ state: 'detached' });
    await page.goBack();
    await waitIdle(page);
  });

  it('"Plan · 3/3" is pinned for the turn that made it, not for the turns after it (live and after a reload)', async () => {
    const { page } = phone;
    const plan = page.getByTestId('plan');
    await sendPrompt(page, 'keep a todo list');
    await waitIdle(page);
    await expect.poll(() => plan.locator('summary').innerText()).toBe('Plan · 3/3');
    await sendPrompt(page, 'a plain answer now');
    await expect.poll(() => plan.count()).toBe(0);
    await waitIdle(page);
    expect(await plan.count()).toBe(0);
    await shoot(page, 'plan-not-pinned');
    await page.reload();
    await page.getByTestId('agent-message').filter({ hasText: 'a plain answer now' }).waitFor();
    expect(await plan.count()).toBe(0);
  });

  it('the session preview keeps the answer’s heading apart from its text', async () => {
    const { page } = phone;
    await page.getByRole('button', { name: 'Back' }).click();
    const preview = page.getByTestId('session-preview').first();
    await expect.poll(() => preview.innerText()).toMatch(/^Answer · You asked: a plain answer now\. Here is what I found:/);
    await shoot(page, 'session-preview');
  });

  it('an operate device’s settings and read-only rules say how to get admin, with the real command', async () => {
    const { page } = phone;
    await page.goto(`${hub.url}/settings`);
    const how = page.getByTestId('admin-how-to');
    await how.waitFor();
    expect(await how.locator('code').innerText()).toBe('zcode-hub pair --scope admin');
    expect(await how.innerText()).toMatch(
      /^To make this device an admin, run zcode-hub pair --scope admin on the computer that runs the hub/,
    );
    await shoot(page, 'settings-operate');
    await page.goto(`${hub.url}/settings/policy`);
    await page.getByTestId('policy-read-only').getByTestId('admin-how-to').waitFor();
    await page.goto(`${hub.url}/settings/devices`);
    expect(await page.getByTestId('admin-how-to').locator('code').innerText()).toBe('zcode-hub pair --scope admin');
  });
});
