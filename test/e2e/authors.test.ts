/**
 * Who did what, on the phone: a device opened from a pairing link is asked for
 * its name before it pairs; every prompt then shows who sent it and every answered interaction
 * who answered it, by that name, on every device — not "You" and "Browser".
 */
import { describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, pairingUrl, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone, laptop } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] }, laptop: true });

describe('phone web app: authors', () => {
  it('names a device that pairs from a link; prompts and answers carry the names on every device', async () => {
    const { page } = phone;
    const url = await pairingUrl(hub);
    await page.goto(url);
    // The link fills the code but does not pair yet: the device is named first.
    const name = page.getByLabel('Device name');
    await name.waitFor();
    expect(await page.getByLabel('Pairing code').inputValue()).toBe(decodeURIComponent(url.split('#pair=')[1] ?? ''));
    expect(await name.inputValue()).toMatch(/^(Chrome|Browser)( on \w+)?$/);
    await shoot(page, 'pair-name');
    await name.fill('Ana’s phone');
    await page.getByRole('button', { name: 'Pair' }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    const tokens = (await (await hub.api('/api/tokens')).json()) as { tokens: Array<{ name: string; state: string }> };
    expect(tokens.tokens.filter((t) => t.state === 'active').map((t) => t.name)).toContain('Ana’s phone');
    // The laptop belongs to a person named apart from it: the hub names it "lee · Laptop".
    await pair(laptop, hub, 'Laptop', 'operate', 'lee');

    await newSession(page);
    const sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    await laptop.page.goto(`${hub.url}/s/${encodeURIComponent(sessionId)}`);
    await laptop.page.getByTestId('prompt-input').waitFor();

    // The phone's prompt: "(you)" on the phone, the phone's name on the laptop.
    await sendPrompt(page, 'hello from the phone');
    const phoneBubble = page.getByTestId('user-message').filter({ hasText: 'hello from the phone' });
    expect(await phoneBubble.getByTestId('msg-author').textContent()).toBe('Ana’s phone (you)');
    const seenOnLaptop = laptop.page.getByTestId('user-message').filter({ hasText: 'hello from the phone' });
    await expect.poll(() => seenOnLaptop.getByTestId('msg-author').textContent()).toBe('Ana’s phone');
    await waitIdle(page);

    // The laptop's prompt shows the laptop's name on the phone.
    await sendPrompt(laptop.page, 'hello from the laptop');
    const fromLaptop = page.getByTestId('user-message').filter({ hasText: 'hello from the laptop' });
    await expect.poll(() => fromLaptop.getByTestId('msg-author').textContent()).toBe('lee · Laptop');
    // On the laptop itself the same label as the hub's, live as after a reload.
    const ownOnLaptop = laptop.page.getByTestId('user-message').filter({ hasText: 'hello from the laptop' });
    await expect.poll(() => ownOnLaptop.getByTestId('msg-author').textContent()).toBe('lee · Laptop (you)');
    await waitIdle(page);

    // A permission answered on the laptop: the phone's toast and both cards name the laptop.
    await sendPrompt(page, 'run the tests, permission needed');
    await page.getByTestId('interaction-sheet').waitFor();
    const laptopSheet = laptop.page.getByTestId('interaction-sheet');
    await laptopSheet.waitFor();
    await laptopSheet.getByTestId('option-allow_once').click();
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toContain('Answered by lee · Laptop');
    await waitIdle(page);
    await expect.poll(() => page.getByTestId('answered-by').allTextContents()).toEqual(['Answered by lee · Laptop']);
    await expect.poll(() => laptop.page.getByTestId('answered-by').allTextContents()).toEqual(['Answered by lee · Laptop']);
    await page.getByTestId('answered-by').scrollIntoViewIfNeeded();
    await shoot(page, 'authors');

    // After a reload the chat is the agent's history, which names nobody: the hub's replay still
    // does, on this device and the other (in replay).
    await page.reload();
    await laptop.page.reload();
    for (const [p, own] of [
      [page, 'Ana’s phone (you)'],
      [laptop.page, 'Ana’s phone'],
    ] as const) {
      const bubble = p.getByTestId('user-message').filter({ hasText: 'hello from the phone' });
      await bubble.waitFor();
      await expect
        .poll(() => p.getByTestId('user-message').filter({ hasText: 'hello from the phone' }).getByTestId('msg-author').textContent())
        .toBe(own);
      await expect
        .poll(() => p.getByTestId('user-message').filter({ hasText: 'hello from the laptop' }).getByTestId('msg-author').textContent())
        .toBe(p === page ? 'lee · Laptop' : 'lee · Laptop (you)');
      await expect.poll(() => p.getByTestId('answered-by').allTextContents()).toEqual(['Answered by lee · Laptop']);
    }
    expect(phone.errors).toEqual([]);
    expect(laptop.errors).toEqual([]);
  });
});
