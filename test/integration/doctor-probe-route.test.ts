/**
 * `doctor --probe` from the web app's doctor screen: `POST /api/doctor/probe` (admin) runs the
 * probe against the daemon's own backend choice — a child of its own in scratch directories —
 * and `GET /api/doctor/probe` gives its report. A real daemon, the real simulator, and the
 * drifting stand-in CLI of test/fixtures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeInstall } from '../fixtures/fake-install.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';
import { captureLogger } from '../backend/helpers.js';

const hubs: HubHarness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

interface Row {
  step: string;
  expectation: string;
  outcome: string;
  detail?: string;
}
type Job =
  | { state: 'idle' }
  | { state: 'running'; startedAt: number }
  | { state: 'done'; report: { verdict: string; backend: { kind: string; entry?: string }; rows: Row[] } }
  | { state: 'failed'; error: string };

/** Polls the job until it is no longer running. */
async function finished(hub: HubHarness): Promise<Job> {
  for (;;) {
    const job = (await (await hub.api('/api/doctor/probe')).json()) as Job;
    if (job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const post = (hub: HubHarness, body: object, token?: string) =>
  hub.api('/api/doctor/probe', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    ...(token ? { token } : {}),
  });

describe('POST /api/doctor/probe', () => {
  it("against the daemon's simulator: every row ok, one probe at a time, admin only, the daemon's child and recording untouched", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-probe-route-'));
    dirs.push(dir);
    const wire = path.join(dir, 'daemon-wire.ndjson');
    const hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2'], config: { recordWire: wire } });
    hubs.push(hub);
    expect(await (await hub.api('/api/doctor/probe')).json()).toEqual({ state: 'idle' });
    const operator = await hub.token('operate');
    expect((await post(hub, {}, operator)).status).toBe(403);
    const epoch = (
      (await (await hub.api('/api/health', { headers: { accept: 'application/json' } })).json()) as { backend: { epoch: number } }
    ).backend.epoch;

    const started = await post(hub, {});
    expect(started.status).toBe(202);
    expect(await started.json()).toMatchObject({ state: 'running' });
    const again = await post(hub, {});
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'HUB_ERR_CONFLICT', message: 'a probe is already running' } });

    const job = await finished(hub);
    if (job.state !== 'done') throw new Error(`probe did not finish: ${JSON.stringify(job)}`);
    expect(job.report.backend.kind).toBe('sim');
    expect(job.report.rows.filter((r) => r.outcome !== 'ok')).toEqual([]);
    expect(job.report.rows.map((r) => r.step)).toEqual(expect.arrayContaining(['session/create', 'prompt', 'v4 deleteSession']));
    expect(job.report.verdict).toBe('pass');
    // Its own child: the daemon's was neither restarted nor written to, and the daemon's recording holds none of the probe's traffic.
    expect(
      ((await (await hub.api('/api/health', { headers: { accept: 'application/json' } })).json()) as { backend: { epoch: number } }).backend
        .epoch,
    ).toBe(epoch);
    expect(fs.readFileSync(wire, 'utf8')).not.toMatch(/zcode-hub-probe-/);
  });

  it('against a drifting CLI: names each difference, labels the skipped prompt, and the daemon lives on', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-probe-route-'));
    dirs.push(home);
    const flags = fakeInstall(
      home,
      { omit: ['session/messages'], wrongType: { method: 'session/subscribe', path: 'eventSeq', value: '7' } },
      '0.99.0',
    );
    const hub = await startHub({ config: { backend: 'zcode', zcodeCli: flags[3]!, zcodeNode: flags[5]! } });
    hubs.push(hub);
    expect((await post(hub, { prompt: true })).status).toBe(202);
    const job = await finished(hub);
    if (job.state !== 'done') throw new Error(`probe did not finish: ${JSON.stringify(job)}`);
    expect(job.report).toMatchObject({ verdict: 'fail', backend: { kind: 'zcode', entry: flags[3] } });
    const row = (step: string, outcome: string) => job.report.rows.filter((r) => r.step === step && r.outcome === outcome);
    expect(row('session/messages', 'missing')[0]?.detail).toMatch(/-32601/);
    expect(row('session/subscribe', 'differs')[0]?.detail).toMatch(/result\.eventSeq: .*seen "7"/);
    // No provider file: the prompts are skipped, and say why.
    expect(row('prompt', 'skipped')[0]?.detail).toMatch(/no provider is configured/);
    // The daemon's own backend (started beside the probe's, slower on a busy machine) comes up and stays.
    const backendState = async () =>
      ((await (await hub.api('/api/health', { headers: { accept: 'application/json' } })).json()) as { backend: { state: string } }).backend
        .state;
    await until(async () => ((await backendState()) === 'ready' ? true : undefined), "the daemon's backend to be ready");
  });

  it('a daemon shut down mid-probe stops the probe and its child before it is gone', async () => {
    const log = captureLogger('info');
    // Slow turns: the probe is still in its prompt when the daemon stops.
    const hub = await startHub({ simArgs: ['--turn-delay-scale', '5'], logger: log.logger });
    hubs.push(hub);
    expect((await post(hub, {})).status).toBe(202);
    const spawned = async (): Promise<number> => {
      for (;;) {
        const line = log.lines.find((l) => l.component === 'doctor-probe' && l.msg === 'backend spawned');
        if (line) return line.childPid as number;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const pid = await spawned();
    await hub.close();
    const alive = (() => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    })();
    expect(alive).toBe(false);
  });
});
