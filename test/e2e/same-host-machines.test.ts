/**
 * Two machines on one host name: A at http://127.0.0.1:PA (the phone's home) and B at
 * http://127.0.0.1:PB. The browser sends every cookie of 127.0.0.1 to both ports, so B's socket
 * upgrade, opened by A's app with a ticket, carries A's web-app cookie too. B must take the
 * ticket and show as online, not refuse it and leave the app saying "offline".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDevice, PHONE_390, type Device } from './support/browser.js';
import { addMachine, identityOf, machineRow, pairHome, startMachine, type Machine } from './support/machines.js';

let a: Machine;
let b: Machine;
let phone: Device;

beforeAll(async () => {
  a = await startMachine('laptop', '127.0.0.1');
  b = await startMachine('desktop', '127.0.0.1');
  phone = await openDevice({ viewport: PHONE_390 });
});
afterAll(async () => {
  await phone?.close();
  await a?.close();
  await b?.close();
});

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
});
