/**
 * A rule the phone accepts but this hub refuses (its quorum cap is configured below the
 * default the phone knows): the hub's 400 is shown under the field it names, in the rule's
 * reopened editor, and nothing is stored (docs/SECURITY.md "Approval rules").
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
