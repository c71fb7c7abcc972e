/**
 * A rule the phone accepts but this hub refuses (its quorum cap is configured below the
 * default the phone knows): the hub's 400 is shown under the field it names, in the rule's
 * reopened editor, and nothing is stored (docs/SECURITY.md "Approval rules"). A quorum on a rule
 * that can match a question the phone refuses itself, with the hub's message.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { phoneHub } from './support/fixture.js';
import { pair, shoot } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { limits: { policyQuorumMax: 2 } } });

describe('approval rules refused by the hub', () => {
  it('puts the hub’s message under the field it names', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Admin phone', 'admin');
    await page.goto(`${hub.url}/settings/policy`);
    await page.getByRole('button', { name: 'Add a rule' }).click();
    const form = page.getByTestId('rule-form');
    await form.getByLabel('Rule id').fill('two-admins');
    await form.getByRole('checkbox', { name: 'admin', exact: true }).check();
    await form.getByLabel('Quorum').fill('3');
    // Questions among its kinds: the phone refuses the quorum itself, in the hub's words.
    await form.getByRole('checkbox', { name: 'question', exact: true }).check();
    await form.getByRole('button', { name: 'Done' }).click();
    const own = form.locator('[data-testid="field-error"][data-field="quorum"]');
    await own.waitFor();
    expect(await own.textContent()).toContain('a quorum counts people who allow, and a question has no allow');
    // A kind without "question": the phone lets it through, and the hub's cap refuses it.
    await form.getByRole('checkbox', { name: 'question', exact: true }).uncheck();
    await form.getByRole('checkbox', { name: 'execute', exact: true }).check();
    await form.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const err = page.getByTestId('rule-form').locator('[data-testid="field-error"][data-field="quorum"]');
    await err.waitFor();
    expect(await err.textContent()).toMatch(/<=2/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shoot(page, 'policy-refused');
    const stored = z.object({ revision: z.number(), rules: z.array(z.unknown()) }).parse(await (await hub.api('/api/policy')).json());
    expect(stored).toEqual({ revision: 0, rules: [] });
  });
});
