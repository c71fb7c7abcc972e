/**
 * A background task launched many turns ago — its card older than the page of history the chat
 * loads — is still found from the phone: the header counts it (the hub's `runningTasks`), the
 * terminal panel loads earlier pages until its card is in, shows its output and stops it.
 * The task is the simulator's quiet `background server` (one line, then silent: no live update
 * brings its card back); the later turns are sent by an editor over ACP. Real daemon, Chromium
 * at 390×844.
 */
import { describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { pair } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.2'] } });
/**
 * Turns after the task's: more than the chat's first page of history and the next page, which
 * follows at once when the first does not fill the screen (12 + 30 messages, two a turn).
 */
const LATER_TURNS = 24;

describe('the terminal panel and a task older than the loaded history', () => {
  it('finds the task by loading earlier pages, shows its output and stops it', async () => {
    const editor = await hub.initializedClient({ name: 'editor' });
    const { sessionId } = await editor.request<{ sessionId: string }>('session/new', {
      cwd: hub.workspace,
      mcpServers: [],
      _meta: { zcode: { mode: 'yolo' } },
    });
    const say = (text: string) => editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    await say('start the background server');
    for (let i = 1; i <= LATER_TURNS; i++) await say(`turn number ${i}`);

    const { page } = phone;
    await pair(phone, hub, 'Phone');
    await page.getByTestId('session-row').click();
    await page.getByTestId('prompt-input').waitFor();
    await expect.poll(() => page.getByRole('main').getByText(`You asked: turn number ${LATER_TURNS}`).count()).toBe(1);
    // The premise: the task's card is not on the loaded page.
    expect(await page.getByTestId('open-terminal').count()).toBe(0);
    const badge = page.getByTestId('state-badge');
    await expect.poll(() => badge.getAttribute('data-badge')).toBe('task');

    await badge.click();
    const out = page.getByTestId('terminal-output');
    await expect.poll(() => out.innerText(), { timeout: 30_000 }).toContain('ready on http://localhost:5173/');
    expect(await page.getByTestId('terminal-status').innerText()).toBe('running');
    await page.getByTestId('terminal-stop').click();
    await expect.poll(() => page.getByTestId('terminal-status').innerText()).toBe('stopped');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect.poll(() => badge.getAttribute('data-badge')).not.toBe('task');
    expect(phone.errors).toEqual([]);
  }, 180_000);
});
