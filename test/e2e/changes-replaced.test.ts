/**
 * A file a Write replaced, on the phone at 390×844 after the turn and a reload: the chat is then
 * rebuilt from the agent's history, whose Write diff has no old text, as for a new file. The
 * hub's replay still marks it (`_meta.zcode.overwrites`), so the card and the Changes view say
 * "replaced · N lines" — not "new", and not "+N −0", since the lines it removed are not known.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] } });

describe('the Changes view of a replaced file', () => {
  it('after the turn and a reload: the card and the Changes view say replaced with its lines, no −0, no "new"', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Ann phone');
    fs.writeFileSync(path.join(hub.workspace, 'README.md'), '# Demo\n\nA project.\n');
    fs.mkdirSync(path.join(hub.workspace, 'src'), { recursive: true });
    fs.writeFileSync(path.join(hub.workspace, 'src', 'greet.ts'), 'export const old = 1;\n');
    await newSession(page);
    await sendPrompt(page, 'please edit the project');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('perm-edit').waitFor();
    await sheet.getByRole('button', { name: 'Allow once' }).click();
    await sheet.getByTestId('perm-write').waitFor();
    await sheet.getByRole('button', { name: 'Allow once' }).click();
    await waitIdle(page);
    const lines = fs.readFileSync(path.join(hub.workspace, 'src', 'greet.ts'), 'utf8').split('\n').length - 1;
    expect(lines).toBe(5);

    // The turn is over; the reloaded chat is the agent's history as the hub replays it.
    await page.reload();
    const card = page.getByTestId('tool-card').filter({ hasText: 'greet.ts' });
    await card.waitFor();
    await expect.poll(() => card.getByTestId('card-overwrites').count()).toBe(1);
    const link = card.getByTestId('view-changes');
    expect(await link.getByTestId('view-changes-replaced').innerText()).toBe(`replaced · ${lines} lines`);
    expect(await link.locator('.line-counts').count()).toBe(0);
    // The Edit's card still counts its lines both ways.
    const readme = page.getByTestId('tool-card').filter({ hasText: 'README.md' });
    expect(await readme.getByTestId('view-changes').locator('.lc-del').count()).toBe(1);
    const editCounts = await readme.getByTestId('view-changes').locator('.line-counts').innerText();

    await link.scrollIntoViewIfNeeded();
    await shoot(page, 'changes-replaced-card');
    await link.click();
    const greet = page.locator('[data-testid=change-file][data-path="src/greet.ts"]');
    await greet.waitFor();
    const head = greet.locator('summary');
    expect(await head.getByTestId('change-replaced').innerText()).toBe(`replaced · ${lines} lines`);
    expect(await head.locator('.pill-new').count()).toBe(0);
    expect(await head.locator('.line-counts').count()).toBe(0);
    expect(await head.innerText()).not.toContain('−0');
    expect(await greet.getByTestId('change-overwrites').innerText()).toBe(
      'Overwrites a file that existed; its diff shows only the new content.',
    );
    // The summary counts the Edit's lines only (as its card does) and says one file was replaced.
    const summary = page.getByTestId('changes-summary');
    expect(await summary.getByTestId('changes-summary-replaced').innerText()).toBe('1 replaced');
    expect(await summary.locator('.line-counts').innerText()).toBe(editCounts);
    await shoot(page, 'changes-replaced');
    expect(await axeBothThemes(page, 'changes-replaced')).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
