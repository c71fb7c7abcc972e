/**
 * A chat of another machine while its link reconnects, at 390×844 (two real hubs on loopback: A
 * the phone's home at localhost, B at 127.0.0.1, B added from A's app). B's socket goes through
 * Playwright's WebSocket route so the test decides when the link drops and when the reconnect's
 * `session/load` of the chat is answered (as a machine whose backend is still starting holds it):
 * meanwhile the page says it is reconnecting to B (at once when a prompt waits for it), and a
 * prompt sent shows at once, marked as waiting for the connection, then goes once the link is
 * online and shows once; Stop says it is stopping without narrowing the text box, and stops the
 * turn once online; a device whose old connection B still holds beside its new one is listed once.
 */
import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { sendPrompt, shoot, waitIdle } from './support/flow.js';
import { addMachine, identityOf, newSessionOn, pairHome, twoMachines } from './support/machines.js';

const { a, b, phone } = twoMachines();
let hubB = '';
/** B's socket as the page holds it now, and the loads held back while `holding`. */
let current: { page: WebSocketRoute; server: WebSocketRoute } | undefined;
let holding = false;
const held: Array<() => void> = [];
/** Every method the page sent B, in order, with `released` marking where the held loads went on. */
const sentToB: string[] = [];
/** The token ids of each `_zcode/presence` B sent the page, in order. */
const presenceFromB: string[][] = [];

/** Drops B's link; its reconnect will get as far as the chat's load, which waits. */
async function drop(): Promise<void> {
  holding = true;
  // Both ends, as a real drop: B sees this connection go too (its presence, its attaches).
  await current?.server.close({ code: 1012, reason: 'restarting' });
  await current?.page.close({ code: 1012, reason: 'restarting' });
}

/** Drops B's link; its reconnect gets as far as the chat's load, which waits. */
async function dropAndHold(): Promise<void> {
  await drop();
  await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
}

/** Remembers, in the page, what B's pill says the moment a prompt first shows waiting (`window.pillAtWaiting`). */
function watchPillAtWaiting(page: Page): Promise<void> {
  return page.evaluate((hubId) => {
    const w = window as unknown as { pillAtWaiting?: string };
    const seen = new MutationObserver(() => {
      if (!document.querySelector('[data-testid="user-message"][data-waiting="link"]')) return;
      w.pillAtWaiting = document.querySelector(`[data-testid="conn-indicator"][data-hub-id="${hubId}"]`)?.textContent ?? '';
      seen.disconnect();
    });
    seen.observe(document.body, { childList: true, subtree: true });
  }, hubB);
}

/** The held loads go on: the link comes online. */
function release(): void {
  holding = false;
  sentToB.push('released');
  for (const send of held.splice(0)) send();
}

describe('a machine’s chat while its link reconnects', () => {
  it('says it is reconnecting to that machine; a prompt shows at once, waiting, then goes once online', async () => {
    const { page, context } = phone;
    const onB = b.url.replace(/^http/, 'ws');
    await context.routeWebSocket(
      (url) => url.href.startsWith(onB),
      (ws) => {
        const server = ws.connectToServer();
        current = { page: ws, server };
        ws.onMessage((m) => {
          const method = typeof m === 'string' ? /"method":"([^"]+)"/.exec(m)?.[1] : undefined;
          if (method) sentToB.push(method);
          if (holding && method === 'session/load') held.push(() => server.send(m));
          else server.send(m);
        });
        server.onMessage((m) => {
          if (typeof m === 'string' && m.includes('"_zcode/presence"')) {
            const clients = (JSON.parse(m) as { params?: { clients?: Array<{ tokenId?: string }> } }).params?.clients ?? [];
            presenceFromB.push(clients.map((c) => c.tokenId ?? ''));
          }
          ws.send(m);
        });
      },
    );
    await pairHome(phone, a, 'Reconnect phone');
    await addMachine(page, b, a.url, 'Add desktop, scope operate?');
    hubB = (await identityOf(b)).hubId;
    await page.goto(a.url);
    await newSessionOn(page, hubB);
    await sendPrompt(page, 'hello desktop');
    await page.getByTestId('agent-message').first().waitFor();
    await waitIdle(page);
    const mine = page.getByTestId('user-message');
    expect(await mine.count()).toBe(1);

    // B's link drops; once it is reconnecting (a moment, far less than the pill's quiet time for
    // a blip) a prompt is sent: the pill says why it waits at once, in the frame its bubble shows.
    await drop();
    const pill = page.getByTestId('conn-indicator').and(page.locator(`[data-hub-id="${hubB}"]`));
    await pill.and(page.locator('[data-status="connecting"]')).waitFor({ state: 'attached' });
    await watchPillAtWaiting(page);
    await sendPrompt(page, 'and once more');
    const waiting = mine.and(page.locator('[data-waiting="link"]'));
    await waiting.filter({ hasText: 'and once more' }).waitFor();
    await waiting.getByText('Waiting for the connection…').waitFor();
    expect(await page.evaluate(() => (window as unknown as { pillAtWaiting?: string }).pillAtWaiting)).toBe('Reconnecting to desktop…');
    // Its reconnect gets as far as the chat's load, which waits.
    await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await pill.filter({ hasText: 'Reconnecting to desktop…' }).waitFor();
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('');
    await shoot(page, 'machine-reconnecting');
    // The pill and the waiting bubble read in both themes (nothing serious or critical for axe).
    expect(await axeBothThemes(page, 'machine-reconnecting')).toEqual([]);

    // The load answers: the link is online, the prompt goes, and shows once, no longer waiting.
    release();
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

  it('Stop pressed while reconnecting says it is stopping, and stops the turn once online', async () => {
    const { page } = phone;
    // A turn that waits for a permission runs until answered: it is still the same turn once online.
    await sendPrompt(page, 'run the tests, permission needed');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('option-allow_once').waitFor();
    await sheet.getByRole('button', { name: 'Later' }).click();
    const stop = page.getByTestId('stop-button');
    await stop.waitFor();

    await dropAndHold();
    // "Stopping…" takes no more room than "Stop": the text box beside it keeps its width.
    const input = page.getByTestId('prompt-input');
    const widthBefore = (await input.boundingBox())?.width;
    expect(widthBefore).toBeGreaterThan(100);
    await stop.click();
    await stop.and(page.locator('[disabled]')).filter({ hasText: 'Stopping…' }).waitFor();
    expect(await stop.innerText()).toBe('Stopping…');
    expect((await input.boundingBox())?.width).toBe(widthBefore);
    expect(sentToB.slice(sentToB.lastIndexOf('initialize'))).not.toContain('session/cancel');
    await shoot(page, 'machine-reconnecting-stop');

    // The turn ends (it waited for an answer: only the Stop can end it), after the cancel went.
    release();
    await waitIdle(page);
    const after = sentToB.slice(sentToB.lastIndexOf('released'));
    expect(after).toContain('session/cancel');
    expect(phone.errors).toEqual([]);
  });

  it('a link re-established while B still lists the old connection shows this device once', async () => {
    const { page } = phone;
    const old = current;
    presenceFromB.length = 0;
    // Only the page's end goes, as a phone whose network vanished: B has not seen it close and
    // lists it beside the new one (it lists the earlier dropped ones too, closed at both ends).
    await old?.page.close({ code: 1012, reason: 'restarting' });
    const pill = page.getByTestId('conn-indicator').and(page.locator(`[data-hub-id="${hubB}"]`));
    // The app opens a new socket, and is online on it.
    await expect.poll(() => current !== old, { timeout: 30_000 }).toBe(true);
    await pill.and(page.locator('[data-status="online"]')).waitFor({ state: 'attached' });
    // B lists this device's token more than once: its old connection(s) and its new one.
    await expect
      .poll(() => presenceFromB.some((ids) => ids.length > 1 && ids.every((id) => id !== '' && id === ids[0])), { timeout: 30_000 })
      .toBe(true);
    // Frames after it (a prompt's answer) have reached the page: the chat names nobody but this device.
    const answers = await page.getByTestId('agent-message').count();
    await sendPrompt(page, 'and after the reconnect');
    await page.getByTestId('agent-message').nth(answers).waitFor();
    await waitIdle(page);
    expect(await page.locator('.presence').count()).toBe(0);
    await old?.server.close({ code: 1000, reason: 'done' });
    expect(phone.errors).toEqual([]);
  });
});
