/**
 * Reviewing and browsing a session's workspace on a 390×844 phone:
 * the simulator's `edit` scenario changes real files behind permissions; the Changes view lists
 * them with unified diffs — live, after a reload and on a device that joins later — and the
 * read-only Files view walks the same workspace over the confined file routes.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openDevice } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

let sessionId = '';

/** A tiny valid PNG (2×2, one colour) so the viewer has a real image to decode. */
function png(): Buffer {
  const crc = (buf: Buffer): number => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const raw = Buffer.from([0, 59, 91, 219, 59, 91, 219, 0, 59, 91, 219, 59, 91, 219]);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const { hub, phone } = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.4'] },
  setup: async () => {
    fs.writeFileSync(path.join(hub.workspace, 'README.md'), '# Demo\n\nA project.\n');
    fs.writeFileSync(path.join(hub.workspace, 'picture.png'), png());
    fs.writeFileSync(path.join(hub.workspace, 'big.log'), `${Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n')}\n`);
    fs.writeFileSync(
      path.join(hub.workspace, 'huge.log'),
      `${Array.from({ length: 50_000 }, (_, i) => `entry ${i + 1} ${'x'.repeat(20)}`).join('\n')}\n`,
    );
  },
});

describe('phone web app: Changes and Files', () => {
  it('the edit scenario’s diffs show up live in the header count and under each card', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Review phone');
    await newSession(page);
    sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    // Nothing changed yet: the header offers Changes without a count.
    expect(await page.getByTestId('changes-count').count()).toBe(0);
    await sendPrompt(page, 'please edit the project');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.waitFor();
    await expect.poll(() => sheet.innerText()).toContain('README.md');
    await sheet.getByTestId('option-allow_once').click();
    // Live: the first file counts while the second permission (the new file) is still waiting.
    await expect.poll(() => sheet.innerText()).toContain('greet.ts');
    await expect.poll(() => page.getByTestId('changes-count').textContent()).toBe('1');
    await sheet.getByTestId('option-allow_once').click();
    await waitIdle(page);
    await expect.poll(() => page.getByTestId('changes-count').textContent()).toBe('2');
    expect(await page.getByTestId('view-changes').count()).toBe(2);
    await page.getByTestId('view-changes').last().scrollIntoViewIfNeeded();
    await shoot(page, 'edit-chat');
    expect(fs.readFileSync(path.join(hub.workspace, 'src', 'greet.ts'), 'utf8')).toContain('export function greet');
  });

  it('the Changes view lists both files with numbered, highlighted, wrapping diffs', async () => {
    const { page } = phone;
    await page.getByTestId('changes-button').click();
    await page.getByTestId('changes-view').waitFor();
    const files = page.getByTestId('change-file');
    await expect.poll(() => files.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).toEqual(['README.md', 'src/greet.ts']);
    // Seen as "+14 −0"; a screen reader hears "14 lines added, 0 lines removed" (visually hidden text).
    expect(await page.getByTestId('changes-summary').innerText()).toMatch(
      /2 files changed\s+\+\d+\s+\d+ lines added\s+−0\s+0 lines removed/,
    );
    expect(await page.getByTestId('changes-summary').locator('[aria-hidden=true]').allInnerTexts()).toEqual([
      expect.stringMatching(/^\+\d+$/),
      '−0',
    ]);
    const readme = files.filter({ has: page.locator('[data-path="README.md"]') }).or(files.first());
    // The README hunk is numbered where it sits in the file now: "A project." is line 3.
    const firstRow = readme.first().locator('.ud-row').first();
    await expect.poll(() => firstRow.locator('.ud-no').allTextContents()).toEqual(['3', '3']);
    expect(await readme.first().locator('.ud-add').count()).toBeGreaterThan(3);
    expect(await readme.first().getByTestId('change-edit').getAttribute('data-status')).toBe('completed');
    // The new file: every line added, TypeScript keywords highlighted.
    const greet = files.nth(1);
    expect(await greet.locator('.pill-new').count()).toBe(1);
    expect(await greet.locator('.ud-del').count()).toBe(0);
    expect(await greet.locator('.hl-kw').first().textContent()).toBe('export');
    // Nothing scrolls sideways on the phone: long lines wrap.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shoot(page, 'changes');
  });

  it('keeps the changes after a reload, and a device that joins later sees them too', async () => {
    const { page } = phone;
    await page.reload();
    await page.getByTestId('changes-view').waitFor();
    await expect.poll(() => page.getByTestId('change-file').count()).toBe(2);

    const late = await openDevice({ colorScheme: 'dark' });
    try {
      await pair(late, hub, 'Late laptop');
      await late.page.goto(`${hub.url}/s/${encodeURIComponent(sessionId)}/changes`);
      await expect
        .poll(() => late.page.getByTestId('change-file').evaluateAll((els) => els.map((e) => e.getAttribute('data-path'))))
        .toEqual(['README.md', 'src/greet.ts']);
      expect(late.errors).toEqual([]);
    } finally {
      await late.close();
    }
  });

  it('a card’s “View changes” opens that file in the Changes view', async () => {
    const { page } = phone;
    await page.goto(`${hub.url}/s/${encodeURIComponent(sessionId)}`);
    await expect.poll(() => page.getByTestId('view-changes').count()).toBe(2);
    await page.getByTestId('view-changes').nth(1).click();
    await page.getByTestId('changes-view').waitFor();
    expect(new URL(page.url()).searchParams.get('file')).toBe(path.join(hub.workspace, 'src', 'greet.ts'));
    const greet = page.locator('[data-testid=change-file][data-path="src/greet.ts"]');
    await expect.poll(() => greet.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('prompt-input').waitFor();
  });

  it('Files: folders, a highlighted text file, line windows of a big file, an image; nothing outside the workspace', async () => {
    const { page } = phone;
    await page.getByTestId('files-button').click();
    await page.getByTestId('files-view').waitFor();
    const entries = page.getByTestId('fs-entry');
    await expect
      .poll(() => entries.locator('.fs-name').allTextContents())
      .toEqual(['src', 'README.md', 'big.log', 'huge.log', 'picture.png']);
    await shoot(page, 'files');
    await entries.filter({ hasText: 'src' }).click();
    await entries.filter({ hasText: 'greet.ts' }).click();
    const viewer = page.getByTestId('file-viewer');
    await expect.poll(() => viewer.getAttribute('data-kind')).toBe('text');
    expect(await viewer.locator('.cv-row').count()).toBe(5);
    expect(await viewer.locator('.cv-no').first().textContent()).toBe('1');
    expect(await viewer.locator('.hl-kw').first().textContent()).toBe('export');
    expect(await page.getByTestId('crumbs').innerText()).toMatch(/Workspace\s*\/\s*src\s*\/\s*greet\.ts/);
    await shoot(page, 'file-viewer');
    // Back goes up one folder at a time.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => entries.locator('.fs-name').allTextContents()).toEqual(['greet.ts']);
    await page.getByTestId('crumbs').getByRole('button', { name: 'Workspace' }).click();

    await entries.filter({ hasText: 'big.log' }).click();
    await expect.poll(() => page.getByTestId('lines-range').innerText()).toBe('Lines 1–400 of 1000');
    expect(await viewer.locator('.cv-row').count()).toBe(400);
    await page.getByTestId('lines-next').first().click();
    await expect.poll(() => page.getByTestId('lines-range').innerText()).toBe('Lines 401–800 of 1000');
    expect(await viewer.locator('.cv-code').first().textContent()).toBe('line 401');
    await page.getByTestId('crumbs').getByRole('button', { name: 'Workspace' }).click();

    // Over 1 MiB: read in line windows served by the hub, never downloaded whole.
    await entries.filter({ hasText: 'huge.log' }).click();
    await expect.poll(() => viewer.getAttribute('data-kind')).toBe('windowed');
    await expect.poll(() => page.getByTestId('lines-range').first().innerText()).toBe('Lines 1–400');
    await page.getByTestId('lines-next').first().click();
    await expect.poll(() => page.getByTestId('lines-range').first().innerText()).toBe('Lines 401–800');
    expect(await viewer.locator('.cv-code').first().textContent()).toMatch(/^entry 401 x+$/);
    expect(await viewer.locator('.cv-no').first().textContent()).toBe('401');
    await page.getByTestId('crumbs').getByRole('button', { name: 'Workspace' }).click();

    await entries.filter({ hasText: 'picture.png' }).click();
    const img = page.getByTestId('file-image');
    await img.waitFor();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(2);

    // A path that climbs out of the workspace is refused by the hub and said so.
    await page.goto(`${hub.url}/s/${encodeURIComponent(sessionId)}/files?path=${encodeURIComponent('../../../etc')}`);
    await expect.poll(() => page.getByTestId('files-error').innerText()).toMatch(/Outside this session’s workspace|Could not open/);
    expect(await page.getByTestId('fs-list').count()).toBe(0);
  });

  it('logs no console errors except the refused path', () => {
    expect(phone.errors.filter((e) => !/status of 403/.test(e.text))).toEqual([]);
  });
});
