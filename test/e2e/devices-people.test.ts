/**
 * The Devices screen grouped by person (docs/SECURITY.md "People"), at phone size (390×844):
 * every active token under its person, a device moved to another person from the screen, and a
 * pairing code made for a person pairs a device that is that person's.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerSecret } from '../security/helpers/log-capture.js';
import { phoneHub } from './support/fixture.js';
import { pair, shoot } from './support/flow.js';

const { hub, phone } = phoneHub();

const personOf = async (name: string) => {
  const tokens = z.object({ tokens: z.array(z.object({ name: z.string(), person: z.string(), state: z.string() }).loose()) });
  return tokens.parse(await (await hub.api('/api/tokens')).json()).tokens.find((t) => t.name === name && t.state === 'active')?.person;
};

describe('devices by person', () => {
  it('groups devices by person, moves one to another person, and pairs a device for a person', async () => {
    const { page } = phone;
    await hub.token('operate', 'Ann phone', 'ann');
    await hub.token('view', 'Ann laptop', 'ann');
    await hub.token('operate', 'Bob tablet', 'bob');
    await pair(phone, hub, 'Admin phone', 'admin');
    await page.goto(`${hub.url}/settings/devices`);
    const people = page.getByTestId('person');
    await expect.poll(() => people.count()).toBe(4);
    const section = (person: string) => people.filter({ has: page.getByTestId('person-name').getByText(person, { exact: false }) });
    const devicesOf = (person: string) => section(person).getByTestId('device').locator('strong').allTextContents();
    expect(await page.getByTestId('person-name').allTextContents()).toEqual([
      'admin · admin token devices: 0',
      'Admin phone devices: 1',
      'ann devices: 2',
      'bob devices: 1',
    ]);
    expect((await devicesOf('ann devices')).sort()).toEqual(['Ann laptop', 'Ann phone']);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shoot(page, 'devices-people');

    // Bob's tablet becomes Ann's: the prompt asks whose it is.
    page.once('dialog', (d) => void d.accept('ann'));
    await section('bob devices').getByTestId('device').filter({ hasText: 'Bob tablet' }).getByRole('button', { name: 'Move' }).click();
    await expect.poll(() => people.count()).toBe(3);
    await expect.poll(async () => (await devicesOf('ann devices')).sort()).toEqual(['Ann laptop', 'Ann phone', 'Bob tablet']);
    expect(await personOf('Bob tablet')).toBe('ann');

    // A pairing code for bob: the device paired with it is bob's, whatever it calls itself.
    await page.getByLabel('For person (optional)').fill('bob');
    await page.getByRole('button', { name: 'Pair a new device' }).click();
    await page.getByText('Code for bob').waitFor();
    const code = (await page.locator('.big-code').innerText()).match(/[0-9A-Z]{5}-[0-9A-Z]{5}/)?.[0] ?? '';
    registerSecret(code);
    registerSecret(code.replace('-', ''));
    const res = await fetch(`${hub.url}/api/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, name: 'ann' }),
    });
    expect(res.status).toBe(200);
    const paired = z.object({ token: z.string(), person: z.string() }).parse(await res.json());
    registerSecret(paired.token);
    expect(paired.person).toBe('bob');
    expect(phone.errors).toEqual([]);
  });
});
