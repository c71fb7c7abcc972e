/**
 * An answer given while the phone's hub is down, at 390×844: a real daemon stopped with a
 * permission sheet open, "Allow once" tapped, the daemon started again on the same port and state
 * dir. Meanwhile the sheet says which answer waits for the connection, holds its buttons, and the
 * connection pill stays on top of the sheet's backdrop; the restart interrupts the turn, so the
 * request is not asked again and the answer is refused with the sentence that says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDevice, PHONE_390, type Device } from './support/browser.js';
import { newSession, pair, sendPrompt, shoot } from './support/flow.js';
import { startMachine, type Machine } from './support/machines.js';

let m: Machine;
let phone: Device;

beforeAll(async () => {
  m = await startMachine('laptop', '127.0.0.1');
  phone = await openDevice({ viewport: PHONE_390 });
  await pair(phone, m.hub, 'Pocket phone');
  await newSession(phone.page);
});
afterAll(async () => {
  await phone?.close();
  await m?.close();
});

const pill = () => phone.page.getByTestId('conn-indicator');
/** Whether the pill is what a finger at its middle would touch: nothing (a sheet's backdrop) lies over it. */
const pillOnTop = () =>
  pill().evaluate((el) => {
    // The pill lets taps through (pointer-events: none), which hit-testing skips: let it be hit while asked.
    const pe = (el as HTMLElement).style.pointerEvents;
    (el as HTMLElement).style.pointerEvents = 'auto';
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    (el as HTMLElement).style.pointerEvents = pe;
    return r.width > 0 && hit !== null && el.contains(hit);
  });

describe('an answer given while the hub is down', () => {
  it('shows on the sheet which answer waits, keeps the pill visible, and says when it is refused', async () => {
    const { page } = phone;
    await sendPrompt(page, 'run the tests, permission needed');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('option-allow_once').waitFor({ timeout: 60_000 });
    await m.stop();
    await expect.poll(() => pill().getAttribute('data-status'), { timeout: 30_000 }).not.toBe('online');
    await sheet.getByTestId('option-allow_once').click();
    const waiting = sheet.getByTestId('answer-waiting');
    await waiting.waitFor();
    expect(await waiting.innerText()).toContain('“Allow once” waits for the connection');
    // One answer waits: the others cannot be tapped meanwhile.
    expect(await sheet.getByTestId('option-allow_once').isDisabled()).toBe(true);
    expect(await sheet.getByTestId('option-deny').isDisabled()).toBe(true);
    // The link's state is in sight over the sheet, at once (an answer waits for it).
    await expect.poll(() => pill().innerText()).not.toBe('');
    await expect.poll(pillOnTop).toBe(true);
    // Above the sheet, not over what it says.
    const pillBox = await pill().boundingBox();
    const sheetBox = await sheet.boundingBox();
    expect((pillBox?.y ?? Infinity) + (pillBox?.height ?? 0)).toBeLessThanOrEqual(sheetBox?.y ?? 0);
    await shoot(page, 'answer-while-down-waiting');
    await m.start();
    // The restart interrupted the turn: the request is not asked again, so the answer does not go.
    await page
      .getByTestId('toast')
      .filter({ hasText: 'This request was answered or withdrawn while reconnecting; your answer was not sent.' })
      .waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('answer-waiting').count()).toBe(0);
    // The sentence wraps at 390 px: a rounded box, not a pill whose round ends crowd its lines.
    const shape = await page
      .getByTestId('toast')
      .first()
      .evaluate((el) => ({ height: el.getBoundingClientRect().height, radius: parseFloat(getComputedStyle(el).borderTopLeftRadius) }));
    expect(shape.height).toBeGreaterThan(50);
    expect(shape.radius).toBeLessThanOrEqual(20);
    await shoot(page, 'answer-while-down-refused');
  });
});
