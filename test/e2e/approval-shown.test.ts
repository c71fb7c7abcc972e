/**
 * What the hub sends about approval rules is what the phone shows (docs/CLIENT-PROTOCOL.md
 * "Approval rules"), at 390×844, two people's phones on a real daemon with the simulator child:
 * a request only Ann may answer is read-only on Bo's phone ("waiting for ann", no answer
 * buttons) while Ann's has them; under a quorum of 2 Ann's vote shows on Bo's open sheet as
 * "1 of 2 — ann allowed", and Bo's completes it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, putRules, sendPrompt, shoot, waitIdle } from './support/flow.js';

const {
  hub,
  phone: ann,
  laptop: bo,
} = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.4'] },
  laptop: true,
  setup: async ({ hub }) => {
    await putRules(hub, [
      { id: 'tests', description: 'tests need ann', match: { command: 'npm test' }, decide: 'ask', approvers: { people: ['ann'] } },
      {
        id: 'code',
        description: 'code needs two',
        match: { path: 'src/**' },
        decide: 'ask',
        approvers: { people: ['ann', 'bo'] },
        quorum: 2,
      },
    ]);
  },
});

const fits = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

describe('approval rules on the phone', () => {
  it('"waiting for ann" read-only for Bo, answer buttons for Ann; quorum progress "1 of 2 — ann allowed" on Bo’s sheet', async () => {
    await pair(ann, hub, 'Ann phone', 'operate', 'ann');
    await pair(bo, hub, 'Bo phone', 'operate', 'bo');
    const a = ann.page;
    const b = bo.page;
    await newSession(a);
    await sendPrompt(a, 'run the tests, permission needed');
    const annSheet = a.getByTestId('interaction-sheet');
    await annSheet.getByTestId('perm-command').waitFor();
    expect(await annSheet.getByTestId('perm-approval').innerText()).toBe('Rule tests (tests need ann) · waiting for ann');
    expect(await annSheet.getByTestId('option-allow_once').count()).toBe(1);

    // Bo's inbox: under "Waiting for others", and the sheet has no answers, only for whom it waits.
    await b.goto(`${hub.url}/inbox`);
    const others = b.getByTestId('inbox-others');
    await others.getByTestId('inbox-row').waitFor();
    expect(await b.getByTestId('inbox-mine').count()).toBe(0);
    await others.getByTestId('inbox-answer').click();
    const boSheet = b.getByTestId('interaction-sheet');
    await boSheet.getByTestId('perm-read-only').waitFor();
    expect(await boSheet.getByTestId('perm-read-only').innerText()).toBe('waiting for ann: this device cannot answer it.');
    expect(await boSheet.locator('.perm-actions button').count()).toBe(0);
    await fits(b);
    await shoot(b, 'approval-waiting-for-ann');

    await annSheet.getByTestId('option-allow_once').click();
    await waitIdle(a);
    const sessionId = decodeURIComponent(new URL(a.url()).pathname.split('/')[2] ?? '');

    // A quorum of 2: Bo watches the session; the README write is no rule's, the src/ write is.
    await b.goto(`${hub.url}/s/${encodeURIComponent(sessionId)}`);
    await b.getByTestId('prompt-input').waitFor();
    await sendPrompt(a, 'edit the greeting');
    await annSheet.getByTestId('option-allow_once').waitFor();
    expect(await annSheet.getByTestId('perm-approval').count()).toBe(0);
    await annSheet.getByTestId('option-allow_once').click();
    await annSheet.getByTestId('perm-progress').waitFor();
    expect(await annSheet.getByTestId('perm-approval').innerText()).toBe(
      'Rule code (code needs two) · waiting for 2 people: ann or bo · 0 of 2',
    );
    await annSheet.getByTestId('option-allow_once').click();
    await b.getByTestId('interaction-sheet').getByText('1 of 2 — ann allowed').waitFor();
    expect(await boSheet.getByTestId('perm-progress').innerText()).toBe(' · 1 of 2 — ann allowed');
    await fits(b);
    await shoot(b, 'approval-quorum-progress');
    await boSheet.getByTestId('option-allow_once').click();
    await waitIdle(a);
    expect(await b.getByTestId('answered-by').last().innerText()).toMatch(/bo/i);
  });
});
