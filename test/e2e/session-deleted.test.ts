/**
 * A session deleted on one device leaves every other device at once (`_zcode/session_deleted`):
 * gone from the list without a reload, and a device with its chat open is told and taken back
 * to the list. Real daemon, simulator child, two Chromium devices at 390×844.
 */
import { describe, expect, it } from 'vitest';
import type { Device } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone, laptop } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.3'] }, laptop: true });

async function sessionWith(page: Device['page'], prompt: string): Promise<string> {
  await newSession(page);
  await sendPrompt(page, prompt);
  await waitIdle(page);
  const sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  await page.getByRole('button', { name: 'Back' }).click();
  return sessionId;
}

describe('a session deleted on another device', () => {
  it('leaves the other device’s list and the chat it had open, with a notice', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Phone');
    await pair(laptop, hub, 'Laptop');
    await sessionWith(page, 'Keep this one');
    const doomed = await sessionWith(page, 'Delete this one');
    const laptopRows = laptop.page.getByTestId('session-row');
    await expect.poll(() => laptopRows.count()).toBe(2);

    // The laptop reads the session the phone is about to delete.
    await laptopRows.filter({ hasText: 'Delete this one' }).click();
    await laptop.page.getByTestId('prompt-input').waitFor();
    expect(new URL(laptop.page.url()).pathname).toBe(`/s/${encodeURIComponent(doomed)}`);

    await page.getByTestId('session-row').filter({ hasText: 'Delete this one' }).click();
    await page.getByTestId('title-button').click();
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('rename-sheet').getByTestId('delete-session').click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();

    // The laptop is told who deleted it and is back on the list, which no longer has it.
    const notice = laptop.page.getByTestId('toast').filter({ hasText: 'deleted on another device' });
    await notice.waitFor();
    expect(await notice.innerText()).toBe('This session was deleted on another device (Phone)');
    await laptop.page.getByRole('heading', { name: 'Sessions' }).waitFor();
    expect(new URL(laptop.page.url()).pathname).toBe('/');
    await expect.poll(() => laptopRows.locator('.session-title').allInnerTexts()).toEqual(['Keep this one']);
    await shoot(laptop.page, 'session-deleted-elsewhere');
    // The device that deleted it is not told it was deleted elsewhere.
    expect(await page.getByTestId('toast').filter({ hasText: 'deleted on another device' }).count()).toBe(0);

    // Deleted over REST while the laptop shows the list: the row goes, no reload, no notice
    // (nobody had it open there).
    const kept = (await (await hub.api('/api/sessions')).json()) as { sessions: Array<{ sessionId: string }> };
    expect(kept.sessions).toHaveLength(1);
    const res = await hub.api(`/api/sessions/${encodeURIComponent(kept.sessions[0]!.sessionId)}`, { method: 'DELETE' });
    expect(res.ok).toBe(true);
    await expect.poll(() => laptopRows.count()).toBe(0);
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(0);
    expect(laptop.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
