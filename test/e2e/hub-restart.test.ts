/**
 * A prompt sent while the phone's hub is down, at 390×844: a real daemon stopped and started
 * again on the same port and state dir (a service restart) while the phone keeps its page. The
 * link cycles offline → connecting → offline meanwhile; the prompt shows at once, marked waiting,
 * and goes once the hub is back — sent once, answered, shown once also after a reload. Past its
 * bound (WEB_LIMITS.waitOnlineMs, crossed with the page's clock: Playwright's clock runs the
 * page's timers at the real pace until the test jumps it forward) it is refused with the "not
 * sent" sentence and its text back in the composer; taken back ("Don't send") it never goes.
 * While the pill shows, the last message ends above it — on a view device too, where no composer
 * lies between the list and the pill.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_LIMITS } from '../../web/src/limits.js';
import { openDevice, PHONE_390, type Device } from './support/browser.js';
import { newSession, pair, recordPromptsSent, sendPrompt, shoot, waitIdle } from './support/flow.js';
import { startMachine, type Machine } from './support/machines.js';

let m: Machine;
let phone: Device;
/** The text of every `session/prompt` the page sent, in order, across every socket. */
const promptsSent: string[] = [];

beforeAll(async () => {
  m = await startMachine('laptop', '127.0.0.1');
  phone = await openDevice({ viewport: PHONE_390 });
  // Installed before the app loads, so the bound's timer is one the test can jump past.
  await phone.context.clock.install();
  recordPromptsSent(phone.page, promptsSent);
  await pair(phone, m.hub, 'Pocket phone');
  await newSession(phone.page);
  await sendPrompt(phone.page, 'Explain this project in a few words');
  await phone.page.getByTestId('agent-message').first().waitFor({ timeout: 60_000 });
  await waitIdle(phone.page);
});
afterAll(async () => {
  await phone?.close();
  await m?.close();
});

const pill = (page = phone.page) => page.getByTestId('conn-indicator');
/** Stops the daemon and waits until the page knows its link is down. */
async function hubDown(): Promise<void> {
  await m.stop();
  await expect.poll(() => pill().getAttribute('data-status'), { timeout: 30_000 }).not.toBe('online');
}
const waitingBubble = () => phone.page.locator('[data-testid="user-message"][data-waiting="link"]');
/** How far the last message's bottom is above the pill's top: negative when the pill covers it. */
const clearAbovePill = (page = phone.page) =>
  page.evaluate(() => {
    const last = document.querySelector('[data-testid="messages"]')?.lastElementChild?.getBoundingClientRect();
    const pill = document.querySelector('[data-testid="conn-indicator"]')?.getBoundingClientRect();
    return last && pill ? pill.top - last.bottom : Number.NaN;
  });
/** The message list's scroll position: from the top, and from the bottom. */
const scrollOf = (page = phone.page) =>
  page.getByTestId('messages').evaluate((el) => ({ top: el.scrollTop, fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight }));
/** Whether the message list has made room for the pill below it (polish.css): more than its own 16px bottom padding. */
const roomForPill = (page = phone.page) =>
  page.getByTestId('messages').evaluate((el) => parseFloat(getComputedStyle(el).paddingBottom) > 16);
/** Two frames: every scroll event and resize observation due by now has run. */
const frames = (page = phone.page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const userMessages = (text: string) => phone.page.getByTestId('user-message').filter({ hasText: text });

describe('a prompt sent while the hub restarts', () => {
  it('shows at once as waiting, goes once the hub is back, is answered, and shows once', async () => {
    const { page } = phone;
    const answers = await page.getByTestId('agent-message').count();
    await hubDown();
    const text = 'What changed since the restart?';
    await sendPrompt(page, text);
    await waitingBubble().filter({ hasText: text }).waitFor();
    await expect.poll(() => page.getByTestId('prompt-input').inputValue()).toBe('');
    // The page keeps retrying while the daemon is down: offline between attempts, and the prompt still waits.
    await expect.poll(() => pill().getAttribute('data-status'), { timeout: 30_000 }).toBe('offline');
    await expect.poll(() => pill().innerText()).not.toBe('');
    expect(await waitingBubble().count()).toBe(1);
    expect(await page.getByTestId('toast').count()).toBe(0);
    // The reader was at the bottom: still there, the waiting bubble above the pill, not under it.
    await expect.poll(roomForPill).toBe(true);
    await expect.poll(clearAbovePill).toBeGreaterThanOrEqual(0);
    await shoot(page, 'hub-restart-waiting');
    await m.start();
    await page.getByTestId('agent-message').nth(answers).waitFor({ timeout: 60_000 });
    await waitIdle(page);
    expect(await waitingBubble().count()).toBe(0);
    expect(await userMessages(text).count()).toBe(1);
    expect(promptsSent.filter((p) => p === text)).toHaveLength(1);
    // Not again on a reload: the hub's history holds it once, and nothing waits to go.
    await page.reload();
    await page.getByTestId('agent-message').nth(answers).waitFor();
    expect(await userMessages(text).count()).toBe(1);
    expect(promptsSent.filter((p) => p === text)).toHaveLength(1);
  });

  it('past its bound is refused with the "not sent" sentence and its text back; taken back, it never goes', async () => {
    const { page } = phone;
    await hubDown();
    const late = 'Are you back yet?';
    await sendPrompt(page, late);
    await waitingBubble().filter({ hasText: late }).waitFor();
    await page.clock.fastForward(WEB_LIMITS.waitOnlineMs);
    await page.getByTestId('toast').filter({ hasText: 'Offline — the message was not sent.' }).waitFor();
    expect(await waitingBubble().count()).toBe(0);
    await expect.poll(() => page.getByTestId('prompt-input').inputValue()).toBe(late);
    await shoot(page, 'hub-restart-not-sent');
    // Sent again, then taken back: its text comes back, with no sentence (the user chose it).
    await page.getByTestId('send-button').click();
    await waitingBubble().filter({ hasText: late }).waitFor();
    await page.getByTestId('dont-send').click();
    await waitingBubble().waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('prompt-input').inputValue()).toBe(late);
    await m.start();
    await expect.poll(() => pill().getAttribute('data-status'), { timeout: 60_000 }).toBe('online');
    // Online and settled: a prompt now goes at once, and neither of the two before it ever went.
    const answers = await page.getByTestId('agent-message').count();
    await sendPrompt(page, 'Explain this project in a few words');
    await page.getByTestId('agent-message').nth(answers).waitFor({ timeout: 60_000 });
    await waitIdle(page);
    expect(promptsSent).not.toContain(late);
  });
});

describe('the connection pill and the reading position', () => {
  const messages = () => phone.page.getByTestId('messages');
  const toBottom = () => messages().evaluate((el) => (el.scrollTop = el.scrollHeight));
  const toTop = () => messages().evaluate((el) => (el.scrollTop = 0));
  /** The hub stops, and the pill shows (after the quiet moment a short drop gets) with room made for it. */
  async function pillShows(): Promise<void> {
    await hubDown();
    await expect.poll(() => pill().innerText(), { timeout: 30_000 }).not.toBe('');
    await expect.poll(roomForPill).toBe(true);
    await frames();
  }
  /** The hub is back, and the pill and its room are gone. */
  async function pillGoes(): Promise<void> {
    await m.start();
    await expect.poll(() => pill().getAttribute('data-status'), { timeout: 60_000 }).toBe('online');
    await expect.poll(roomForPill).toBe(false);
    await frames();
  }

  it('keeps a reader at the bottom there, above the pill, and leaves one who scrolled up where they are', async () => {
    // The conversation is longer than the screen: where the reader is matters.
    expect(await messages().evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(0);
    await toBottom();
    await frames();
    await pillShows();
    await expect.poll(clearAbovePill).toBeGreaterThanOrEqual(0);
    expect((await scrollOf()).fromBottom).toBeLessThan(1);
    await shoot(phone.page, 'hub-restart-pill-at-bottom');
    await toTop();
    await frames();
    await pillGoes();
    expect((await scrollOf()).top).toBe(0);
    await pillShows();
    expect((await scrollOf()).top).toBe(0);
    await toBottom();
    await frames();
    await pillGoes();
    expect((await scrollOf()).fromBottom).toBeLessThan(1);
  });

  it('on a view device, with no composer below, the last message ends above the pill too', async () => {
    // Vic watches the same conversation with a view token: no composer, so the pill sits higher above the list's bottom.
    const vic = await openDevice({ viewport: PHONE_390 });
    try {
      await pair(vic, m.hub, 'Vic phone', 'view', 'vic');
      await vic.page.goto(phone.page.url());
      await vic.page.getByTestId('agent-message').first().waitFor();
      expect(await vic.page.getByTestId('prompt-input').count()).toBe(0);
      // Longer than the screen, and the reader at the bottom: the last message is where the pill shows.
      const vicMessages = vic.page.getByTestId('messages');
      await expect.poll(() => vicMessages.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(0);
      await vicMessages.evaluate((el) => (el.scrollTop = el.scrollHeight));
      // Who is on the session, live: this phone and Vic's, each as the hub names it.
      const presence = vic.page.getByTestId('presence');
      await expect.poll(() => presence.innerText()).toBe('Pocket phone, vic · Vic phone');
      // The turn before ended, so the hub knows the session's usage: the meter shows, and again after the restart.
      const meter = vic.page.getByTestId('context-meter');
      const usage = await meter.innerText();
      expect(await presence.getAttribute('data-stale')).toBeNull();
      await frames(vic.page);
      await hubDown();
      await expect.poll(() => pill(vic.page).innerText(), { timeout: 30_000 }).not.toBe('');
      // Down, the hub cannot say who is still there: the line says it is who was there at the drop.
      await expect.poll(() => presence.getAttribute('data-stale')).toBe('');
      expect(await presence.innerText()).toBe('Here when the connection dropped: Pocket phone, vic · Vic phone');
      await expect.poll(() => roomForPill(vic.page)).toBe(true);
      await frames(vic.page);
      // Clear of the pill by the list's gap between messages (the room is rounded up to a whole pixel):
      // measured to fit, neither too little nor a guess too big.
      const gap = await vicMessages.evaluate((el) => parseFloat(getComputedStyle(el).rowGap));
      await expect.poll(() => clearAbovePill(vic.page)).toBeGreaterThanOrEqual(gap);
      expect(await clearAbovePill(vic.page)).toBeLessThan(gap + 2);
      expect((await scrollOf(vic.page)).fromBottom).toBeLessThan(1);
      await shoot(vic.page, 'hub-restart-pill-view-device');
      await m.start();
      await expect.poll(() => pill(vic.page).getAttribute('data-status'), { timeout: 60_000 }).toBe('online');
      await expect.poll(() => roomForPill(vic.page)).toBe(false);
      await expect.poll(() => vic.page.locator('[data-testid="presence"][data-stale]').count()).toBe(0);
      // A fresh page after the restart has only the hub's replay to go by: it ends with the usage it kept.
      await vic.page.reload();
      expect(await meter.innerText()).toBe(usage);
    } finally {
      await vic.close();
    }
  });
});
