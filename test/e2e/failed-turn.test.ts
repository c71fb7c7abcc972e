/**
 * Failures are never silent on the phone: a turn that fails shows the error
 * under what the agent had said, on every device and after a reload, with a Retry that sends
 * the same prompt again; a turn cut off by the agent's process going away says so and keeps
 * the partial answer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { axeBothThemes } from './support/axe.js';
import { openDevice } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone, laptop } = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.4'] },
  laptop: true,
  setup: async () => {
    await pair(phone, hub, 'Failing phone');
    await pair(laptop, hub, 'Watching laptop');
  },
});

async function newSessionId(page: Page): Promise<string> {
  await newSession(page);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
}

/**
 * Starts a slow turn, waits until it has said something, and queues `queued` behind it (the hub
 * lists it in the queue). `notRun` settles 'shown' once a toast with `toastText` shows (or with
 * why not): watched from before what cuts the turn, so a short-lived toast is not missed.
 */
async function queueBehindSlowTurn(page: Page, slow: string, queued: string, toastText: string) {
  await sendPrompt(page, slow);
  const answer = page.getByTestId('agent-message').last();
  await expect.poll(async () => ((await answer.textContent()) ?? '').length).toBeGreaterThan(40);
  const said = (await answer.textContent()) ?? '';
  await sendPrompt(page, queued);
  await page.getByTestId('queue').filter({ hasText: queued }).waitFor({ timeout: 30_000 });
  const notRun = page
    .getByTestId('toast')
    .filter({ hasText: toastText })
    .waitFor({ timeout: 30_000 })
    .then(
      () => 'shown',
      (err: unknown) => String(err),
    );
  return { answer, said, notRun };
}

describe('[REC-05] phone web app: failed and interrupted turns', () => {
  it('shows a failed turn with its error and a Retry, on every device and after a reload', async () => {
    const { page } = phone;
    const sessionId = await newSessionId(page);
    await laptop.page.goto(`${hub.url}/s/${encodeURIComponent(sessionId)}`);
    await laptop.page.getByTestId('prompt-input').waitFor();

    await sendPrompt(page, 'this one will fail');
    const failed = page.getByTestId('turn-ended').and(page.locator('[data-outcome=failed]'));
    await failed.waitFor();
    await waitIdle(page);
    expect(await failed.textContent()).toContain('Simulated provider failure: upstream returned HTTP 500');
    // What the agent said before failing stays, above the error.
    expect(await page.getByTestId('agent-message').last().textContent()).toContain('Let me look into that');
    // One error line, not one from the marker and another from the prompt's own answer.
    expect(await page.getByTestId('turn-ended').count()).toBe(1);
    expect(await page.getByTestId('notice').count()).toBe(0);
    await shoot(page, 'failed-turn');

    // The other device sees the same failure.
    await laptop.page.getByTestId('turn-ended').and(laptop.page.locator('[data-outcome=failed]')).waitFor();

    // Retry sends the same prompt again: a second bubble, a second turn (failing again).
    await failed.getByTestId('retry-button').click();
    await expect.poll(() => page.getByTestId('user-message').filter({ hasText: 'this one will fail' }).count()).toBe(2);
    await expect.poll(() => page.getByTestId('turn-ended').count()).toBe(2);
    await waitIdle(page);

    // A reload rebuilds the same picture from history.
    await page.reload();
    await page.getByTestId('prompt-input').waitFor();
    await expect.poll(() => page.getByTestId('turn-ended').count()).toBe(2);
    expect(await page.getByTestId('turn-ended').first().textContent()).toContain('Simulated provider failure');
    expect(phone.errors).toEqual([]);
  });

  it('says a turn was interrupted when the agent’s process dies mid-turn, and keeps the partial answer', async () => {
    const { page } = phone;
    await page.goto(hub.url);
    await newSession(page);
    await sendPrompt(page, 'slow answer before a crash');
    const answer = page.getByTestId('agent-message').last();
    await expect.poll(async () => ((await answer.textContent()) ?? '').length).toBeGreaterThan(40);
    const pid = hub.daemon.backend.status().pid;
    expect(pid).toBeDefined();
    process.kill(pid as number, 'SIGKILL');
    const interrupted = page.getByTestId('turn-ended').and(page.locator('[data-outcome=interrupted]'));
    await interrupted.waitFor({ timeout: 30_000 });
    await waitIdle(page);
    expect(((await answer.textContent()) ?? '').length).toBeGreaterThan(40);
    expect(await interrupted.getByTestId('retry-button').count()).toBe(1);
    await shoot(page, 'interrupted-turn');

    // A tool call the cut turn left waiting on its permission: its card says it did not run to the
    // end — not that the tool failed — on the phone at 390×844, readable in light and dark.
    await expect.poll(() => hub.daemon.backend.status().state, { timeout: 30_000 }).toBe('ready');
    await sendPrompt(page, 'run the tests, permission needed');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('perm-command').waitFor({ timeout: 30_000 });
    await sheet.getByRole('button', { name: 'Later' }).click();
    await sheet.waitFor({ state: 'detached' });
    process.kill(hub.daemon.backend.status().pid as number, 'SIGKILL');
    const cut = page.getByTestId('tool-card').and(page.locator('[data-unfinished=true]'));
    await cut.waitFor({ timeout: 30_000 });
    expect(await cut.locator('summary .pill').last().textContent()).toBe('not finished');
    expect(await cut.getByTestId('card-unfinished').textContent()).toContain('The turn ended before this finished');
    expect(await page.locator('[data-testid=tool-card][data-status=pending]').count()).toBe(0);
    await shoot(page, 'unfinished-tool-card');
    expect(await axeBothThemes(page, 'unfinished-tool-card')).toEqual([]);
  });

  it('after a crash loop, a prompt queued behind the cut turn comes back to the box, saying why', async () => {
    // A hub of its own whose first crash is a crash loop (crashLoopCount 1): the backend goes `failed`.
    const own = await startHub({ simArgs: ['--turn-delay-scale', '0.4'], limits: { crashLoopCount: 1 } });
    const device = await openDevice();
    try {
      await pair(device, own, 'Crash-loop phone');
      const { page } = device;
      await newSession(page);
      const { notRun } = await queueBehindSlowTurn(
        page,
        'slow answer before a crash loop',
        'queued behind the crash',
        'Not sent — The agent kept crashing',
      );
      process.kill(own.daemon.backend.status().pid as number, 'SIGKILL');
      // The cut turn is told by its marker (with what an admin can do); the queued prompt, which
      // never ran, is back in the box with a toast — not dropped, not a second notice.
      await page.getByTestId('turn-ended').and(page.locator('[data-outcome=interrupted]')).waitFor({ timeout: 30_000 });
      expect(await notRun).toBe('shown');
      expect(await page.getByTestId('prompt-input').inputValue()).toBe('queued behind the crash');
      expect(await page.getByTestId('notice').count()).toBe(0);
      expect(await page.getByTestId('user-message').filter({ hasText: 'queued behind the crash' }).count()).toBe(0);
      expect(own.daemon.backend.status().state).toBe('failed');
    } finally {
      await device.close();
      await own.close();
    }
  });

  it('after a daemon restart mid-turn, keeps what had been said, says the turn was interrupted and offers it again; a queued prompt comes back to the box', async () => {
    // A daemon of its own on a fixed port and state dir, restarted in place like a service.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-e2e-restart-'));
    const config = { stateDir: path.join(dir, 'state'), workspace: path.join(dir, 'ws'), providerFile: path.join(dir, 'providers.json') };
    fs.mkdirSync(config.workspace);
    let first: HubHarness | undefined = await startHub({ config });
    let second: HubHarness | undefined;
    const device = await openDevice();
    try {
      await pair(device, first, 'Restart phone');
      const { page } = device;
      await newSession(page);
      // A second prompt waits behind the running turn.
      const { answer, said, notRun } = await queueBehindSlowTurn(
        page,
        'slow answer across a restart',
        'queued across a restart',
        'Not sent — The hub is shutting down.',
      );
      await first.close();
      first = undefined;
      // The stopping hub answered the prompt before its socket went, naming it: once the phone has
      // seen the socket go (the answer came before it), it leaves the telling to the journaled
      // marker below (one notice, with its Retry), no "failed" under the prompt.
      await page.getByTestId('conn-indicator').and(page.locator(':not([data-status=online])')).waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('notice').count()).toBe(0);
      // The queued prompt never ran, and nothing the restarted hub replays will tell of it: the box
      // holds its text again, and a toast says why it did not go.
      expect(await notRun).toBe('shown');
      expect(await page.getByTestId('prompt-input').inputValue()).toBe('queued across a restart');
      second = await startHub({ config: { ...config, port: Number(new URL(page.url()).port) } });
      await page.getByTestId('conn-indicator').and(page.locator('[data-status=online]')).waitFor({ timeout: 30_000 });
      const interrupted = page.getByTestId('turn-ended').and(page.locator('[data-outcome=interrupted]'));
      await interrupted.waitFor({ timeout: 30_000 });
      // A reload rebuilds the chat from the restarted hub alone: the partial answer is still there, once, above the notice.
      await page.reload();
      await interrupted.waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('agent-message').count()).toBe(1);
      expect((await answer.textContent()) ?? '').toContain(said.trim());
      expect(await interrupted.textContent()).toContain('zcode-hub restarted during this turn');
      await shoot(page, 'restart-mid-turn');
      expect(await page.getByTestId('user-message').filter({ hasText: 'slow answer across a restart' }).count()).toBe(1);
      expect(await page.getByTestId('user-message').filter({ hasText: 'queued across a restart' }).count()).toBe(0);
      expect(await page.getByTestId('stop-button').count()).toBe(0);
      await interrupted.getByTestId('retry-button').click();
      await expect.poll(() => page.getByTestId('user-message').filter({ hasText: 'slow answer across a restart' }).count()).toBe(2);
      await page.getByTestId('stop-button').click();
      expect(device.errors.filter((e) => !/WebSocket|ERR_CONNECTION|Failed to load resource/.test(e.text))).toEqual([]);
    } finally {
      await device.close();
      await first?.close();
      await second?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
