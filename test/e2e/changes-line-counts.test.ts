/**
 * A new file whose text ends in a newline, on the phone at 390×844: the permission sheet, the
 * card and the Changes view count its lines as `wc -l` does (the final newline ends the last
 * line; it adds no empty "+" line), and its diff numbers exactly those lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] } });

describe('line counts of a new file', () => {
  it('the sheet, the card and the Changes view count a file ending in a newline as wc -l does', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Ann phone');
    fs.writeFileSync(path.join(hub.workspace, 'README.md'), '# Demo\n\nA project.\n');
    await newSession(page);
    await sendPrompt(page, 'please edit the project');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('perm-edit').waitFor();
    await sheet.getByRole('button', { name: 'Allow once' }).click();
    const write = sheet.getByTestId('perm-write');
    await write.waitFor();
    // The sheet's count and rows are read before the file exists; the simulator writes a text that ends in a newline.
    const sheetCaption = await write.locator('figcaption').innerText();
    const sheetRows = await write
      .locator('[data-testid=diff-block] tr.ud-row')
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-op')}${r.querySelectorAll('td')[1]?.textContent ?? ''}`));
    await sheet.getByRole('button', { name: 'Allow once' }).click();
    await waitIdle(page);
    const text = fs.readFileSync(path.join(hub.workspace, 'src', 'greet.ts'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n').length - 1;
    expect(lines).toBe(5);
    expect(sheetCaption).toContain(`whole file, ${lines} lines`);
    expect(sheetRows).toEqual(Array.from({ length: lines }, (_, i) => `+${i + 1}`));

    const card = page.getByTestId('tool-card').filter({ hasText: 'greet.ts' });
    await card.waitFor();
    expect(await card.getByTestId('view-changes').locator('.lc-add [aria-hidden]').innerText()).toBe(`+${lines}`);
    await card.getByTestId('view-changes').click();
    const greet = page.locator('[data-testid=change-file][data-path="src/greet.ts"]');
    await greet.waitFor();
    expect(await greet.locator('summary .lc-add [aria-hidden]').innerText()).toBe(`+${lines}`);
    if ((await greet.getAttribute('open')) === null) await greet.locator('summary').click();
    const rows = greet.locator('[data-testid=diff-block] tr.ud-row');
    await expect.poll(() => rows.count()).toBe(lines);
    const last = rows.nth(lines - 1);
    expect(await last.locator('td').nth(1).innerText()).toBe(`${lines}`);
    expect((await last.locator('.ud-code').innerText()).trim()).not.toBe('');
    await shoot(page, 'changes-line-counts');
    expect(await axeBothThemes(page, 'changes-line-counts')).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
