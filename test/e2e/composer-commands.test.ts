/**
 * The composer's `/` commands and `@` file mentions on a 390×844 phone, against the simulator:
 * the list comes from what the session offers (its models, modes, compaction, goal, and the
 * agent's own `/review`), a picked command runs on the hub (or, the agent's, goes to it as the
 * prompt text and it answers), and a mentioned file goes with the prompt as an ACP resource link
 * (the simulator's answer quotes the prompt it was given, link included).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { pair, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.2'] },
  setup: async () => {
    fs.mkdirSync(path.join(hub.workspace, 'src'), { recursive: true });
    fs.writeFileSync(path.join(hub.workspace, 'src', 'app.ts'), 'export const app = 1;\n');
    fs.writeFileSync(path.join(hub.workspace, 'notes.md'), '# Notes\n');
  },
});

const keys = (page: typeof phone.page) => page.getByTestId('suggestion').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));

describe('phone web app: commands and mentions in the composer', () => {
  it('`/` lists the session’s commands and runs the one picked', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Commands phone');
    await page.getByTestId('new-session').click();
    await page.getByRole('button', { name: 'Create' }).click();
    const box = page.getByTestId('prompt-input');
    await box.waitFor();
    // Not named yet: the header shows the fallback the session list shows, not an empty title —
    // also after a reload, when the title comes from the hub's list (an empty string).
    await expect.poll(() => page.getByTestId('title-button').innerText()).toBe('Untitled session');
    await page.reload();
    await box.waitFor();
    await expect.poll(() => page.getByTestId('title-button').innerText()).toBe('Untitled session');
    const modelPicker = page.getByTestId('picker-model');
    await modelPicker.waitFor();
    const models = await modelPicker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const current = await modelPicker.inputValue();
    const other = models.find((m) => m !== current);
    expect(other).toBeDefined();

    await box.pressSequentially('/');
    await page.getByTestId('suggestions').waitFor();
    // A bare `/` shows one of each kind (the agent's own, compaction, the goal, each picker's
    // current choice), not a page of models and modes that hides the rest.
    await expect.poll(() => keys(page)).toEqual(expect.arrayContaining(['/review', '/compact', '/goal', `/model ${current}`]));
    await box.pressSequentially('model');
    const listed = await keys(page);
    expect(listed).toEqual(models.map((m) => `/model ${m}`).slice(0, 8));
    await shoot(page, 'composer-commands');
    await page.locator(`[data-key="/model ${other}"]`).click();
    await expect.poll(() => modelPicker.inputValue()).toBe(other);
    expect(await box.inputValue()).toBe('');

    // Typed whole and sent: the goal is set on the hub and its reply shows in the chat.
    await box.fill('/goal Ship the release notes');
    expect(await page.getByTestId('suggestions').count()).toBe(0);
    await page.getByTestId('send-button').click();
    const goal = page.getByTestId('notice').filter({ hasText: 'Ship the release notes' });
    await goal.waitFor();
    // The report has structure: its first line a heading, each "Label: value" a row of its own.
    expect(await goal.locator('.notice-head').innerText()).toBe('Goal active');
    expect(await goal.locator('dt').allInnerTexts()).toEqual(['Objective', 'Usage']);
    expect(await goal.locator('dd').allInnerTexts()).toEqual(['Ship the release notes', '0 tokens / none']);
    await goal.scrollIntoViewIfNeeded();
    expect(await axeBothThemes(page, 'chat with the goal report')).toEqual([]);
    await shoot(page, 'goal-notice');
    await waitIdle(page);
    expect(await page.getByTestId('user-message').count()).toBe(0);

    // The keyboard: arrows move, Escape closes, the text stays.
    await box.fill('');
    await box.pressSequentially('/goal');
    await page.getByTestId('suggestions').waitFor();
    await box.press('ArrowDown');
    expect(await page.locator('[role=option][aria-selected=true]').getAttribute('data-key')).toBe('/goal show');
    await box.press('Escape');
    expect(await page.getByTestId('suggestions').count()).toBe(0);
    expect(await box.inputValue()).toBe('/goal');
    expect(phone.errors).toEqual([]);
  });

  it('an agent-only command, picked from the `/` menu, goes to the agent and its answer shows', async () => {
    const { page } = phone;
    const box = page.getByTestId('prompt-input');
    await box.fill('');
    // Announced by the agent (its snapshot's slashCommands), not known to the app.
    await box.pressSequentially('/rev');
    const review = page.locator('[data-key="/review"]');
    await review.waitFor();
    expect(await keys(page)).toEqual(['/review']);
    expect(await review.innerText()).toContain('/review <focus>');
    expect(await review.innerText()).toContain('Review the workspace changes and list what to fix');
    await shoot(page, 'composer-agent-command');
    // Picking it puts the command in the box for its focus; sending prompts the agent with that text.
    await review.click();
    expect(await box.inputValue()).toBe('/review ');
    await box.pressSequentially('the config bar');
    await page.getByTestId('send-button').click();
    await page.getByTestId('user-message').filter({ hasText: '/review the config bar' }).waitFor();
    const answer = page.getByTestId('agent-message').filter({ hasText: 'Review: the config bar' });
    await answer.waitFor();
    await waitIdle(page);
    expect(await answer.innerText()).toContain('No blocking issues found.');
    await shoot(page, 'composer-agent-command-answer');
    expect(phone.errors).toEqual([]);
  });

  it('`@` completes workspace paths and sends the file as a resource link', async () => {
    const { page } = phone;
    const box = page.getByTestId('prompt-input');
    await box.fill('');
    await box.pressSequentially('@s');
    await page.locator('[data-key="@src"]').click();
    expect(await box.inputValue()).toBe('@src/');
    await page.locator('[data-key="@app.ts"]').waitFor();
    expect(await keys(page)).toEqual(['@app.ts']);
    await page.locator('[data-key="@app.ts"]').click();
    expect(await box.inputValue()).toBe('@src/app.ts ');
    // Nothing outside the workspace is offered.
    await box.pressSequentially('@../');
    expect(await page.getByTestId('suggestions').count()).toBe(0);
    await box.fill('@src/app.ts ');
    await page.getByTestId('send-button').click();
    await waitIdle(page);
    const answer = page.getByTestId('agent-message').last();
    await expect.poll(() => answer.textContent()).toContain('file://');
    expect(await answer.textContent()).toContain(`${path.join(fs.realpathSync(hub.workspace), 'src', 'app.ts')}`);
  });
});
