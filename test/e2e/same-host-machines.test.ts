/**
 * Two machines on one host name: A at http://127.0.0.1:PA (the phone's home) and B at
 * http://127.0.0.1:PB. The browser sends every cookie of 127.0.0.1 to both ports, so B's socket
 * upgrade, opened by A's app with a ticket, carries A's web-app cookie too. B must take the
 * ticket and show as online, not refuse it and leave the app saying "offline". And a profile
 * paired with each hub's own app keeps both: pairing B must not sign it out of A, and a refusal
 * on one hub (its device revoked) is named as that refusal, never "offline", while the other
 * hub's app carries on.
 */
import { describe, expect, it } from 'vitest';
import { openDevice, PHONE_390 } from './support/browser.js';
import { addMachine, identityOf, machineRow, pairHome, twoMachines } from './support/machines.js';

const { a, b, phone } = twoMachines('127.0.0.1');

describe('two machines on one host name', () => {
  it('A’s app adds B on another port of 127.0.0.1: B is online, each hub keeps its own cookie', async () => {
    const { page } = phone;
    await pairHome(phone, a, 'Same-host phone');
    const hubB = (await identityOf(b)).hubId;
    await addMachine(page, b, a.url, 'Add desktop, scope operate?');
    await page.goto(`${a.url}/settings/machines`);
    const status = machineRow(page, hubB).getByTestId('machine-status');
    await expect.poll(async () => (await status.textContent()) ?? '', { timeout: 30_000 }).toMatch(/^online/);
    // The browser holds A's cookie for the host, under A's own name: B never takes it for its own.
    const names = (await phone.context.cookies(a.url)).map((c) => c.name).filter((n) => n.startsWith('zcode_hub_token'));
    const hubA = (await identityOf(a)).hubId;
    expect(names).toEqual([`zcode_hub_token_${hubA.replace(/-/g, '')}`]);
  });

  it('pairing B keeps A signed in; A revoking its device says so on A while B carries on', async () => {
    // A profile of its own: the first test's phone holds a DPoP key for B, not B's cookie.
    const profile = await openDevice({ viewport: PHONE_390 });
    try {
      const { page, context } = profile;
      await pairHome(profile, a, 'Phone on A');
      await pairHome(profile, b, 'Phone on B');
      const hubA = (await identityOf(a)).hubId;
      const hubB = (await identityOf(b)).hubId;
      const names = (await context.cookies(a.url)).map((c) => c.name).filter((n) => n.startsWith('zcode_hub_token'));
      const cookieName = (hubId: string) => `zcode_hub_token_${hubId.replace(/-/g, '')}`;
      expect(names.sort()).toEqual([cookieName(hubA), cookieName(hubB)].sort());

      // Back on A's app: still signed in with A's own cookie, B's beside it notwithstanding.
      await page.goto(a.url);
      await page.getByRole('heading', { name: 'Sessions' }).waitFor();

      // A's admin revokes this browser's token on A.
      const list = (await (await a.hub.api('/api/tokens')).json()) as { tokens: Array<{ id: string; name: string }> };
      const mine = list.tokens.find((t) => t.name === 'Phone on A');
      expect(mine).toBeDefined();
      expect((await a.hub.api(`/api/tokens/${mine!.id}`, { method: 'DELETE' })).status).toBeLessThan(300);

      await page.goto(a.url);
      await page.getByLabel('Pairing code').waitFor();
      const body = await page.locator('body').innerText();
      expect(body).toContain('This device was signed out: its access was revoked by an admin or has expired. Pair it again to continue.');
      expect(body).not.toMatch(/offline/i);

      // B never heard of A's revocation: its app opens signed in.
      await page.goto(b.url);
      await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    } finally {
      await profile.close();
    }
  });
});
