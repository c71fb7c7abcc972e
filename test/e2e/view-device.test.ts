/**
 * What a view device is offered, and that each refusal says why: at 390×844 on a real daemon
 * with the simulator child, Vic (a view token) watches Ann's session. "Waiting for others — View"
 * opens the sheet with what is asked, read-only (docs/SECURITY.md "Team control") — a Write that
 * replaces an existing file says so (and so do its card and Ann's Changes view), a question lists its questions and choices — with no answer
 * and no form. The workspace's files are for operate devices: no Files button, no "Open file" in
 * the Changes view, and the page opened by its address says so and how to get the operate scope
 * (docs/SECURITY.md "Reading workspace files") — even while the hub has not yet said the device's scope.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone: ann, laptop: vic } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] }, laptop: true });

/** No answer of any kind: no option, no form, no submit. */
async function noAnswer(sheet: Locator): Promise<void> {
  expect(await sheet.getByText('this device cannot answer it', { exact: false }).count()).toBe(1);
  expect(await sheet.locator('form, textarea, input, .perm-actions button, [data-testid="submit"]').count()).toBe(0);
}

let sessionUrl = '';

describe('a view device', () => {
  it('a Write of a file that exists: the sheet says it replaces it, with no answer', async () => {
    await pair(ann, hub, 'Ann phone', 'operate', 'ann');
    await pair(vic, hub, 'Vic phone', 'view', 'vic');
    fs.writeFileSync(path.join(hub.workspace, 'README.md'), '# Demo\n\nA project.\n');
    fs.mkdirSync(path.join(hub.workspace, 'src'), { recursive: true });
    fs.writeFileSync(path.join(hub.workspace, 'src', 'greet.ts'), 'export const old = 1;\n');
    const a = ann.page;
    const v = vic.page;
    await newSession(a);
    sessionUrl = a.url();
    await sendPrompt(a, 'please edit the project');
    const annSheet = a.getByTestId('interaction-sheet');
    await annSheet.getByTestId('perm-edit').waitFor();
    await annSheet.getByRole('button', { name: 'Allow once' }).click();
    const annWrite = annSheet.getByTestId('perm-write');
    await annWrite.waitFor();
    expect(await annWrite.locator('figcaption').innerText()).toMatch(/^src\/greet\.ts\s+replaces the existing file with these 5 lines$/);

    await v.goto(sessionUrl);
    const banner = v.getByTestId('waiting-others');
    await banner.getByTestId('waiting-view').click();
    const sheet = v.getByTestId('interaction-sheet');
    const write = sheet.getByTestId('perm-write');
    await write.waitFor();
    expect(await write.locator('figcaption').innerText()).toMatch(/replaces the existing file with these 5 lines$/);
    await noAnswer(sheet);
    await shoot(v, 'view-device-write');
    await sheet.getByRole('button', { name: 'Later' }).click();
    // The chat's card of that Write says it too, also once it is done and folded.
    const card = v.getByTestId('tool-card').filter({ hasText: 'greet.ts' });
    expect(await card.getByTestId('card-overwrites').innerText()).toBe(
      'Overwrites a file that existed; its diff shows only the new content.',
    );
    await annSheet.getByRole('button', { name: 'Allow once' }).click();
    await waitIdle(a);
    await expect.poll(() => card.getAttribute('data-status')).toBe('completed');
    expect(await card.getByTestId('card-overwrites').isVisible()).toBe(true);
    // Ann's Changes view says the same of that file: replaced, not new, and its diff is the whole new content.
    await a.getByTestId('changes-button').click();
    const greet = a.locator('[data-testid=change-file][data-path="src/greet.ts"]');
    await greet.getByTestId('change-overwrites').waitFor();
    expect(await greet.getByTestId('change-overwrites').innerText()).toBe(
      'Overwrites a file that existed; its diff shows only the new content.',
    );
    expect(await greet.getByTestId('change-replaced').innerText()).toBe('replaced · 5 lines');
    expect(await greet.locator('.pill-new').count()).toBe(0);
    await shoot(a, 'view-device-changes-replaced');
    await a.getByRole('button', { name: 'Back' }).click();
    await a.getByTestId('prompt-input').waitFor();
  });

  it('a question: its questions and choices, no form', async () => {
    const a = ann.page;
    const v = vic.page;
    await sendPrompt(a, 'a question for you');
    await a.getByTestId('interaction-sheet').waitFor();
    const banner = v.getByTestId('waiting-others');
    await banner.getByTestId('waiting-view').click();
    const sheet = v.getByTestId('interaction-sheet');
    const body = sheet.getByTestId('interaction-read-only');
    await body.waitFor();
    expect(await body.locator('li').count()).toBeGreaterThan(2);
    await noAnswer(sheet);
    await shoot(v, 'view-device-question');
    expect(await axeBothThemes(v, 'view-device-question')).toEqual([]);
  });

  it('has no Files button, and the Files page says files are for operate devices, not that the path is outside', async () => {
    const v = vic.page;
    // Workspace files are refused to a view device: it is never offered one, nor asks for one.
    const fileRequests: string[] = [];
    const gitRequests: string[] = [];
    v.on('request', (r) => {
      if (r.url().includes('/fs/')) fileRequests.push(r.url());
      if (r.url().includes('/git')) gitRequests.push(r.url());
    });
    // Every message from the hub is held while the page opens, so the page is seen before the hub
    // has said what this device may do (its `initialize` answer): no Files button, no git badge —
    // and no request for either — meanwhile.
    let holding = true;
    const held: Array<() => void> = [];
    await v.routeWebSocket(/\/acp/, (ws: WebSocketRoute) => {
      const server = ws.connectToServer();
      server.onMessage((m) => (holding ? held.push(() => ws.send(m)) : ws.send(m)));
    });
    const release = (): void => {
      for (const send of held.splice(0)) send();
      holding = false;
    };
    await v.goto(sessionUrl);
    await v.getByTestId('changes-button').waitFor();
    expect(await v.getByTestId('files-button').count()).toBe(0);
    expect(await v.getByTestId('git-badge').count()).toBe(0);
    expect(gitRequests).toEqual([]);
    release();
    await expect.poll(() => v.getByTestId('conn-indicator').getAttribute('data-status')).toBe('online');
    expect(await v.getByTestId('files-button').count()).toBe(0);
    // Its Changes view shows the diffs, without "Open file".
    await v.getByTestId('changes-button').click();
    const readme = v.locator('[data-testid=change-file][data-path="README.md"]');
    await readme.getByTestId('change-edit').waitFor();
    await v.locator('[data-testid=change-file][data-path="src/greet.ts"]').getByTestId('change-replaced').waitFor();
    expect(await v.getByTestId('open-in-files').count()).toBe(0);
    expect(fileRequests).toEqual([]);
    // Opened by its address, the page renders before the hub has said what this device may do (its
    // `initialize` answer): every message from the hub is held until the Files page is up, so the
    // page is seen deciding without it — and asking nothing meanwhile.
    holding = true;
    await v.goto(`${sessionUrl}/files`);
    await v.getByTestId('files-view').waitFor();
    expect(await v.getByTestId('operate-only').count()).toBe(0);
    expect(fileRequests).toEqual([]);
    release();
    // The refusal names what the device lacks and how it gets it.
    const refusal = v.getByTestId('operate-only');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/^This device is paired with the view scope/);
    expect(await refusal.getByTestId('operate-how-to').innerText()).toContain('zcode-hub pair');
    expect(await v.getByTestId('files-error').count()).toBe(0);
    expect(fileRequests).toEqual([]);
    await shoot(v, 'view-device-files');
  });
});
