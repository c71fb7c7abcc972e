import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfig } from '../../src/config/load.js';
import { BackendConfigError, buildSpawnPlan, chooseBackend, MINIMAL_BUILTIN_PROVIDER_FILE } from '../../src/backend/spawn-plan.js';
import type { FsProbe } from '../../src/backend/cli-detect.js';
import { captureLogger, quietLogger } from './helpers.js';

const tmpDirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-plan-'));
  tmpDirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const none: FsProbe = { isFile: () => false, listDir: () => [] };
const fakeSim = (extra: string[]) => ({ command: '/usr/bin/node', args: ['/hub/sim/main.js', ...extra] });

describe('backend choice: --backend auto|zcode|sim, --zcode-cli', () => {
  it('sim is sim', () => {
    expect(chooseBackend({ backend: 'sim' }, { env: {}, platform: 'linux', probe: none, logger: quietLogger() })).toEqual({ kind: 'sim' });
  });

  it('auto falls back to the simulator with one clear log line', () => {
    const cap = captureLogger();
    const choice = chooseBackend({ backend: 'auto' }, { env: { HOME: '/h' }, platform: 'linux', probe: none, logger: cap.logger });
    expect(choice).toMatchObject({ kind: 'sim', detection: { reason: 'no candidate is a runnable ZCode CLI' } });
    expect(choice.cli).toBeUndefined();
    const lines = cap.lines.filter((l) => /simulator/.test(l.msg));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toMatch(/no ZCode CLI found/);
  });

  it('auto and zcode take a detected CLI; zcode without one is an error naming where it looked', () => {
    const found: FsProbe = { isFile: (f) => f === '/opt/ZCode/resources/glm/zcode.cjs', listDir: () => [] };
    const choice = chooseBackend({ backend: 'auto' }, { env: {}, platform: 'linux', probe: found, logger: quietLogger() });
    expect({ ...choice, detection: choice.detection?.picked }).toEqual({
      kind: 'zcode',
      cli: '/opt/ZCode/resources/glm/zcode.cjs',
      launch: 'node',
      detection: expect.objectContaining({ source: 'desktop', entry: '/opt/ZCode/resources/glm/zcode.cjs' }),
    });
    expect(() => chooseBackend({ backend: 'zcode' }, { env: {}, platform: 'linux', probe: none, logger: quietLogger() })).toThrow(
      /\/opt\/ZCode\/resources\/glm\/zcode\.cjs/,
    );
  });

  it('--zcode-cli must exist, whatever the mode', () => {
    expect(() =>
      chooseBackend({ backend: 'auto', zcodeCli: '/nope/zcode.cjs' }, { env: {}, platform: 'linux', probe: none, logger: quietLogger() }),
    ).toThrow(BackendConfigError);
    const yes: FsProbe = { isFile: (f) => f === '/x/zcode.cjs', listDir: () => [] };
    const choice = chooseBackend(
      { backend: 'zcode', zcodeCli: '/x/zcode.cjs' },
      { env: {}, platform: 'linux', probe: yes, logger: quietLogger() },
    );
    expect({ ...choice, detection: choice.detection?.picked?.source }).toEqual({
      kind: 'zcode',
      cli: '/x/zcode.cjs',
      launch: 'node',
      detection: 'explicit',
    });
  });
});

describe('spawn plan', () => {
  it('zcode: node <zcode.cjs> app-server, no shell, both provider variables, the minimal built-in file written 0600', () => {
    const stateDir = tmp();
    const config = buildConfig({ stateDir, providerFile: path.join(stateDir, 'p.json') });
    const plan = buildSpawnPlan(
      config,
      { kind: 'zcode', cli: '/opt/ZCode/resources/glm/zcode.cjs' },
      { env: { PATH: '/bin', SECRET: 'x' }, platform: 'linux', probe: none, simulatorSpawnSpec: fakeSim, nodePath: '/usr/bin/node' },
    );
    expect(plan.command).toBe('/usr/bin/node');
    expect(plan.args).toEqual(['/opt/ZCode/resources/glm/zcode.cjs', 'app-server']);
    const builtin = path.join(stateDir, 'zcode-builtin.json');
    expect(plan.env).toEqual({
      PATH: '/bin',
      ZCODE_BUILTIN_PROVIDER_CONFIG_FILE: builtin,
      ZCODE_PERSONAL_PROVIDER_CONFIG_FILE: path.join(stateDir, 'p.json'),
    });
    expect(JSON.parse(fs.readFileSync(builtin, 'utf8'))).toEqual(MINIMAL_BUILTIN_PROVIDER_FILE);
    expect(fs.statSync(builtin).mode & 0o777).toBe(0o600);
  });

  it('zcode: prefers the built-in file shipped beside the install, and never overwrites an existing one', () => {
    const stateDir = tmp();
    const config = buildConfig({ stateDir });
    const shipped: FsProbe = { isFile: (f) => f === '/opt/ZCode/resources/config/provider/zcode-builtin.json', listDir: () => [] };
    const plan = buildSpawnPlan(
      config,
      { kind: 'zcode', cli: '/opt/ZCode/resources/glm/zcode.cjs' },
      { env: {}, platform: 'linux', probe: shipped, simulatorSpawnSpec: fakeSim },
    );
    expect(plan.env.ZCODE_BUILTIN_PROVIDER_CONFIG_FILE).toBe('/opt/ZCode/resources/config/provider/zcode-builtin.json');
    expect(fs.existsSync(path.join(stateDir, 'zcode-builtin.json'))).toBe(false);
    fs.writeFileSync(path.join(stateDir, 'zcode-builtin.json'), '{"custom":true}');
    buildSpawnPlan(
      config,
      { kind: 'zcode', cli: '/x/zcode.cjs' },
      { env: {}, platform: 'linux', probe: none, simulatorSpawnSpec: fakeSim },
    );
    expect(fs.readFileSync(path.join(stateDir, 'zcode-builtin.json'), 'utf8')).toBe('{"custom":true}');
  });

  it('sim: the launcher gets --scenario, --data-dir <stateDir>/sim and config.simArgs', () => {
    const stateDir = tmp();
    const config = buildConfig({ stateDir, backend: 'sim', scenario: 'bench', simArgs: ['--slow-ms', '5'] });
    const plan = buildSpawnPlan(
      config,
      { kind: 'sim' },
      { env: { ZCODE_SIM_LOG_LEVEL: 'debug' }, platform: 'linux', probe: none, simulatorSpawnSpec: fakeSim },
    );
    expect(plan.args).toEqual(['/hub/sim/main.js', '--scenario', 'bench', '--data-dir', path.join(stateDir, 'sim'), '--slow-ms', '5']);
    expect(plan.entry).toBe('/hub/sim/main.js');
    expect(plan.env.ZCODE_SIM_LOG_LEVEL).toBe('debug');
    expect(plan.env.ZCODE_PERSONAL_PROVIDER_CONFIG_FILE).toBe(config.providerFile);
    expect(fs.statSync(path.join(stateDir, 'sim')).isDirectory()).toBe(true);
  });
});
