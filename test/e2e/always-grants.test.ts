/**
 * The "always allow" grants on the policy screen (docs/SECURITY.md "Always allow") at phone size
 * (390×844) against a real hub and simulator: a grant Ann set from her editor is listed with what
 * it allows, who set it (her verified person and device, her editor's own name only beside them)
 * and where; an operate device reads it without a remove button; the admin removes it after a
 * confirmation (dismissing the confirmation keeps it), and the hub asks again; an operate device
 * that did not prompt is not offered "Always allow" in its inbox either (the pending list).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prompt, sharedSession } from '../policy/helpers.js';
import { phoneHub } from './support/fixture.js';
import { pair, putRules, shoot } from './support/flow.js';

const { hub, phone, laptop } = phoneHub({ laptop: true });

const grantsBody = z.object({ revision: z.number(), grants: z.array(z.object({ id: z.string(), toolName: z.string() }).loose()) });
const storedGrants = async () => grantsBody.parse(await (await hub.api('/api/policy/grants')).json()).grants;
const fitsThePhone = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('"always allow" grants on the policy screen', () => {
  it('Ann picks "Always allow" in her editor; the grant is listed with who, what and where', async () => {
    const ann = await hub.token('operate', 'Ann editor', 'ann');
    const editor = await hub.initializedClient({ token: ann, name: 'zed' });
    const sessionId = await sharedSession(hub, editor, []);
    const turn = prompt(editor, sessionId, 'permission please');
    const req = await editor.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    editor.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
    expect((await turn).stopReason).toBe('end_turn');
    expect((await storedGrants()).map((g) => g.toolName)).toEqual(['Bash']);

    const { page } = phone;
    await pair(phone, hub, 'Admin phone', 'admin');
    await page.goto(`${hub.url}/settings/policy`);
    const grant = page.getByTestId('grant');
    await grant.first().waitFor();
    expect(await grant.count()).toBe(1);
    const text = await grant.innerText();
    expect(text).toContain('Bash');
    expect(text).toContain('npm test');
    expect(text).toContain('by ann · Ann editor · zed');
    expect(text).toContain(`in ${hub.workspace}`);
    await grant.scrollIntoViewIfNeeded();
    expect(await fitsThePhone(page)).toBe(true);
    await shoot(page, 'policy-always-grants');
  });

  it('an operate device reads the grants without a remove button', async () => {
    const { page } = laptop;
    await pair(laptop, hub, 'Bob phone', 'operate');
    await page.goto(`${hub.url}/settings/policy`);
    await page.getByTestId('grant').first().waitFor();
    expect(await page.getByTestId('grant').innerText()).toContain('npm test');
    expect(await page.getByRole('button', { name: 'Remove the always-allow of Bash npm test' }).count()).toBe(0);
    expect(laptop.errors).toEqual([]);
  });

  it('the admin dismisses, then confirms the removal: the grant is gone from the hub and the screen', async () => {
    const { page } = phone;
    const remove = page.getByRole('button', { name: 'Remove the always-allow of Bash npm test' });
    page.once('dialog', (d) => void d.dismiss());
    await remove.click();
    expect((await storedGrants()).length).toBe(1);
    expect(await page.getByTestId('grant').count()).toBe(1);

    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await remove.click();
    await page.getByText('Nothing is always allowed.').waitFor();
    expect(asked).toBe('Stop always allowing Bash npm test? The next such request is asked again.');
    expect(await storedGrants()).toEqual([]);
    await page.getByText('Removed: the next such request is asked again').waitFor();
    expect(await fitsThePhone(page)).toBe(true);
    expect(phone.errors).toEqual([]);
  });

  it('the admin sets who may pick "Always" on a rule: stored as the hub reads it and shown in the list', async () => {
    const { page } = phone;
    await page.getByRole('button', { name: 'Add a rule' }).click();
    const form = page.getByTestId('rule-form');
    await form.getByLabel('Rule id').fill('no-always');
    await form.getByLabel('command', { exact: true }).fill('npm test');
    await form.getByLabel('Who may pick "Always allow"').selectOption({ label: 'Nobody' });
    await form.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Rules saved (revision 1)').waitFor();
    const stored = z.object({ rules: z.array(z.unknown()) }).parse(await (await hub.api('/api/policy')).json()).rules;
    expect(stored).toEqual([{ id: 'no-always', match: { command: 'npm test' }, decide: 'ask', always: false }]);
    expect(await page.getByTestId('rule').innerText()).toContain('Who may pick "Always allow": Nobody');
    expect(await fitsThePhone(page)).toBe(true);
    expect(phone.errors).toEqual([]);
  });

  it('Bob’s inbox does not offer him "Always allow" on Ann’s request (the sheet drawn from the pending list)', async () => {
    await putRules(hub, []);
    const ann = await hub.token('operate', 'Ann laptop', 'ann');
    const editor = await hub.initializedClient({ token: ann, name: 'zed' });
    const sessionId = await sharedSession(hub, editor, []);
    const { page } = laptop;
    await page.goto(`${hub.url}/inbox`);
    const turn = prompt(editor, sessionId, 'permission please');
    await editor.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    // Not in the session: the phone learns of the request from the pending list it reloads.
    await page.getByTestId('inbox-answer').click();
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('option-allow_once').waitFor();
    const options = await sheet.locator('[data-testid^=option-]').evaluateAll((es) => es.map((e) => e.getAttribute('data-testid')));
    expect(options).toEqual(['option-allow_once', 'option-deny']);
    await shoot(page, 'inbox-permission-not-originator');
    await sheet.getByTestId('option-allow_once').click();
    expect((await turn).stopReason).toBe('end_turn');
    await editor.close();
    expect(laptop.errors).toEqual([]);
  });
});
