/**
 * `zcode-hub doctor` names the ZCode CLI it picked, why, and every other candidate it looked at
 * (docs/APP-SERVER.md §17) — through the real CLI process, offline and against a live daemon,
 * over fake install trees laid out as the vendor ships them (files this test creates).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAdminToken } from '../../src/auth/admin-token.js';
import { readHubFile } from '../../src/daemon/state-files.js';
import { simulatorSpawnSpec } from '../../src/simulator/launcher.js';
import { budget, DAEMON, PROCESS_MS, ready } from './process-helpers.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');
const dirs: string[] = [];
const daemons: ChildProcess[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) {
    if (d.exitCode !== null || d.signalCode !== null) continue;
    const gone = new Promise((resolve) => d.once('exit', resolve));
    d.kill('SIGTERM');
    await gone;
  }
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

interface Candidate {
  source: string;
  path: string;
  status: string;
  note: string;
  entry?: string;
  launch?: string;
}
interface Report {
  checks: { id: string; status: string; message: string; details?: string[] }[];
  cli?: { picked?: Candidate; reason: string; candidates: Candidate[] };
}

function write(file: string, content: string, mode = 0o644): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode });
  return file;
}

/**
 * A machine with three ways in: a `zcode` shell launcher on PATH (the desktop's, not runnable),
 * a global npm install of @zcode/cli under npm_config_prefix, and the desktop app's bundle at
 * $APPDIR. Only the process environment points at them.
 */
function machine() {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zch-pick-')));
  dirs.push(top);
  const home = path.join(top, 'home');
  fs.mkdirSync(home);
  const launcher = write(path.join(top, 'bin', 'zcode'), '#!/bin/sh\nexec electron /usr/lib/zcode/app.asar "$@"\n', 0o755);
  const pkg = path.join(top, 'npm', 'lib', 'node_modules', '@zcode', 'cli');
  write(path.join(pkg, 'package.json'), JSON.stringify({ name: '@zcode/cli', version: '0.16.9' }));
  // The package's entry is the stand-in CLI of test/fixtures (it runs the simulator), so a daemon can run it.
  const npmEntry = path.join(pkg, 'dist', 'zcode.cjs');
  fs.mkdirSync(path.dirname(npmEntry), { recursive: true });
  fs.copyFileSync(path.join(root, 'test', 'fixtures', 'drifting-app-server.cjs'), npmEntry);
  write(path.join(pkg, 'dist', 'drift.json'), JSON.stringify({ sim: simulatorSpawnSpec(['--data-dir', path.join(top, 'sim-data')]) }));
  // A Node the CLI accepts (node-runtime.ts wants 24): the hub's own, answering --version as 24.
  const node24 = write(
    path.join(top, 'node24'),
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo v24.14.0; exit 0; fi\nexec ${JSON.stringify(process.execPath)} "$@"\n`,
    0o755,
  );
  const desktopEntry = write(path.join(top, 'appdir', 'resources', 'glm', 'zcode.cjs'), '"use strict";\n');
  const env = {
    HOME: home,
    PATH: path.join(top, 'bin'),
    npm_config_prefix: path.join(top, 'npm'),
    APPDIR: path.join(top, 'appdir'),
    ZCODE_HUB_FROM_SOURCE: '1',
  };
  const flags = ['--state-dir', path.join(home, 'state'), '--provider-file', path.join(home, 'p.json')];
  const doctor = (extra: string[]) => {
    const r = spawnSync(process.execPath, [bin, 'doctor', ...flags, ...extra], { env, encoding: 'utf8', timeout: PROCESS_MS });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const startDaemon = () => {
    const child = spawn(
      process.execPath,
      [bin, 'start', '--port', '0', '--workspace', home, '--backend', 'auto', '--zcode-node', node24, ...flags],
      { env: { ...env, ZCODE_HUB_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    daemons.push(child);
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    return { child, output: () => out };
  };
  return { top, home, launcher, npmEntry, desktopEntry, doctor, startDaemon };
}

describe('zcode-hub doctor: which ZCode CLI, and why', () => {
  it('offline: the pick, the reason, and every candidate with found / missing / not-runnable, in text and --json', {
    timeout: budget(4),
  }, () => {
    const m = machine();
    const text = m.doctor([]);
    expect(text.stderr).toBe('');
    expect(text.stdout).toMatch(
      new RegExp(
        `^ok {3}ZCode CLI: ${m.npmEntry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(global npm install of @zcode/cli\\): the first runnable candidate in the order path → npm-global → npx-cache → desktop \\(1 looked at before it, 1 of them present but not runnable\\)$`,
        'm',
      ),
    );
    expect(text.stdout).toMatch(/^ {6}1\. not-runnable zcode on PATH: .*\/bin\/zcode — a shell script .*the hub runs no shell scripts$/m);
    expect(text.stdout).toMatch(
      /^ {6}2\. found {8}global npm install of @zcode\/cli: .*dist\/zcode\.cjs — a JavaScript entry, run with Node\.js {2}← picked$/m,
    );
    expect(text.stdout).toMatch(
      /^ +\d+\. missing {6}@zcode\/cli in the npx cache: .*\/home\/\.npm\/_npx\/\*\/node_modules\/@zcode\/cli\/dist\/zcode\.cjs — not found$/m,
    );
    expect(text.stdout).toMatch(
      /^ +\d+\. found {8}the ZCode desktop app's bundled CLI: .*\/appdir\/resources\/glm\/zcode\.cjs — a JavaScript entry, run with Node\.js$/m,
    );
    expect(text.stdout).toMatch(
      /^ +\d+\. missing {6}the ZCode desktop app's bundled CLI: \/opt\/ZCode\/resources\/glm\/zcode\.cjs — not found$/m,
    );
    // The version comes from the package's own package.json, one level above dist/.
    expect(text.stdout).toMatch(/^ok {3}ZCode CLI 0\.16\.9: a version this hub was verified against$/m);

    const json = m.doctor(['--json']);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.cli?.picked).toEqual({
      source: 'npm-global',
      path: m.npmEntry,
      status: 'found',
      note: 'a JavaScript entry, run with Node.js',
      entry: m.npmEntry,
      launch: 'node',
    });
    const bySource = (s: string) => report.cli!.candidates.filter((c) => c.source === s);
    expect(bySource('path')).toEqual([expect.objectContaining({ path: m.launcher, status: 'not-runnable' })]);
    expect(bySource('npx-cache')).toEqual([expect.objectContaining({ status: 'missing' })]);
    expect(bySource('desktop')[0]).toMatchObject({ path: m.desktopEntry, status: 'found', entry: m.desktopEntry });
    expect(bySource('desktop').filter((c) => c.path.startsWith(m.top) && c.status !== 'missing')).toEqual([bySource('desktop')[0]]);
    expect(report.checks.find((c) => c.id === 'backend.cli')?.details).toHaveLength(report.cli!.candidates.length);

    // An explicit --zcode-cli is the only candidate; a wrong one fails doctor with the reason.
    const explicit = JSON.parse(m.doctor(['--json', '--zcode-cli', m.desktopEntry]).stdout) as Report;
    expect(explicit.cli).toMatchObject({ picked: { source: 'explicit', entry: m.desktopEntry }, candidates: [{ source: 'explicit' }] });
    const wrong = m.doctor(['--zcode-cli', path.join(m.top, 'nope.cjs')]);
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toMatch(
      /^FAIL the ZCode CLI set explicitly \(--zcode-cli \/ ZCODE_HUB_ZCODE_CLI \/ config file\) but not found$/m,
    );
    expect(wrong.stdout).toMatch(/^ {6}1\. missing {6}--zcode-cli .*: .*\/nope\.cjs — not found$/m);
  });

  it('against a live daemon: it runs the pick, and GET /api/doctor and doctor --json report the choice it made at start', {
    timeout: budget(DAEMON + 1 + 2),
  }, async () => {
    const m = machine();
    const stateDir = path.join(m.home, 'state');
    const d = m.startDaemon();
    // The daemon runs the stand-in CLI, which runs the simulator: three processes.
    await ready(stateDir, budget(DAEMON + 1));
    // The daemon's own log says which CLI it runs and why.
    expect(d.output()).toMatch(
      /"source":"npm-global".*"msg":"using the ZCode CLI from global npm install of @zcode\/cli: the first runnable candidate/,
    );
    // A CLI put on PATH after the start does not change what runs: doctor reports the start's pick.
    fs.rmSync(m.launcher);
    fs.symlinkSync(m.desktopEntry, m.launcher);
    const hub = readHubFile(stateDir)!;
    const health = (await (await fetch(`${hub.url}/api/health`, { headers: { accept: 'application/json' } })).json()) as {
      backend: { kind: string; state: string };
    };
    expect(health.backend).toMatchObject({ kind: 'zcode', state: 'ready' });
    const rest = (await (
      await fetch(`${hub.url}/api/doctor`, { headers: { authorization: `Bearer ${readAdminToken(stateDir)!}` } })
    ).json()) as Report;
    expect(rest.cli?.picked).toMatchObject({ source: 'npm-global', entry: m.npmEntry });
    expect(rest.cli?.candidates[0]).toMatchObject({ source: 'path', path: m.launcher, status: 'not-runnable' });
    const live = m.doctor(['--json']);
    const report = JSON.parse(live.stdout) as Report;
    expect(report.checks[0]).toMatchObject({ id: 'daemon', status: 'ok' });
    expect(report.cli).toEqual(rest.cli);
    expect(report.checks.find((c) => c.id === 'backend.cli')).toEqual(rest.checks.find((c) => c.id === 'backend.cli'));
    expect(m.doctor([]).stdout).toMatch(/^ok {3}backend zcode ready/m);
  });
});
