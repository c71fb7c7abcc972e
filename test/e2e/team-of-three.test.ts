/**
 * A team of three under an approval rule, as one flow at 390×844 on a real daemon with the
 * simulator child (docs/SECURITY.md "Team control"): the admin sets, over REST, that code under
 * src/ needs two of ann and bob; ann's, bob's and cid's paired phones open the same session and
 * cid asks for an edit. The README edit is no rule's: cid allows it, and the "Answered by" toast
 * on ann's and bob's phones stays clear of the sheet that follows. The src/ write: cid's phone
 * shows "waiting for 2 people: ann or bob" and no buttons; ann votes, everyone sees
 * "1 of 2 — ann allowed"; bob completes it, everyone sees it was bob, the file is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDevice, PHONE, type Device } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, putRules, sendPrompt, shoot, waitIdle } from './support/flow.js';

const RULE = {
  id: 'code',
  description: 'code needs two',
  match: { path: 'src/**' },
  decide: 'ask',
  approvers: { people: ['ann', 'bob'] },
  quorum: 2,
};

const { hub, phone: annPhone, laptop: bobPhone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] }, laptop: true });
let cidPhone: Device;
beforeAll(async () => {
  cidPhone = await openDevice();
});
afterAll(async () => {
  await cidPhone?.close();
});

const fits = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
const sheetOf = (page: Page) => page.getByTestId('interaction-sheet');
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('a team of three under an approval rule', () => {
  it('cid waits for ann and bob, who vote from their phones; everyone sees the tally and who settled it', async () => {
    await putRules(hub, [RULE]);
    await pair(annPhone, hub, 'Ann phone', 'operate', 'ann');
    await pair(bobPhone, hub, 'Bob phone', 'operate', 'bob');
    await pair(cidPhone, hub, 'Cid phone', 'operate', 'cid');
    const ann = annPhone.page;
    const bob = bobPhone.page;
    const cid = cidPhone.page;

    await newSession(cid);
    const sessionUrl = cid.url();
    for (const p of [ann, bob]) {
      await p.goto(sessionUrl);
      await p.getByTestId('prompt-input').waitFor();
    }
    await sendPrompt(cid, 'edit the greeting');

    // The README edit matches no rule: any of the three may answer; cid does.
    for (const p of [ann, bob, cid]) await sheetOf(p).getByTestId('option-allow_once').waitFor();
    expect(await sheetOf(cid).getByTestId('perm-approval').count()).toBe(0);
    await sheetOf(cid).getByTestId('option-allow_once').click();

    // The src/ write: ann's and bob's sheets ask for two; the "Answered by cid" toast is not over them.
    const toast = ann.getByTestId('toast').filter({ hasText: 'Answered by cid' });
    await toast.waitFor();
    for (const p of [ann, bob]) {
      const sheet = sheetOf(p);
      await sheet.getByTestId('perm-progress').waitFor();
      expect(await sheet.getByTestId('perm-approval').innerText()).toBe(
        'Rule code (code needs two) · waiting for 2 people: ann or bob · 0 of 2',
      );
    }
    const [toastBox, sheetBox] = await Promise.all([toast.boundingBox(), sheetOf(ann).boundingBox()]);
    expect(toastBox && sheetBox && overlaps(toastBox, sheetBox)).toBe(false);
    await shoot(ann, 'team-ann-sheet');

    // cid may not answer it: no sheet, no buttons, the card and the banner say for whom it waits.
    const cidBanner = cid.getByTestId('waiting-others');
    await cidBanner.waitFor();
    expect(await cidBanner.innerText()).toMatch(/^waiting for 2 people: ann or bob\s*View$/);
    expect(await sheetOf(cid).count()).toBe(0);
    expect(await cid.locator('.topbar').getByTestId('state-badge').innerText()).toBe('waiting for 2 people: ann or bob');
    await cidBanner.getByTestId('waiting-view').click();
    await sheetOf(cid).getByTestId('perm-read-only').waitFor();
    expect(await sheetOf(cid).locator('.perm-actions button').count()).toBe(0);
    await fits(cid);
    await shoot(cid, 'team-cid-waiting');
    await sheetOf(cid).getByRole('button', { name: 'Later' }).click();

    // Ann votes: her sheet goes, the tally shows on all three phones.
    await sheetOf(ann).getByTestId('option-allow_once').click();
    await sheetOf(ann).waitFor({ state: 'detached' });
    await sheetOf(bob).getByText('1 of 2 — ann allowed').waitFor();
    for (const p of [ann, bob, cid])
      await p.getByTestId('card-waiting').filter({ hasText: 'waiting for 2 people: ann or bob · 1 of 2 — ann allowed' }).waitFor();
    await fits(bob);
    await shoot(bob, 'team-bob-tally');

    // Bob completes it: the write runs, and everyone's card says bob answered.
    await sheetOf(bob).getByTestId('option-allow_once').click();
    for (const p of [ann, bob, cid]) await waitIdle(p);
    for (const p of [ann, bob, cid]) {
      await expect.poll(() => p.getByTestId('answered-by').count()).toBe(2);
      expect(await p.getByTestId('answered-by').last().innerText()).toMatch(/^Answered by bob/);
      expect(await p.getByTestId('card-waiting').count()).toBe(0);
      expect(await p.getByTestId('waiting-others').count()).toBe(0);
    }
    await shoot(cid, 'team-cid-done');
    expect(fs.readFileSync(path.join(hub.workspace, 'src', 'greet.ts'), 'utf8')).toContain('Hello');
    expect([...annPhone.errors, ...bobPhone.errors, ...cidPhone.errors]).toEqual([]);
  });
});
