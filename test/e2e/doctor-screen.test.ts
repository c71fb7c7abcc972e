/**
 * Settings › Doctor on an admin phone: the daemon's checks, then `doctor --probe` run by the
 * daemon against its backend (the real simulator, a child of the probe's own), its rows, the
 * verdict, and the report saved as probe.json — what docs/APP-SERVER.md §15.2 asks a user to send.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { axeBothThemes } from './support/axe.js';
import { phoneHub } from './support/fixture.js';
import { pair, shoot } from './support/flow.js';

const { hub, phone } = phoneHub({
  hub: { simArgs: ['--turn-delay-scale', '0.2'] },
  setup: async () => {
    await pair(phone, hub, 'Doctor phone', 'admin');
  },
});

describe('phone web app: the doctor screen', () => {
  it('shows the checks, runs the probe, every row ok, and downloads the report', async () => {
    const { page } = phone;
    // The daemon answers before its backend is up (slower on a busy machine); the screen would rightly say "starting".
    const backendState = async () =>
      ((await (await hub.api('/api/health', { headers: { accept: 'application/json' } })).json()) as { backend: { state: string } }).backend
        .state;
    await expect.poll(backendState, { timeout: 60_000 }).toBe('ready');
    await page.goto(`${hub.url}/settings`);
    await page.getByTestId('settings-doctor').click();
    await expect.poll(() => page.url()).toBe(`${hub.url}/settings/doctor`);
    const checks = page.getByTestId('doctor-check');
    await checks.first().waitFor();
    expect(await page.locator('[data-testid="doctor-check"][data-check="backend.state"]').textContent()).toMatch(/backend sim ready/);

    await page.getByTestId('doctor-probe-run').click();
    const verdict = page.getByTestId('doctor-probe-verdict');
    await verdict.waitFor();
    expect(await verdict.textContent()).toMatch(/^Pass: the hub works with this agent \(\d+ ok\)$/);
    const outcomes = await page.getByTestId('doctor-probe-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-outcome')));
    expect(outcomes.length).toBeGreaterThan(20);
    expect(outcomes.filter((o) => o !== 'ok')).toEqual([]);
    expect(await page.getByTestId('doctor-probe-rows').textContent()).toMatch(/session\/create.*answers with a session snapshot/);
    await shoot(page, 'doctor-probe');
    expect(await axeBothThemes(page, 'doctor')).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('doctor-probe-download').click()]);
    expect(download.suggestedFilename()).toBe('probe.json');
    const file = await download.path();
    const report = JSON.parse(fs.readFileSync(file, 'utf8')) as { verdict: string; backend: { kind: string }; rows: unknown[] };
    expect(report).toMatchObject({ verdict: 'pass', backend: { kind: 'sim' } });
    expect(report.rows.length).toBe(outcomes.length);
    expect(phone.errors).toEqual([]);
  });
});
