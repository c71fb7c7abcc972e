/**
 * `zcode-hub doctor --probe` as a user runs it: a real CLI process spawning its own backend
 * child — the simulator, or a stand-in `zcode.cjs` (test/fixtures/drifting-app-server.cjs) that
 * runs the simulator and changes some answers — and the table and JSON it reports.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProbeReport } from '../../src/doctor/probe-report.js';
import { budget, cli, DAEMON, killStarted, ready, start, tempHome } from '../daemon/process-helpers.js';
import { fakeInstall } from '../fixtures/fake-install.js';

afterEach(killStarted);

const FAST_SIM = ['--sim-arg=--turn-delay-scale', '--sim-arg=0.2'];
/** A probe is three processes: the CLI, the stand-in `zcode.cjs` it spawns, and that one's simulator. */
const PROBE = 3;
const RECORDINGS = path.resolve(import.meta.dirname, '..', 'fixtures', 'recordings');

/** A complete, enabled personal provider: what the probe needs to prompt a real CLI (the stand-in's simulator lists its model). */
const PROVIDER_FILE = {
  schemaVersion: 1,
  config: {
    providerConfigRules: {
      providerRules: [
        {
          providerId: 'probe-test',
          enabled: true,
          config: {
            group: 'standard-personal',
            access: { type: 'api-key', apiKey: 'sk-probe-test-key-0123456789' },
            api: { type: 'anthropic-messages', baseUrl: 'https://api.example.com' },
            personalModelIds: ['m-1'],
          },
        },
      ],
    },
    modelConfigRules: { providerModelRules: [], manualProviderModelRules: [] },
  },
};

/** Runs the probe; a test that wrote no provider file gets PROVIDER_FILE (`noProvider` leaves it missing). */
function probe(
  home: string,
  stateDir: string,
  extra: string[],
  noProvider = false,
): { status: number | null; stdout: string; report: ProbeReport } {
  const providerFile = path.join(home, 'p.json');
  if (!noProvider && !fs.existsSync(providerFile)) fs.writeFileSync(providerFile, JSON.stringify(PROVIDER_FILE));
  const json = path.join(home, 'probe.json');
  const r = cli(
    home,
    ['doctor', '--probe', '--json', json, '--state-dir', stateDir, '--provider-file', path.join(home, 'p.json'), ...extra],
    PROBE,
  );
  if (!fs.existsSync(json)) throw new Error(`no report written (status ${r.status}): ${r.stdout}\n${r.stderr}`);
  return { status: r.status, stdout: r.stdout, report: JSON.parse(fs.readFileSync(json, 'utf8')) as ProbeReport };
}

const row = (report: ProbeReport, step: string, expectation: RegExp) =>
  report.rows.find((r) => r.step === step && expectation.test(r.expectation));

describe('zcode-hub doctor --probe', () => {
  it('against the simulator every row is ok, the verdict is pass, and the running state dir is left alone', {
    timeout: budget(PROBE),
  }, () => {
    const { home, stateDir } = tempHome();
    const wire = path.join(home, 'probe-wire.ndjson');
    const { status, stdout, report } = probe(home, stateDir, ['--backend', 'sim', ...FAST_SIM, '--record-wire', wire]);
    expect(report.rows.filter((r) => r.outcome !== 'ok')).toEqual([]);
    expect(report.verdict).toBe('pass');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^ok +session\/create +answers with a session snapshot/m);
    expect(stdout).toMatch(/^verdict: pass/m);
    // Every step the hub takes is there: create … delete, the prompt's events, both stops.
    for (const step of [
      'session/create',
      'session/subscribe',
      'session/send',
      'prompt',
      'v4 stop',
      'session/stop',
      'session/resume',
      'session/list',
      'v4 deleteSession',
    ])
      expect(report.rows.some((r) => r.step === step)).toBe(true);
    expect(fs.existsSync(stateDir)).toBe(false);
    expect(fs.statSync(path.join(home, 'probe.json')).mode & 0o777).toBe(0o600);
    // --record-wire records the probe's conversation too.
    const recorded = fs.readFileSync(wire, 'utf8');
    expect(recorded).toContain('"method":"session/create"');
    expect(recorded.trimEnd().split('\n').at(-1)).toContain('"event":"end"');
  });

  it('names each difference of a drifting CLI: a wrong field type, an omitted field, an unknown method', { timeout: budget(PROBE) }, () => {
    const { home, stateDir } = tempHome();
    const flags = fakeInstall(
      home,
      {
        wrongType: { method: 'session/subscribe', path: 'eventSeq', value: '7' },
        dropField: { method: 'session/list', path: 'sessions' },
        omit: ['session/messages'],
        reverse: 'interaction/requestSomethingNew',
      },
      '0.99.0',
    );
    const { status, stdout, report } = probe(home, stateDir, flags);
    expect(report.backend).toMatchObject({ kind: 'zcode', cliVersion: { version: '0.99.0', verified: false } });
    // The Node that ran it, and why; then the version warning.
    expect(stdout).toMatch(
      /^probe of the ZCode CLI 0\.99\.0 .*\nrun on .*\/node24 \(Node\.js v24\.14\.0\): given by --zcode-node \(or ZCODE_HUB_ZCODE_NODE\)\nnote: the ZCode CLI is 0\.99\.0, which this hub was not verified against/,
    );
    expect(report.backend.runtime).toMatchObject({ version: 'v24.14.0', source: 'flag' });
    expect(row(report, 'session/subscribe', /answers with the seq/)).toMatchObject({
      outcome: 'differs',
      detail: expect.stringMatching(/^result\.eventSeq: .*; seen "7"$/),
    });
    expect(row(report, 'session/list', /result\.sessions is present/)).toMatchObject({
      outcome: 'missing',
      detail: 'result.sessions is undefined',
    });
    expect(row(report, 'session/messages', /answers with the history/)).toMatchObject({
      outcome: 'missing',
      detail: expect.stringContaining('method not found (-32601)'),
    });
    expect(row(report, 'reverse requests', /every reverse request is one the hub answers/)).toMatchObject({
      outcome: 'differs',
      detail: 'the child asked interaction/requestSomethingNew (1×), which the hub does not know: it answers -32601 Method not found',
    });
    expect(row(report, 'reverse requests', /session\/requestRuntimePreferences/)?.outcome).toBe('ok');
    // What the stand-in leaves alone is still ok.
    expect(row(report, 'session/create', /answers with a session snapshot/)?.outcome).toBe('ok');
    expect(row(report, 'prompt', /turn\.started arrives/)?.outcome).toBe('ok');
    expect(report.verdict).toBe('fail');
    expect(status).toBe(1);
    expect(stdout).toMatch(/^DIFFERS +session\/subscribe .*\n +result\.eventSeq: /m);
    expect(stdout).toMatch(/^verdict: FAIL — .*2 differ, 3 missing/m);
  });

  it('a method that is never answered reads missing after limits.probeStepTimeoutMs, and the probe goes on', {
    timeout: budget(PROBE),
  }, () => {
    const { home, stateDir } = tempHome();
    const config = path.join(home, 'limits.json');
    fs.writeFileSync(config, JSON.stringify({ limits: { probeStepTimeoutMs: 1_500 } }));
    const { report } = probe(home, stateDir, [...fakeInstall(home, { hang: ['session/close'] }), '--config', config]);
    expect(row(report, 'session/close', /unloads/)).toMatchObject({
      outcome: 'missing',
      detail: 'no answer within 1500 ms (limits.probeStepTimeoutMs)',
    });
    expect(row(report, 'session/resume', /answers with the snapshot/)?.outcome).toBe('ok');
  });

  it('a turn whose events never come reads missing after limits.probeTurnTimeoutMs', { timeout: budget(PROBE) }, () => {
    const { home, stateDir } = tempHome();
    const config = path.join(home, 'limits.json');
    fs.writeFileSync(config, JSON.stringify({ limits: { probeTurnTimeoutMs: 1_000 } }));
    const { report } = probe(home, stateDir, [...fakeInstall(home, { mute: ['session/event'] }), '--config', config]);
    expect(row(report, 'prompt', /turn\.started arrives/)).toMatchObject({
      outcome: 'missing',
      detail: expect.stringMatching(/^not seen within 1000 ms \(limits\.probeTurnTimeoutMs\)/),
    });
    expect(row(report, 'prompt', /prompt_completed\|prompt_failed frees/)?.outcome).toBe('ok');
  });

  it("the report holds no secret of the provider file, not even where the child's stderr printed it", () => {
    const { home, stateDir } = tempHome();
    const apiKey = 'sk-probe-report-0123456789abcdef';
    fs.writeFileSync(
      path.join(home, 'p.json'),
      JSON.stringify({
        schemaVersion: 1,
        config: { providerConfigRules: { providerRules: [{ providerId: 'p', config: { access: { type: 'apiKey', apiKey } } }] } },
      }),
    );
    const { report } = probe(
      home,
      stateDir,
      fakeInstall(home, { stderr: `loaded provider p with key ${apiKey}`, exitOn: 'session/create' }),
    );
    expect(report.stderrTail.join('\n')).toContain('loaded provider p with key [redacted]');
    expect(JSON.stringify(report)).not.toContain(apiKey);
  });

  it('a child that exits mid-conversation: the later rows say it is not running, with its exit code', { timeout: budget(PROBE) }, () => {
    const { home, stateDir } = tempHome();
    const { status, report } = probe(home, stateDir, fakeInstall(home, { exitOn: 'session/subscribe' }));
    expect(row(report, 'session/create', /answers with a session snapshot/)?.outcome).toBe('ok');
    expect(row(report, 'session/subscribe', /answers with the seq/)).toMatchObject({
      outcome: 'missing',
      detail: expect.stringMatching(/not running: .*code 3/),
    });
    expect(row(report, 'session/list', /lists the sessions/)?.outcome).toBe('missing');
    expect(status).toBe(1);
  });

  it('a child that never answers its liveness probe: one missing row, bounded by limits.backendStartTimeoutMs', {
    timeout: budget(PROBE),
  }, () => {
    const { home, stateDir } = tempHome();
    const config = path.join(home, 'limits.json');
    fs.writeFileSync(config, JSON.stringify({ limits: { backendStartTimeoutMs: 1_000 } }));
    const { report } = probe(home, stateDir, [
      '--backend',
      'sim',
      '--sim-arg=--never-answer',
      '--sim-arg=runtime/capabilities',
      '--config',
      config,
    ]);
    expect(report.rows).toEqual([
      expect.objectContaining({ step: 'runtime/capabilities', outcome: 'missing', detail: expect.stringMatching(/liveness probe failed/) }),
    ]);
  });

  it('a real CLI without a configured provider: the prompts are skipped, labelled so, and nothing else fails', {
    timeout: budget(PROBE),
  }, () => {
    const { home, stateDir } = tempHome();
    const { status, stdout, report } = probe(home, stateDir, fakeInstall(home, {}, '0.16.9'), true);
    expect(row(report, 'prompt', /a prompt runs a turn/)).toMatchObject({
      outcome: 'skipped',
      detail: expect.stringMatching(/^no provider is configured \(no .*p\.json\): add one in the web app's settings/),
    });
    expect(report.rows.some((r) => r.step === 'session/send')).toBe(false);
    expect(report.rows.filter((r) => r.outcome === 'differs' || r.outcome === 'missing')).toEqual([]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^skipped +prompt +a prompt runs a turn to its end\n +no provider is configured/m);
  });

  it("a drifting CLI's probe recording, replayed by sim --replay, gives the same rows: a user's recording reproduces here", {
    timeout: budget(2 * PROBE),
  }, () => {
    const { home, stateDir } = tempHome();
    const wire = path.join(home, 'user-wire.ndjson');
    const drift = {
      wrongType: { method: 'session/subscribe', path: 'eventSeq', value: '7' },
      omit: ['session/messages'],
      reverse: 'interaction/requestSomethingNew',
    };
    const user = probe(home, stateDir, [...fakeInstall(home, drift, '0.99.0'), '--record-wire', wire]).report;
    expect(user.verdict).toBe('fail');
    const here = probe(home, stateDir, ['--backend', 'sim', '--sim-arg=--replay', `--sim-arg=${wire}`]).report;
    expect(here.rows).toEqual(user.rows);
  });

  // Every probe recording of the directory (`<name>.ndjson` beside `<name>.rows.json`): a user's
  // recording added there with the rows it should give runs here without touching this file.
  const probeRecordings = fs
    .readdirSync(RECORDINGS)
    .filter((f) => f.endsWith('.rows.json'))
    .map((f) => f.slice(0, -'.rows.json'.length));
  it('the probe recordings include probe-drift (a drifting CLI probed)', () => {
    expect(probeRecordings).toContain('probe-drift');
  });
  it.each(probeRecordings)('test/fixtures/recordings/%s.ndjson replays to its recorded rows', { timeout: budget(2 * PROBE) }, (name) => {
    const { home, stateDir } = tempHome();
    const file = path.join(RECORDINGS, `${name}.ndjson`);
    const expected = path.join(RECORDINGS, `${name}.rows.json`);
    if (name === 'probe-drift' && process.env.ZCODE_HUB_UPDATE_RECORDINGS === '1') {
      const drift = {
        dropField: { method: 'session/list', path: 'sessions' },
        wrongType: { method: 'session/resume', path: 'runtime.eventSeq', value: -1 },
      };
      const recorded = probe(home, stateDir, [...fakeInstall(home, drift, '0.99.0'), '--record-wire', file]).report;
      fs.writeFileSync(expected, `${JSON.stringify(recorded.rows, null, 2)}\n`);
    }
    const here = probe(home, stateDir, ['--backend', 'sim', '--sim-arg=--replay', `--sim-arg=${file}`]).report;
    expect(here.rows).toEqual(JSON.parse(fs.readFileSync(expected, 'utf8')));
  });

  it('refuses --json without a file', () => {
    const { home } = tempHome();
    const r = cli(home, ['doctor', '--probe', '--json']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--json needs a FILE/);
  });

  it('bad start flags are a clear error, not a crash', () => {
    const { home } = tempHome();
    const r = cli(home, ['doctor', '--probe', '--backend', 'zcode', '--zcode-cli', path.join(os.tmpdir(), 'no-such', 'zcode.cjs')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--zcode-cli .* does not exist/);
  });
});

describe('zcode-hub doctor --probe --daemon', () => {
  it('the running daemon probes the backend it was started with: its drift named, the JSON written; none running is a clear error', {
    timeout: budget(1 + DAEMON + 1 + PROBE + 1),
  }, async () => {
    const { home, stateDir } = tempHome();
    const json = path.join(home, 'probe-daemon.json');
    const none = cli(home, ['doctor', '--probe', '--daemon', '--state-dir', stateDir]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/--daemon: no daemon is running on /);
    const flags = fakeInstall(home, { omit: ['workflows/list'] }, '0.99.0');
    start(home, stateDir, flags);
    await ready(stateDir, budget(DAEMON + 1));
    // No backend flag here: the daemon's own choice (the drifting CLI) is what gets probed.
    // The daemon starts the probe's backend itself: the stand-in CLI and its simulator.
    const r = cli(home, ['doctor', '--probe', '--daemon', '--state-dir', stateDir, '--json', json], PROBE);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^probe of the ZCode CLI 0\.99\.0 /);
    expect(r.stdout).toMatch(/^MISSING +workflows\/list +lists the saved workflows/m);
    expect(r.status).toBe(1);
    const report = JSON.parse(fs.readFileSync(json, 'utf8')) as ProbeReport;
    expect(report).toMatchObject({ verdict: 'fail', backend: { kind: 'zcode', cliVersion: { version: '0.99.0' } } });
    expect(cli(home, ['doctor', '--probe', '--daemon', '--state-dir', stateDir, '--record-wire', path.join(home, 'w.ndjson')]).status).toBe(
      2,
    );
  });
});
