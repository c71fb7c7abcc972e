/**
 * The session list says "Task running" (not "Idle") while a background task outlives its turn,
 * on every device — also one that never opened the chat, which knows it only from the hub's
 * `runningTasks` — and goes back once the task is stopped. Real daemon, the simulator's real
 * `background watch` task, two Chromium devices at 390×844.
 */
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, shoot, startWatchTask, waitIdle } from './support/flow.js';

const { hub, phone, laptop } = phoneHub({ laptop: true });

describe('the session list while a background task runs', () => {
  it('shows "Task running" on the row of every device after the turn ended, until the task stops', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Phone');
    await pair(laptop, hub, 'Laptop');
    await newSession(page);
    await startWatchTask(page);
    await waitIdle(page);

    // The laptop never opened the chat: its row says what the phone's header says.
    const laptopBadge = laptop.page.getByTestId('session-row').getByTestId('state-badge');
    await expect.poll(() => laptopBadge.getAttribute('data-badge')).toBe('task');
    expect(await laptopBadge.innerText()).toBe('Task running');
    expect(await axeBothThemes(laptop.page, 'session list with a task running')).toEqual([]);
    await shoot(laptop.page, 'sessions-task-running');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    const phoneBadge = page.getByTestId('session-row').getByTestId('state-badge');
    await expect.poll(() => phoneBadge.getAttribute('data-badge')).toBe('task');
    // A reload asks the list again: still running.
    await laptop.page.reload();
    await expect.poll(() => laptopBadge.getAttribute('data-badge')).toBe('task');

    // Stopped from the phone's terminal panel: the rows leave "Task running".
    await page.getByTestId('session-row').click();
    await page.getByTestId('state-badge').click();
    await page.getByTestId('terminal-stop').click();
    await expect.poll(() => page.getByTestId('terminal-status').innerText()).toBe('stopped');
    await expect.poll(() => laptopBadge.getAttribute('data-badge')).not.toBe('task');
    expect(['idle', 'finished']).toContain(await laptopBadge.getAttribute('data-badge'));
    expect(laptop.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
