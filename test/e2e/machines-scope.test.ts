/**
 * The Machines page says what each action did and what a device may do, at 390×844 with two real
 * hubs on loopback (A "laptop" the phone's home at localhost, B "desktop" at 127.0.0.1):
 * removing B while A is down says which steps happened (B revoked the key, the phone dropped it)
 * and that A still lists B until a retry reaches it; a view device is told before it taps that
 * adding a machine needs operate on A (A's CSP is never widened for it), unless A already lists
 * that machine at that address (pairing it again widens nothing); a view device that still
 * holds a key for B is told why A's page cannot reach B, and what removing it did.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { openDevice, PHONE, type Device } from './support/browser.js';
import { shoot } from './support/flow.js';
import { addLink, addMachine, identityOf, machineRow, pairHome, twoMachines, type Machine } from './support/machines.js';

const { a, b, phone } = twoMachines();

/** A's CSP `connect-src` as any page of it gets it now. */
async function connectSrc(m: Machine): Promise<string> {
  const csp = (await fetch(`${m.url}/api/health`)).headers.get('content-security-policy') ?? '';
  return /connect-src [^;]*/.exec(csp)?.[0] ?? '';
}

/** Active tokens named `name` on a machine (its admin REST). */
async function activeTokens(m: Machine, name: string): Promise<Array<{ id: string }>> {
  const all = (await (await m.hub.api('/api/tokens')).json()) as { tokens: Array<{ id: string; name: string; state: string }> };
  return all.tokens.filter((t) => t.name === name && t.state === 'active');
}

/** A's operate token for the device is revoked (its machines list there goes with it); it pairs with A again, as view. */
async function pairAgainAsView(device: Device, name: string, beforePairing?: () => Promise<void>): Promise<void> {
  for (const t of await activeTokens(a, name)) expect((await a.hub.api(`/api/tokens/${t.id}`, { method: 'DELETE' })).status).toBe(200);
  await device.context.clearCookies();
  await beforePairing?.();
  await pairHome(device, a, name, 'view');
}

async function removeRow(page: Page, hubId: string): Promise<void> {
  page.once('dialog', (d) => void d.accept());
  await machineRow(page, hubId).getByTestId('machine-remove').click();
}

describe('the Machines page: every step said as it went, and what a view device may do', () => {
  it('removing B while A is down: B revoked the key and it is gone here, A still lists B until a retry reaches it', async () => {
    const { page } = phone;
    const hubB = (await identityOf(b)).hubId;
    await pairHome(phone, a, 'Test phone');
    await addMachine(page, b, a.url, 'Add desktop, scope operate?');
    await page.goto(`${a.url}/settings/machines`);
    await machineRow(page, hubB).and(page.locator('[data-status="online"]')).waitFor();
    expect(await connectSrc(a)).toContain(b.url);

    const card = page.getByTestId('machine-remove-outcome');
    await a.stop();
    try {
      await removeRow(page, hubB);
      await card.and(page.locator('[data-unlisted="false"]')).waitFor();
      expect(await card.textContent()).toBe(
        [
          'desktop revoked this phone’s key.',
          'This phone’s key for desktop is deleted.',
          `laptop still lists desktop, so its pages may still connect to ${b.url} (it could not be reached). Try again once laptop answers.`,
          'Try again',
        ].join(''),
      );
      // Never "removed" for a step that did not happen.
      expect(await page.getByTestId('toast').allTextContents()).not.toContain('desktop removed; it revoked this phone’s key.');
      expect(await page.getByTestId('machine-row').count()).toBe(0);
      expect(await activeTokens(b, 'Test phone')).toEqual([]);
      await shoot(page, 'machine-unlist-failed');
      expect(await axeBothThemes(page, 'machine-unlist-failed')).toEqual([]);
    } finally {
      // Back whatever happened above, so the tests after this one find A running.
      await a.start();
    }

    // A is back: it still lists B (the failed step is not pretended), and the retry unlists it.
    expect(await connectSrc(a)).toContain(b.url);
    await card.getByTestId('machine-unlist-retry').click();
    await card.and(page.locator('[data-unlisted="true"]')).waitFor();
    expect(await card.textContent()).toContain('laptop does not list desktop.');
    expect(await connectSrc(a)).toBe("connect-src 'self'");
  });

  it('a view device opening an add link is told, before it taps, that adding needs operate on A; A’s CSP stays as it was', async () => {
    const viewer = await openDevice({ viewport: PHONE });
    try {
      const { page } = viewer;
      await pairHome(viewer, a, 'View phone', 'view');
      await page.goto(await addLink(b, a.url));
      const sheet = page.getByTestId('add-machine-sheet');
      await sheet.getByTestId('add-machine-question').filter({ hasText: 'Add desktop, scope operate?' }).waitFor();
      const why = sheet.getByTestId('operate-only');
      await why.waitFor();
      expect(await why.textContent()).toContain(
        'Adding a machine lets this hub’s pages connect to it, and only an operate device may allow that: this device is paired with view here.',
      );
      expect(await why.getByTestId('operate-how-to').locator('code').textContent()).toBe('zcode-hub pair');
      expect(await sheet.getByTestId('add-machine-confirm').count()).toBe(0);
      await shoot(page, 'machine-add-view');
      expect(await axeBothThemes(page, 'machine-add-view')).toEqual([]);
      await sheet.locator('.actions').getByRole('button', { name: 'Close' }).click();
      await sheet.waitFor({ state: 'detached' });
      // Nothing was asked of A: its pages still reach no other machine, and B spent no code on it.
      expect(await connectSrc(a)).toBe("connect-src 'self'");
      expect(await activeTokens(b, 'View phone')).toEqual([]);

      // The Machines page says the same in place of the command it cannot use.
      await page.goto(`${a.url}/settings/machines`);
      const view = page.getByTestId('machines-view');
      await view.getByTestId('operate-only').waitFor();
      expect(await view.textContent()).toContain('No other machines on this phone.');
      expect(await view.getByTestId('fix-command').count()).toBe(0);
      await shoot(page, 'machines-view-device');
      expect(await axeBothThemes(page, 'machines-view-device')).toEqual([]);
      // A link to a session of a machine it has no key for: the same, not a command it cannot use.
      const hubB = (await identityOf(b)).hubId;
      await page.goto(`${a.url}/m/${hubB}/s/some-session`);
      const unknown = page.getByTestId('unknown-machine');
      await unknown.getByTestId('operate-only').waitFor();
      expect(await unknown.getByTestId('fix-command').count()).toBe(0);
    } finally {
      await viewer.close();
    }
  });

  it('a view device that still holds a key for B: its row says why A’s page cannot reach B; removing it says what each step did', async () => {
    const { page } = phone;
    const hubB = (await identityOf(b)).hubId;
    await addMachine(page, b, a.url, 'Add desktop, scope operate?');
    expect(await activeTokens(b, 'Test phone')).toHaveLength(1);
    await pairAgainAsView(phone, 'Test phone');
    await page.goto(`${a.url}/settings/machines`);
    const row = machineRow(page, hubB);
    await row.getByTestId('machine-unlisted-help').waitFor();
    expect(await row.getByTestId('machine-unlisted-help').textContent()).toContain(
      'This phone has a key for desktop, but this hub would not let its pages connect there: this device is paired with view here',
    );
    // Not the peers command: B is not what refuses. How to get operate is said once, under the list.
    expect(await row.getByTestId('fix-command').count()).toBe(0);
    await page.getByTestId('machines-view').getByTestId('operate-how-to').waitFor();
    expect(await connectSrc(a)).toBe("connect-src 'self'");
    await shoot(page, 'machine-view-unlisted');
    expect(await axeBothThemes(page, 'machine-view-unlisted')).toEqual([]);

    // A's page cannot reach B to revoke the key: the card says so, with the command for B.
    await removeRow(page, hubB);
    const card = page.getByTestId('machine-remove-outcome');
    await card.waitFor();
    await card.getByTestId('machine-removed-offline').getByTestId('fix-command').filter({ hasText: 'zcode-hub token revoke' }).waitFor();
    expect(await card.textContent()).toContain('This phone’s key for desktop is deleted.');
    expect(await card.textContent()).toContain('laptop does not list desktop.');
    expect(await page.getByTestId('machine-row').count()).toBe(0);
    expect(await activeTokens(b, 'Test phone')).toHaveLength(1);
  });

  it('a view device whose home lists B for every device (a first-version list): removing B says A refused to unlist it, and why', async () => {
    const other = await openDevice({ viewport: PHONE });
    try {
      const { page } = other;
      const hubB = (await identityOf(b)).hubId;
      await pairHome(other, a, 'Other phone');
      await addMachine(page, b, a.url, 'Add desktop, scope operate?');
      await pairAgainAsView(other, 'Other phone', async () => {
        // A's list as a hub from before per-device lists kept it: one entry shared by every device.
        await a.stop();
        fs.writeFileSync(
          path.join(a.hub.stateDir, 'machines.json'),
          JSON.stringify({ version: 1, machines: [{ hubId: hubB, url: b.url, name: 'desktop', addedAt: 1 }] }),
          { mode: 0o600 },
        );
        await a.start();
      });
      await page.goto(`${a.url}/settings/machines`);
      await machineRow(page, hubB).and(page.locator('[data-status="online"]')).waitFor();
      expect(await connectSrc(a)).toContain(b.url);

      await removeRow(page, hubB);
      const card = page.getByTestId('machine-remove-outcome');
      await card.and(page.locator('[data-unlisted="false"]')).waitFor();
      expect(await card.textContent()).toContain('desktop revoked this phone’s key.');
      expect(await card.textContent()).toContain('This phone’s key for desktop is deleted.');
      expect(await card.getByTestId('machine-unlist-refused').textContent()).toBe(
        `laptop still lists desktop, so its pages may still connect to ${b.url}: this device is paired with view on laptop, and only an operate device changes that list.`,
      );
      await page.getByTestId('machines-view').getByTestId('operate-how-to').waitFor();
      expect(await card.getByTestId('machine-unlist-retry').count()).toBe(0);
      expect(await activeTokens(b, 'Other phone')).toEqual([]);
      expect(await connectSrc(a)).toContain(b.url);
      await shoot(page, 'machine-unlist-refused');
      expect(await axeBothThemes(page, 'machine-unlist-refused')).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('a view device may pair again a machine A already lists (nothing new reaches A’s CSP), and no other', async () => {
    // A still lists B for every device (the first-version entry the test before could not unlist).
    const listedBefore = fs.readFileSync(path.join(a.hub.stateDir, 'machines.json'), 'utf8');
    const cspBefore = await connectSrc(a);
    expect(cspBefore).toContain(b.url);
    const viewer = await openDevice({ viewport: PHONE });
    try {
      const { page } = viewer;
      const hubB = (await identityOf(b)).hubId;
      await pairHome(viewer, a, 'Viewer phone', 'view');
      const sheet = page.getByTestId('add-machine-sheet');
      // Asked as an operate device is: the button, no refusal.
      await addMachine(page, b, a.url, 'Add desktop, scope operate?', async () => {
        await sheet.getByTestId('add-machine-confirm').waitFor();
        expect(await sheet.getByTestId('operate-only').count()).toBe(0);
        await shoot(page, 'machine-repair-view');
      });
      await page.goto(`${a.url}/settings/machines`);
      await machineRow(page, hubB).and(page.locator('[data-status="online"]')).waitFor();
      expect(await activeTokens(b, 'Viewer phone')).toHaveLength(1);

      // Its key for B is revoked; the owner gives it a new link: paired again, as before.
      for (const t of await activeTokens(b, 'Viewer phone'))
        expect((await b.hub.api(`/api/tokens/${t.id}`, { method: 'DELETE' })).status).toBe(200);
      await addMachine(page, b, a.url, 'Add desktop, scope operate?');
      await page.goto(`${a.url}/settings/machines`);
      await machineRow(page, hubB).and(page.locator('[data-status="online"]')).waitFor();
      expect(await activeTokens(b, 'Viewer phone')).toHaveLength(1);
      // Nothing was listed or unlisted for it: A's list and CSP are what they were.
      expect(fs.readFileSync(path.join(a.hub.stateDir, 'machines.json'), 'utf8')).toBe(listedBefore);
      expect(await connectSrc(a)).toBe(cspBefore);

      // The same machine at an address A does not list is a new listing: refused with the same sentence, before the tap.
      const elsewhere = (await addLink(b, a.url)).replace(
        encodeURIComponent(b.url),
        encodeURIComponent(b.url.replace('127.0.0.1', 'localhost')),
      );
      expect(elsewhere).toContain(encodeURIComponent('http://localhost:'));
      await page.goto(elsewhere);
      await sheet.getByTestId('add-machine-question').waitFor();
      const why = sheet.getByTestId('operate-only');
      await why.waitFor();
      expect(await why.textContent()).toContain(
        'Adding a machine lets this hub’s pages connect to it, and only an operate device may allow that: this device is paired with view here.',
      );
      expect(await sheet.getByTestId('add-machine-confirm').count()).toBe(0);
      expect(await connectSrc(a)).toBe(cspBefore);
    } finally {
      await viewer.close();
    }
  });
});
