/**
 * A chat on another machine names that machine in its header, at 390×844: two real hubs on
 * loopback (A the phone's home at localhost, B at 127.0.0.1), B added from A's app.
 */
import { describe, expect, it } from 'vitest';
import { PHONE } from './support/browser.js';
import { newSession, sendPrompt, shoot, waitIdle } from './support/flow.js';
import { addMachine, identityOf, newSessionOn, pairHome, twoMachines } from './support/machines.js';

const { a, b, phone } = twoMachines();

describe('the machine of a chat', () => {
  it('a chat on another machine shows that machine’s name in its header; a chat on the home hub does not', async () => {
    const { page } = phone;
    await pairHome(phone, a, 'Header phone');
    await addMachine(page, b, a.url, 'Add desktop, scope operate?');
    const hubB = (await identityOf(b)).hubId;
    const header = page.locator('header.topbar');

    // On B: the header's chip names it, beside the session's state.
    await page.goto(a.url);
    await newSessionOn(page, hubB);
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/m/${hubB}/s/`));
    await sendPrompt(page, 'hello desktop');
    await page.getByTestId('agent-message').filter({ hasText: 'go further' }).waitFor();
    await waitIdle(page);
    const chip = header.getByTestId('machine-chip');
    await expect.poll(() => chip.innerText()).toBe('desktop');
    expect(await chip.getAttribute('data-hub-id')).toBe(hubB);
    // Inside the phone's width, next to the title.
    const box = (await chip.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, 'chat-other-machine');

    // On A (home): no chip.
    await page.goto(a.url);
    await page.getByTestId('machine-filter').and(page.locator('[data-filter=""]')).click();
    await newSession(page);
    expect(new URL(page.url()).pathname).toMatch(/^\/s\//);
    expect(await header.getByTestId('machine-chip').count()).toBe(0);
    expect(phone.errors).toEqual([]);
  });
});
