/**
 * Session continuity on the phone: a reload in the middle of a turn keeps the
 * controls (Stop, the queued-prompt chip), and a queued prompt waits its turn instead of
 * splitting the streaming answer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { openDevice, type Device } from './support/browser.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

let hub: HubHarness | undefined;
let phone: Device | undefined;

/** A fresh daemon whose simulator runs at `scale` × its delays, and a phone paired to it. */
async function hubAt(scale: number): Promise<{ hub: HubHarness; phone: Device }> {
  await phone?.close();
  await hub?.close();
  hub = await startHub({ simArgs: ['--turn-delay-scale', String(scale)] });
  phone = await openDevice();
  await pair(phone, hub, 'Reload phone');
  return { hub, phone };
}

afterAll(async () => {
  await phone?.close();
  await hub?.close();
});

async function newSessionOn(page: Page, hub: HubHarness): Promise<void> {
  await page.goto(hub.url);
  await newSession(page);
}

/** Kinds of the message list's top-level items, in order (user, agent, thought, tool, notice). */
async function itemKinds(page: Page): Promise<string[]> {
  return page
    .getByTestId('messages')
    .evaluate((el) => [...el.children].map((c) => c.getAttribute('data-testid') ?? '').filter((k) => k !== ''));
}

/** Titles of the tool cards nested in a sub-agent group of a top-level card. */
function nestedTitles(page: Page): () => Promise<string[]> {
  return () =>
    page
      .getByTestId('messages')
      .locator(':scope > [data-testid=tool-card]')
      .getByTestId('subagent-group')
      .getByTestId('tool-card')
      .locator('.tool-title')
      .allTextContents();
}

/** Titles of the top-level tool cards. */
function topTitles(page: Page): Promise<string[]> {
  return page.getByTestId('messages').locator(':scope > [data-testid=tool-card] > details > summary .tool-title').allTextContents();
}

describe('phone web app: continuity across reloads', () => {
  it('keeps Stop and the queued-prompt chip after a reload mid-turn; the queued prompt does not split the answer', async () => {
    // The slow answer streams for ~20 s: room for a queued prompt and a reload.
    const { hub, phone } = await hubAt(2);
    const { page } = phone;
    await newSessionOn(page, hub);
    await sendPrompt(page, 'slow answer please');
    await page.getByTestId('stop-button').waitFor();
    const answer = page.getByTestId('agent-message');
    await expect.poll(async () => ((await answer.last().textContent()) ?? '').length).toBeGreaterThan(0);

    await sendPrompt(page, 'queued follow-up');
    await page.getByTestId('queue').filter({ hasText: 'queued follow-up' }).waitFor();
    // The answer keeps streaming into one bubble; the queued prompt has no bubble of its own yet.
    const before = ((await answer.last().textContent()) ?? '').length;
    await expect.poll(async () => ((await answer.last().textContent()) ?? '').length).toBeGreaterThan(before + 20);
    expect(await answer.count()).toBe(1);
    expect(await page.getByTestId('user-message').filter({ hasText: 'queued follow-up' }).count()).toBe(0);
    expect((await itemKinds(page)).at(-1)).toBe('agent-message');

    await page.reload();
    await page.getByTestId('prompt-input').waitFor();
    await page.getByTestId('stop-button').waitFor();
    await page.getByTestId('queue').filter({ hasText: 'queued follow-up' }).waitFor();
    await shoot(page, 'reload-mid-turn');

    // The queued prompt runs after the answer ends: its bubble comes after the whole answer.
    const followUp = page.getByTestId('user-message').filter({ hasText: 'queued follow-up' });
    await followUp.waitFor({ timeout: 60_000 });
    await page.getByTestId('queue').waitFor({ state: 'detached' });
    const kinds = await itemKinds(page);
    const userAt = kinds.flatMap((k, i) => (k === 'user-message' ? [i] : []));
    expect(userAt.length).toBe(2);
    // Between the two prompts: exactly one answer bubble (plus any reasoning or tool cards).
    expect(kinds.slice(userAt[0]! + 1, userAt[1]).filter((k) => k === 'agent-message')).toHaveLength(1);
    // The whole answer, from its first step: what streamed before the reload came back with the replay.
    expect((await answer.first().textContent()) ?? '').toMatch(/^\s*Step 1 of a long answer\..*Step 100 of a long answer\.\s*$/s);
    await page.getByTestId('stop-button').click();
    await waitIdle(page);
    expect(phone.errors).toEqual([]);
  });

  it('keeps a sub-agent’s cards inside the Agent card after a reload', async () => {
    const { hub, phone } = await hubAt(0.4);
    const { page } = phone;
    await newSessionOn(page, hub);
    await sendPrompt(page, 'Ask a subagent to survey the project');
    await page.getByTestId('user-message').filter({ hasText: 'survey the project' }).waitFor();
    await waitIdle(page);
    await expect.poll(nestedTitles(page)).toEqual([expect.stringMatching(/^Glob /), expect.stringMatching(/^Read /)]);

    // The reload rebuilds the chat from history: the sub-agent's calls are nested the same way.
    await page.reload();
    await page.getByTestId('prompt-input').waitFor();
    await expect.poll(nestedTitles(page)).toEqual([expect.stringMatching(/^Glob /), expect.stringMatching(/^Read /)]);
    expect(await topTitles(page)).not.toContainEqual(expect.stringMatching(/^(Glob|Read) /));
    await shoot(page, 'subagent-after-reload');
    expect(phone.errors).toEqual([]);
  });

  it('keeps a sub-agent’s cards inside the Agent card after a reload mid-turn', async () => {
    // The sub-agent's two calls take ~5 s: a reload lands inside them.
    const { hub, phone } = await hubAt(12);
    const { page } = phone;
    await newSessionOn(page, hub);
    await sendPrompt(page, 'Ask a subagent to survey the project');
    const nested = page
      .getByTestId('messages')
      .locator(':scope > [data-testid=tool-card]')
      .getByTestId('subagent-group')
      .getByTestId('tool-card');
    await expect.poll(() => nested.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('stop-button').count()).toBe(1);

    await page.reload();
    await page.getByTestId('prompt-input').waitFor();
    await page.getByTestId('stop-button').waitFor();
    await expect.poll(() => nested.count()).toBeGreaterThan(0);
    expect(await topTitles(page)).not.toContainEqual(expect.stringMatching(/^(Glob|Read) /));
    await waitIdle(page);
    await expect.poll(nestedTitles(page)).toEqual([expect.stringMatching(/^Glob /), expect.stringMatching(/^Read /)]);
    expect(await topTitles(page)).not.toContainEqual(expect.stringMatching(/^(Glob|Read) /));
    expect(phone.errors).toEqual([]);
  });
});
