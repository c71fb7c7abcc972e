/**
 * Sub-agents on the phone: the simulator's `subagent` scenario has an `Agent` call spawn an
 * Explore sub-agent whose own `Glob` and `Read` calls arrive tagged `_meta.zcode.subagent`
 * (src/acp/translate-tool.ts). They must show inside the Agent card, not beside it.
 */
import { describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] } });

describe('phone web app: sub-agents', () => {
  it('nests a sub-agent’s tool calls inside the Agent card that spawned it', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Sub-agent phone');
    await newSession(page);
    await sendPrompt(page, 'Ask a subagent to survey the project');
    await page.getByTestId('user-message').filter({ hasText: 'survey the project' }).waitFor();
    await waitIdle(page);

    const messages = page.getByTestId('messages');
    // Top-level cards are direct children of the message list; nested ones are not.
    const topLevel = messages.locator(':scope > [data-testid=tool-card]');
    const agent = topLevel.filter({ has: page.locator('.tool-title', { hasText: /^Agent/ }) });
    await expect.poll(() => agent.getAttribute('data-status')).toBe('completed');
    const group = agent.getByTestId('subagent-group');
    const label = group.locator(':scope > summary');
    await expect.poll(() => label.innerText()).toMatch(/^Explore sub-agent\s+2 tool calls$/);
    expect(await label.isVisible()).toBe(true);

    const nested = group.getByTestId('tool-card');
    await expect
      .poll(() => nested.locator('.tool-title').allTextContents())
      .toEqual([expect.stringMatching(/^Glob /), expect.stringMatching(/^Read /)]);
    expect(await nested.evaluateAll((cards) => cards.map((c) => c.getAttribute('data-status')))).toEqual(['completed', 'completed']);
    // Not siblings of the Agent card: no top-level card is the sub-agent's.
    expect(await topLevel.locator(':scope > details > summary .tool-title').allTextContents()).not.toContainEqual(
      expect.stringMatching(/^(Glob|Read) /),
    );

    // Folded once the run is over, like a finished card; a tap opens the list.
    expect(await group.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    await label.click();
    await nested.first().waitFor({ state: 'visible' });
    await agent.scrollIntoViewIfNeeded();
    await shoot(page, 'subagent');
    expect(phone.errors).toEqual([]);
  });
});
