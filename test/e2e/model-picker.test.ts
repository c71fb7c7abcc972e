/**
 * The model picker on the phone: every model a session offers can be picked,
 * with the reasoning level where the model has levels (the simulator's "Sim Pro").
 */
import { describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.4'] },
  setup: async () => {
    await pair(phone, hub, 'Settings phone', 'admin');
  },
});

describe('phone web app: model picker', () => {
  it('switches to Sim Pro and offers its reasoning levels; a prompt then runs on it', async () => {
    const { page } = phone;
    await newSession(page);
    const model = page.getByTestId('picker-model');
    const names = await model.locator('option').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['Sim Fast', 'Sim Pro']));
    await model.selectOption({ label: 'Sim Pro' });
    await expect.poll(() => model.inputValue()).toBe('sim/sim-pro');
    const level = page.getByTestId('picker-thought_level');
    await level.waitFor();
    expect(await level.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([
      'low',
      'medium',
      'high',
    ]);
    await level.selectOption('high');
    await expect.poll(() => level.inputValue()).toBe('high');
    expect(await level.locator('option:checked').textContent()).toBe('Thinking: high');
    await sendPrompt(page, 'Explain this project in a few words');
    await page.getByTestId('agent-message').first().waitFor();
    await waitIdle(page);
    await shoot(page, 'model-reasoning');
    // Back to a model without levels: the level picker goes away.
    await model.selectOption({ label: 'Sim Fast' });
    await level.waitFor({ state: 'detached' });
    expect(await page.getByTestId('toast').allTextContents()).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
