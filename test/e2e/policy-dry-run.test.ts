/**
 * The policy screen's dry run against a recent request of a session (docs/SECURITY.md "Approval
 * rules"), at 390×844 on a real daemon with the simulator child: the admin picks a session, sees
 * the requests it asked (a command answered on the phone, a question answered over REST), newest
 * first with who answered, picks one and sees the rule that decides it, the decision and who may
 * answer; a request the hub refuses shows the hub's own message.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { axeFindings } from './support/axe.js';
import { PHONE } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, putRules, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.4'] },
  setup: async ({ hub }) => {
    await putRules(hub, [
      {
        id: 'tests',
        description: 'tests need an admin',
        match: { kind: 'execute', command: 'npm test' },
        decide: 'ask',
        approvers: { scopes: ['admin'] },
      },
      { id: 'questions', match: { kind: 'question' }, decide: 'ask', approvers: { people: ['ann'], scopes: ['admin'] } },
    ]);
  },
});

const fits = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
const inbox = z.object({ interactions: z.array(z.object({ interactionId: z.string(), kind: z.string() })) });

describe('the dry run against a recent request of a session', () => {
  it('picks a session, lists its requests, and names the rule, decision and approvers of each', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Ann phone', 'admin', 'ann');
    await newSession(page);
    // A command, allowed on the phone.
    await sendPrompt(page, 'run the tests, permission needed');
    await page.getByTestId('interaction-sheet').getByTestId('option-allow_once').click();
    await waitIdle(page);
    // A question, answered over REST.
    await sendPrompt(page, 'question please');
    await expect.poll(async () => inbox.parse(await (await hub.api('/api/interactions')).json()).interactions.length).toBe(1);
    const [q] = inbox.parse(await (await hub.api('/api/interactions')).json()).interactions;
    expect(q?.kind).toBe('question');
    const answered = await hub.api(`/api/interactions/${q?.interactionId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: { 'Which package manager should I use?': 'pnpm' } }),
    });
    expect(answered.status).toBe(200);
    await waitIdle(page);

    await page.goto(`${hub.url}/settings/policy`);
    const check = page.getByTestId('policy-check');
    await check.getByLabel('Session (optional)').selectOption({ index: 1 });
    const rows = check.getByTestId('recent-request');
    await expect.poll(() => rows.count()).toBe(2);
    // Newest first, each with who answered it.
    expect(await rows.nth(0).innerText()).toMatch(/AskUserQuestion · answered by \S/);
    expect(await rows.nth(1).innerText()).toMatch(/^`npm test`\s+Bash · answered by ann/);
    await fits(page);

    await rows.nth(1).getByRole('button').click();
    const result = check.getByTestId('check-result');
    await result.getByText('Rule: tests · decision: ask').waitFor();
    expect(await result.getByTestId('check-of').innerText()).toBe('`npm test`');
    expect(await result.innerText()).toContain('waiting for an admin');
    await rows.nth(0).getByRole('button').click();
    await result.getByText('Rule: questions · decision: ask').waitFor();
    expect(await result.innerText()).toContain('waiting for an admin or ann');
    await check.scrollIntoViewIfNeeded();
    await fits(page);
    await shoot(page, 'policy-dry-run-session');
    // The list and the result are as accessible as the rest of the app (serious/critical axe findings).
    expect(await axeFindings(page)).toEqual([]);

    // What the hub refuses is shown in the hub's words.
    const tool = 'T'.repeat(300);
    const res = await hub.api('/api/policy/check', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: { kind: 'permission', tool, input: {} } }),
    });
    expect(res.status).toBe(400);
    const message = z.object({ error: z.object({ message: z.string() }) }).parse(await res.json()).error.message;
    await check.getByLabel('Session (optional)').selectOption('');
    await check.getByLabel('Request').selectOption('execute');
    await check.getByLabel(/^Tool/).fill(tool);
    await check.getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => check.getByTestId('check-error').innerText()).toContain(message);
    expect(await check.getByTestId('check-result').count()).toBe(0);
    await fits(page);
    expect(phone.errors.filter((e) => !e.text.includes('status of 400'))).toEqual([]);
  });
});
