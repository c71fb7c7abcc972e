/**
 * Attention on a 390×844 phone: after "Later" the chat keeps a "1 waiting"
 * banner that reopens the sheet; a notification's deep link (`?answer=<id>`) opens that sheet;
 * a device whose token was revoked, or that signed itself out, is told why at the pairing screen.
 */
import { describe, expect, it } from 'vitest';
import { openDevice } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, signOut, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.3'] } });

describe('attention', () => {
  it('"Later" leaves a waiting banner that reopens the sheet; the deep link opens it too', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Attention phone');
    await newSession(page);
    const sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    await sendPrompt(page, 'run it, permission needed');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.waitFor();
    expect(await page.getByTestId('waiting-banner').count()).toBe(0);
    await sheet.getByRole('button', { name: 'Later' }).click();
    await sheet.waitFor({ state: 'detached' });
    const banner = page.getByTestId('waiting-banner');
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/1 waiting for you\s+Answer/);
    await shoot(page, 'waiting-banner');
    await banner.getByTestId('waiting-answer').click();
    await sheet.waitFor();
    await sheet.getByRole('button', { name: 'Later' }).click();
    await sheet.waitFor({ state: 'detached' });

    // The notification's link, opened fresh (as a tap on it would): that sheet, at once.
    const res = await hub.api(`/api/interactions?sessionId=${encodeURIComponent(sessionId)}`);
    const { interactions } = (await res.json()) as { interactions: Array<{ interactionId: string }> };
    expect(interactions).toHaveLength(1);
    await page.goto(`${hub.url}/s/${encodeURIComponent(sessionId)}?answer=${encodeURIComponent(interactions[0]!.interactionId)}`);
    await sheet.waitFor();
    // The link is spent: the address no longer carries it.
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await sheet.getByTestId('option-allow_once').click();
    await sheet.waitFor({ state: 'detached' });
    await waitIdle(page);
    expect(await page.getByTestId('waiting-banner').count()).toBe(0);
  });

  it('a revoked device is told why at the pairing screen; so is one that signed itself out', async () => {
    const other = await openDevice({ colorScheme: 'dark' });
    try {
      await pair(other, hub, 'Lost phone');
      const tokens = (await (await hub.api('/api/tokens')).json()) as { tokens: Array<{ id: string; name: string; state: string }> };
      const id = tokens.tokens.find((t) => t.name === 'Lost phone' && t.state === 'active')?.id;
      expect(id).toBeDefined();
      expect((await hub.api(`/api/tokens/${id}`, { method: 'DELETE' })).status).toBeLessThan(300);
      await other.page.reload();
      await other.page.getByLabel('Pairing code').waitFor();
      expect(await other.page.getByTestId('signed-out').innerText()).toMatch(/revoked by an admin or has expired/);
      await shoot(other.page, 'signed-out');
    } finally {
      await other.close();
    }
    const { page } = phone;
    await signOut(phone, hub);
    expect(await page.getByTestId('signed-out').innerText()).toMatch(/You signed this device out/);
  });
});
