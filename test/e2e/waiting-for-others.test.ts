/**
 * A request only Ann may answer does not say "Needs you" on Bo's phone (docs/CLIENT-PROTOCOL.md
 * "Approval rules", `mayAnswer`): at 390×844 on a real daemon with the simulator child, Bo's
 * session list and chat header say "waiting for ann", the chat's banner says so with a View
 * (read-only) link and no sheet pops up; Ann's list says "Needs you".
 */
import type { Page } from 'playwright-core';
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
      { id: 'tests', description: 'tests need ann', match: { command: 'npm test' }, decide: 'ask', approvers: { people: ['ann'] } },
    ]);
  },
});

const fits = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
const rowBadge = (page: Page) => page.getByTestId('session-row').first().getByTestId('state-badge');

describe('waiting for someone else', () => {
  it('Bo’s list, chat header and banner say "waiting for ann", never "Needs you"; Ann’s list says "Needs you"', async () => {
    await pair(ann, hub, 'Ann phone', 'operate', 'ann');
    await pair(bo, hub, 'Bo phone', 'operate', 'bo');
    const a = ann.page;
    const b = bo.page;
    await newSession(a);
    const sessionUrl = a.url();
    await sendPrompt(a, 'run the tests, permission needed');
    await a.getByTestId('interaction-sheet').getByTestId('option-allow_once').waitFor();
    expect(await a.locator('.topbar').getByTestId('state-badge').innerText()).toBe('Needs you');

    // Bo's session list: the session waits, but not for Bo.
    await b.getByTestId('session-row').first().waitFor();
    await expect.poll(() => rowBadge(b).getAttribute('data-badge')).toBe('waiting');
    expect(await rowBadge(b).innerText()).toBe('waiting for ann');
    expect(await b.getByText('Needs you').count()).toBe(0);
    await fits(b);
    await shoot(b, 'waiting-for-ann-list');

    // Bo's chat: header and banner say for whom it waits; nothing pops up, nothing "waiting for you".
    await b.goto(sessionUrl);
    await b.getByTestId('prompt-input').waitFor();
    const banner = b.getByTestId('waiting-others');
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/^waiting for ann\s*View$/);
    expect(await b.locator('.topbar').getByTestId('state-badge').innerText()).toBe('waiting for ann');
    expect(await b.getByTestId('waiting-banner').count()).toBe(0);
    expect(await b.getByTestId('interaction-sheet').count()).toBe(0);
    expect(await b.getByText('Needs you').count()).toBe(0);
    await fits(b);
    await shoot(b, 'waiting-for-ann-chat');
    // View opens it read-only.
    await banner.getByTestId('waiting-view').click();
    const sheet = b.getByTestId('interaction-sheet');
    await sheet.getByTestId('perm-read-only').waitFor();
    expect(await sheet.locator('.perm-actions button').count()).toBe(0);
    await sheet.getByRole('button', { name: 'Later' }).click();

    // Ann allows: Bo's banner goes, the badge is no longer waiting.
    await a.getByTestId('interaction-sheet').getByTestId('option-allow_once').click();
    await waitIdle(a);
    await banner.waitFor({ state: 'detached' });
    await expect.poll(() => b.locator('.topbar').getByTestId('state-badge').getAttribute('data-badge')).not.toBe('waiting');
    expect([...ann.errors, ...bo.errors]).toEqual([]);
  });
});
