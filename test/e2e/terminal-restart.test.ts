/**
 * A background task's output survives a daemon restart, seen on the phone (390×844): the watch
 * task streams, the daemon stops mid-task and starts again on the same state dir, and the
 * terminal panel still shows the output so far, the task marked "interrupted by a hub restart"
 * (the agent process that ran it stopped with the daemon), and the header no longer says a task runs;
 * the context meter shows the figure it had before the restart, without a new turn.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { restartableHub } from '../helpers/restartable-hub.js';
import { openDevice, type Device } from './support/browser.js';
import { newSession, pair, shoot, startWatchTask, waitIdle } from './support/flow.js';

const { start } = restartableHub('zch-e2e-task-restart-');
let phone: Device | undefined;
afterAll(async () => {
  await phone?.close();
});

describe('phone web app: task output across a daemon restart', () => {
  it('the terminal panel shows the output so far and the task as interrupted', async () => {
    const first = await start();
    phone = await openDevice();
    const { page } = phone;
    await pair(phone, first, 'Restart phone');
    await newSession(page);
    await startWatchTask(page);
    await waitIdle(page);
    const meter = page.getByTestId('context-meter').first();
    const figure = await meter.getAttribute('title');
    expect(figure).toMatch(/^\d+ \/ \d+$/);
    await page.getByTestId('terminal-button').click();
    const output = page.getByTestId('terminal-output');
    await expect.poll(() => output.innerText(), { timeout: 60_000 }).toContain('unit-010');
    const sessionPath = new URL(page.url()).pathname.replace(/\/terminal$/, '');

    // The phone leaves the page first: the restarted daemon listens on another port, and the old
    // page's reconnect attempts to the old one would only log refused connections.
    await page.goto('about:blank');
    await first.close();
    const again = await start();
    // Another port is another origin: the phone pairs with the restarted daemon, then opens the session.
    await pair(phone, again, 'Restart phone');
    await page.goto(`${again.url}${sessionPath}`);
    await page.getByTestId('terminal-button').click();
    await page.getByTestId('terminal-view').waitFor();
    await expect.poll(() => page.getByTestId('terminal-status').innerText()).toBe('interrupted by a hub restart');
    expect(await output.innerText()).toContain('unit-010');
    // The launch's result line ends before the task's own output starts.
    expect(await output.innerText()).toMatch(/exec_\w+\nwatching 240 test files/);
    expect(await page.getByTestId('terminal-stop').count()).toBe(0);
    await shoot(page, 'terminal-after-restart');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => page.getByTestId('state-badge').getAttribute('data-badge')).not.toBe('task');
    // The meter came back with the replay, as it was before the restart.
    await expect.poll(() => meter.getAttribute('title')).toBe(figure);
    expect(phone.errors).toEqual([]);
  });
});
