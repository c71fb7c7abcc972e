/**
 * A chat of another machine while its link reconnects, at 390×844 (two real hubs on loopback: A
 * the phone's home at localhost, B at 127.0.0.1, B added from A's app). B's socket goes through
 * Playwright's WebSocket route so the test decides when the link drops and when the reconnect's
 * `session/load` of the chat is answered (as a machine whose backend is still starting holds it):
 * meanwhile the page says it is reconnecting to B, and a prompt sent shows at once, marked as
 * waiting for the connection, then goes once the link is online and shows once.
 */
import type { WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDevice, PHONE, type Device } from './support/browser.js';
import { newSession, sendPrompt, shoot, waitIdle } from './support/flow.js';
import { addMachine, identityOf, pairHome, startMachine, type Machine } from './support/machines.js';

let a: Machine;
let b: Machine;
let phone: Device;

beforeAll(async () => {
  a = await startMachine('laptop', 'localhost');
  b = await startMachine('desktop', '127.0.0.1');
  phone = await openDevice({ viewport: PHONE });
});
afterAll(async () => {
  await phone?.close();
  await a?.close();
  await b?.close();
});

describe('a machine’s chat while its link reconnects', () => {
  it('says it is reconnecting to that machine; a prompt shows at once, waiting, then goes once online', async () => {
    const { page, context } = phone;
    const onB = b.url.replace(/^http/, 'ws');
    /** B's socket as the page holds it now, and the loads held back while `holding`. */
    let current: WebSocketRoute | undefined;
    let holding = false;
    const held: Array<() => void> = [];
    await context.routeWebSocket(
      (url) => url.href.startsWith(onB),
      (ws) => {
        current = ws;
        const server = ws.connectToServer();
        ws.onMessage((m) => {
          if (holding && typeof m === 'string' && m.includes('"method":"session/load"')) held.push(() => server.send(m));
          else server.send(m);
        });
        server.onMessage((m) => ws.send(m));
      },
    );
    await pairHome(phone, a, 'Reconnect phone');
    await addMachine(page, b, a.url, 'Add desktop, scope operate?');
    const hubB = (await identityOf(b)).hubId;
    await page.goto(a.url);
    await page
      .getByTestId('machine-filter')
      .and(page.locator(`[data-filter="${hubB}"]`))
      .click();
    await newSession(page);
    await sendPrompt(page, 'hello desktop');
    await page.getByTestId('agent-message').first().waitFor();
    await waitIdle(page);
    const mine = page.getByTestId('user-message');
    expect(await mine.count()).toBe(1);

    // B's link drops; its reconnect gets as far as the chat's load, which waits.
    holding = true;
    await current?.close({ code: 1012, reason: 'restarting' });
    await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const pill = page.getByTestId('conn-indicator').and(page.locator(`[data-hub-id="${hubB}"]`));
    await pill.filter({ hasText: 'Reconnecting to desktop…' }).waitFor();

    await sendPrompt(page, 'and once more');
    const waiting = mine.and(page.locator('[data-waiting="link"]'));
    await waiting.filter({ hasText: 'and once more' }).waitFor();
    await waiting.getByText('Waiting for the connection…').waitFor();
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('');
    await shoot(page, 'machine-reconnecting');

    // The load answers: the link is online, the prompt goes, and shows once, no longer waiting.
    holding = false;
    for (const send of held.splice(0)) send();
    await waiting.waitFor({ state: 'detached' });
    await pill.and(page.locator('[data-status="online"]')).waitFor({ state: 'attached' });
    await expect
      .poll(() => mine.allInnerTexts())
      .toEqual([expect.stringContaining('hello desktop'), expect.stringContaining('and once more')]);
    await page.getByTestId('agent-message').nth(1).waitFor();
    await waitIdle(page);
    expect(await mine.count()).toBe(2);
    expect(phone.errors).toEqual([]);
  });
});
