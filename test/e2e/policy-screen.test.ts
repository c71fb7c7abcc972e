/**
 * The approval rules screen (docs/SECURITY.md "Approval rules") at phone size (390×844) against a
 * real hub: an admin adds rules, reorders and saves them (they survive a reload), a bad rule is
 * named under its field, a change made behind the page's back answers with the conflict, the dry
 * run names the rule that decides; an operate device reads the rules, a view device is told no.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerSecret } from '../security/helpers/log-capture.js';
import { openDevice } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { pair, shoot } from './support/flow.js';

const { hub, phone, laptop } = phoneHub({ laptop: true });

const policyBody = z.object({ revision: z.number(), rules: z.array(z.object({ id: z.string() }).loose()) });
const stored = async () => policyBody.parse(await (await hub.api('/api/policy')).json());
const ruleIds = (page: Page) => page.getByTestId('rule-id').allTextContents();
const fitsThePhone = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function addRule(page: Page, fill: (form: ReturnType<Page['getByTestId']>) => Promise<void>): Promise<void> {
  await page.getByRole('button', { name: 'Add a rule' }).click();
  const form = page.getByTestId('rule-form');
  await fill(form);
  await form.getByRole('button', { name: 'Done' }).click();
}

describe('approval rules screen', () => {
  it('an admin adds two rules, moves one up, saves, and sees them after a reload', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Admin phone', 'admin');
    await page.goto(`${hub.url}/settings`);
    await page.getByTestId('settings-policy').click();
    await page.getByText('No rules: every request waits for an operator.').waitFor();

    await addRule(page, async (form) => {
      await form.getByLabel('Rule id').fill('reads');
      await form.getByLabel('Description').fill('reads inside the workspace');
      await form.getByRole('checkbox', { name: 'read', exact: true }).check();
      await form.getByLabel('path', { exact: true }).fill('**');
      await form.getByLabel('Decide').selectOption('allow');
    });
    await addRule(page, async (form) => {
      await form.getByLabel('Rule id').fill('rm-rf');
      await form.getByRole('checkbox', { name: 'execute', exact: true }).check();
      await form.getByLabel('command', { exact: true }).fill('*rm -*r*f*');
      await form.getByRole('checkbox', { name: 'admin', exact: true }).check();
      await form.getByLabel('Quorum').fill('2');
    });
    expect(await ruleIds(page)).toEqual(['reads', 'rm-rf']);
    await page.getByRole('button', { name: 'Move rm-rf up' }).click();
    expect(await ruleIds(page)).toEqual(['rm-rf', 'reads']);
    expect(await page.getByRole('button', { name: 'Move rm-rf up' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Rules saved (revision 1)').waitFor();
    const after = await stored();
    expect(after.revision).toBe(1);
    expect(after.rules).toEqual([
      { id: 'rm-rf', match: { kind: 'execute', command: '*rm -*r*f*' }, decide: 'ask', approvers: { scopes: ['admin'] }, quorum: 2 },
      { id: 'reads', description: 'reads inside the workspace', match: { kind: 'read', path: '**' }, decide: 'allow' },
    ]);

    await page.reload();
    await page.getByTestId('rule').first().waitFor();
    expect(await ruleIds(page)).toEqual(['rm-rf', 'reads']);
    await page.getByText('Quorum 2').waitFor();
    expect(await fitsThePhone(page)).toBe(true);
    await shoot(page, 'policy-rules');
  });

  it('a bad rule id is named under its field and nothing is saved', async () => {
    const { page } = phone;
    await addRule(page, async (form) => {
      await form.getByLabel('Rule id').fill('bad id');
    });
    const err = page.locator('[data-testid="field-error"][data-field="id"]');
    await expect.poll(() => err.textContent()).toBe('a rule id is letters, digits, ".", "_" and "-"');
    expect(await fitsThePhone(page)).toBe(true);
    await shoot(page, 'policy-field-error');
    // A used id is refused as the hub refuses it.
    await page.getByLabel('Rule id').fill('reads');
    await page.getByTestId('rule-form').getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => err.textContent()).toBe('rule id "reads" is used twice');
    await page.getByTestId('rule-form').getByRole('button', { name: 'Cancel' }).click();
    expect((await stored()).revision).toBe(1);
  });

  it('a change made elsewhere meanwhile answers with the conflict and a reload shows it', async () => {
    const { page } = phone;
    const put = await hub.api('/api/policy', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        revision: 1,
        rules: [...(await stored()).rules, { id: 'from-cli', match: { kind: 'plan' }, decide: 'deny' }],
      }),
    });
    expect(put.status).toBe(200);
    await page.getByRole('button', { name: 'Move reads up' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('policy-conflict').getByText('Someone else changed the rules (now revision 2).').waitFor();
    expect((await stored()).rules.map((r) => r.id)).toEqual(['rm-rf', 'reads', 'from-cli']);
    await shoot(page, 'policy-conflict');
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => ruleIds(page)).toEqual(['rm-rf', 'reads', 'from-cli']);
    await page.getByText('Revision 2').waitFor();
  });

  it('the dry run names the rule that decides a described request and who may answer', async () => {
    const { page } = phone;
    const check = page.getByTestId('policy-check');
    await check.getByLabel('Request').selectOption('execute');
    await check.getByLabel('Command').fill('rm -rf build');
    await check.getByRole('button', { name: 'Check' }).click();
    const result = check.getByTestId('check-result');
    await result.getByText('Rule: rm-rf · decision: ask').waitFor();
    expect(await result.innerText()).toContain('admin');
    await check.getByLabel('Request').selectOption('read');
    await check.getByLabel('Command').fill('');
    await check.getByLabel('Path').fill('src/a.ts');
    await check.getByRole('button', { name: 'Check' }).click();
    await result.getByText('Rule: reads · decision: allow').waitFor();
    await check.getByLabel('Path').fill('/etc/hosts');
    await check.getByRole('button', { name: 'Check' }).click();
    await result.getByText('Rule: (no rule) · decision: ask').waitFor();
    await check.scrollIntoViewIfNeeded();
    expect(await fitsThePhone(page)).toBe(true);
    await shoot(page, 'policy-dry-run');
    // The browser logs the conflict's 409 answer itself; nothing else went wrong.
    expect(phone.errors.filter((e) => !e.text.includes('status of 409'))).toEqual([]);
  });

  it('an operate device reads the rules without edit controls; a view device is told they are not for it', async () => {
    const { page } = laptop;
    await pair(laptop, hub, 'Ann phone', 'operate');
    await page.goto(`${hub.url}/settings/policy`);
    await page.getByTestId('policy-read-only').waitFor();
    expect(await ruleIds(page)).toEqual(['rm-rf', 'reads', 'from-cli']);
    for (const name of ['Add a rule', 'Save', 'Move reads up', 'Edit reads', 'Delete reads', 'Check'])
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await fitsThePhone(page)).toBe(true);
    await shoot(page, 'policy-read-only');
    expect(laptop.errors).toEqual([]);

    const viewer = await openDevice();
    try {
      const res = await hub.api('/api/pair/codes', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scope: 'view' }),
      });
      const code = z.object({ code: z.string() }).parse(await res.json()).code;
      registerSecret(code);
      await viewer.page.goto(hub.url);
      await viewer.page.getByLabel('Pairing code').fill(code);
      await viewer.page.getByLabel('Device name').fill('Wall screen');
      await viewer.page.getByRole('button', { name: 'Pair' }).click();
      await viewer.page.getByRole('heading', { name: 'Sessions' }).waitFor();
      await viewer.page.goto(`${hub.url}/settings/policy`);
      // Which scope it needs and how to get it, in the needs-operate page's words.
      const denied = viewer.page.getByTestId('policy-denied');
      await denied.getByText('Approval rules are shown to operate and admin devices; this one is paired with the view scope.').waitFor();
      expect(await denied.getByTestId('operate-how-to').innerText()).toBe(
        'To let this device operate, run zcode-hub pair on the computer that runs the hub (operate is its default scope), then open the link it prints on this device.',
      );
      expect(await denied.getByTestId('operate-how-to').locator('code').innerText()).toBe('zcode-hub pair');
      expect(await viewer.page.getByTestId('rule').count()).toBe(0);
      expect(await fitsThePhone(viewer.page)).toBe(true);
      await shoot(viewer.page, 'policy-view-device');
      expect(viewer.errors.map((e) => e.text)).toEqual([]);
    } finally {
      await viewer.close();
    }
  });
});
