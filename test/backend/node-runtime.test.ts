/**
 * The desktop app's own runtime (src/backend/node-runtime.ts): ZCode Desktop's executable is
 * Electron, which runs the bundled CLI as Node under `ELECTRON_RUN_AS_NODE=1`. Install trees are
 * laid out in temp dirs as the vendor ships them, with stand-in executables this test creates:
 * they answer `--version` as Node only when the variable is set (as Electron does), and as
 * Electron otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { realFsProbe } from '../../src/backend/cli-detect.js';
import { chooseZcodeNode, desktopExecutableCandidates } from '../../src/backend/node-runtime.js';
import { buildSpawnPlan } from '../../src/backend/spawn-plan.js';
import { buildConfig } from '../../src/config/load.js';
import { createBackend } from '../../src/backend/index.js';
import { runChecks } from '../../src/doctor/checks.js';
import { gatherFacts } from '../../src/doctor/gather.js';
import { captureLogger } from './helpers.js';

const roots: string[] = [];
afterEach(() => {
  for (const d of roots.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zch-rt-')));
  roots.push(d);
  return d;
}

function exe(file: string, body: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** Electron: Node `nodeVersion` with ELECTRON_RUN_AS_NODE=1, else its own version (and it would open a window). */
const electron = (file: string, nodeVersion: string) =>
  exe(file, `if [ "$ELECTRON_RUN_AS_NODE" = "1" ]; then echo ${nodeVersion}; else echo v41.0.0; fi; exit 0`);
const node = (file: string, version: string) => exe(file, `echo ${version}; exit 0`);

function cliIn(dir: string): string {
  const cli = path.join(dir, 'glm', 'zcode.cjs');
  fs.mkdirSync(path.dirname(cli), { recursive: true });
  fs.writeFileSync(cli, '"use strict";\n');
  return cli;
}

const deps = (hubNode: string, platform: NodeJS.Platform = 'linux') => ({ platform, probe: realFsProbe, hubNode, timeoutMs: 10_000 });

describe("the desktop app's Electron as the CLI's Node", () => {
  it("Linux (.deb, extracted AppImage): <install>/zcode runs the CLI when the hub's Node is too old", () => {
    const root = tmp();
    const cli = cliIn(path.join(root, 'opt', 'ZCode', 'resources'));
    const app = electron(path.join(root, 'opt', 'ZCode', 'zcode'), 'v24.11.1');
    const old = node(path.join(root, 'node20'), 'v20.19.0');
    expect(chooseZcodeNode(undefined, cli, deps(old))).toMatchObject({
      path: app,
      version: 'v24.11.1',
      source: 'desktop-electron',
      reason: expect.stringMatching(
        /the hub's own .*node20 is v20\.19\.0, older than 24\.0\.0; the ZCode desktop app's own executable answers as Node\.js v24\.11\.1 with ELECTRON_RUN_AS_NODE=1/,
      ),
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    // A hub Node that is new enough is kept: the Electron is not needed.
    const hub24 = node(path.join(root, 'node24'), 'v24.0.0');
    expect(chooseZcodeNode(undefined, cli, deps(hub24))).toEqual({
      path: hub24,
      version: 'v24.0.0',
      source: 'hub',
      reason: "no --zcode-node and no Node.js shipped beside the CLI; the hub's own is v24.0.0, at least 24.0.0",
    });
    // An Electron whose Node is too old too: the error still names the hub's Node and the version needed.
    electron(app, 'v22.20.0');
    expect(() => chooseZcodeNode(undefined, cli, deps(old))).toThrow(
      /the hub's own Node\.js .*node20 is Node\.js v20\.19\.0; the ZCode CLI needs 24\.0\.0 or newer/,
    );
    // --zcode-node is never second-guessed.
    expect(() => chooseZcodeNode(old, cli, deps(old))).toThrow(/--zcode-node .*node20 is Node\.js v20\.19\.0/);
  });

  it('macOS: the bundle\'s "ZCode Helper" before Contents/MacOS/ZCode', () => {
    const root = tmp();
    const contents = path.join(root, 'ZCode.app', 'Contents');
    const cli = cliIn(path.join(contents, 'Resources'));
    const main = electron(path.join(contents, 'MacOS', 'ZCode'), 'v24.11.1');
    const old = node(path.join(root, 'node20'), 'v20.19.0');
    expect(chooseZcodeNode(undefined, cli, deps(old, 'darwin')).path).toBe(main);
    const helper = electron(path.join(contents, 'Frameworks', 'ZCode Helper.app', 'Contents', 'MacOS', 'ZCode Helper'), 'v24.11.1');
    expect(chooseZcodeNode(undefined, cli, deps(old, 'darwin')).path).toBe(helper);
  });

  it('Windows: ZCode.exe beside resources\\', () => {
    expect(desktopExecutableCandidates('C:\\Users\\cy\\AppData\\Local\\Programs\\ZCode\\resources\\glm\\zcode.cjs', 'win32')).toEqual([
      'C:\\Users\\cy\\AppData\\Local\\Programs\\ZCode\\ZCode.exe',
      'C:\\Users\\cy\\AppData\\Local\\Programs\\ZCode\\zcode.exe',
    ]);
  });

  it('the spawn plan gives the child ELECTRON_RUN_AS_NODE=1 with that runtime, and not otherwise', () => {
    const root = tmp();
    const config = buildConfig({ stateDir: path.join(root, 'state'), providerFile: path.join(root, 'p.json') });
    const choice = { kind: 'zcode' as const, cli: '/opt/ZCode/resources/glm/zcode.cjs', launch: 'node' as const };
    const base = {
      env: { PATH: '/bin', ELECTRON_RUN_AS_NODE: '1' },
      platform: 'linux' as const,
      simulatorSpawnSpec: () => ({ command: 'x', args: [] }),
    };
    const viaElectron = buildSpawnPlan(config, choice, { ...base, nodePath: '/opt/ZCode/zcode', nodeEnv: { ELECTRON_RUN_AS_NODE: '1' } });
    expect(viaElectron).toMatchObject({ command: '/opt/ZCode/zcode', args: ['/opt/ZCode/resources/glm/zcode.cjs', 'app-server'] });
    expect(viaElectron.env.ELECTRON_RUN_AS_NODE).toBe('1');
    // Inherited from the hub's own environment it is dropped: only this runtime sets it.
    expect(buildSpawnPlan(config, choice, { ...base, nodePath: '/usr/bin/node' }).env.ELECTRON_RUN_AS_NODE).toBeUndefined();
  });
});

describe('a backend on the desktop Electron, end to end', () => {
  it('the child alone gets ELECTRON_RUN_AS_NODE=1, runs, and doctor names the executable and why', async () => {
    const root = tmp();
    const install = path.join(root, 'opt', 'ZCode');
    // A stand-in CLI that tells who it is: enough protocol for the link to come up.
    const cli = cliIn(path.join(install, 'resources'));
    fs.writeFileSync(
      cli,
      `const rl = require('node:readline').createInterface({ input: process.stdin });
const write = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'runtime/capabilities') write({ id: m.id, result: { independentPlanState: true } });
  else if (m.method === 'test/whoami') write({ id: m.id, result: { argv: process.argv.slice(1), env: process.env } });
  else write({ id: m.id, error: { code: -32601, message: 'Method not found: ' + m.method } });
});
rl.on('close', () => process.exit(0));
`,
    );
    // Electron: as Node (this test's node) only under ELECTRON_RUN_AS_NODE=1; otherwise it would open a window — here it refuses.
    const app = exe(
      path.join(install, 'zcode'),
      `if [ "$ELECTRON_RUN_AS_NODE" != "1" ]; then echo "electron: no window on a test machine" >&2; exit 9; fi
if [ "$1" = "--version" ]; then echo v24.11.1; exit 0; fi
exec ${JSON.stringify(process.execPath)} "$@"`,
    );
    const old = node(path.join(root, 'node20'), 'v20.19.0');
    const home = path.join(root, 'home');
    fs.mkdirSync(home);
    const config = buildConfig({
      stateDir: path.join(root, 'state'),
      backend: 'zcode',
      zcodeCli: cli,
      providerFile: path.join(home, 'p.json'),
    });
    const log = captureLogger();
    const link = createBackend(config, log.logger, { env: { PATH: process.env.PATH, HOME: home }, hubNode: old });
    try {
      await link.start();
      expect(link.status()).toMatchObject({
        state: 'ready',
        kind: 'zcode',
        cliRuntime: { path: app, version: 'v24.11.1', source: 'desktop-electron' },
      });
      const who = (await link.request('test/whoami')) as { argv: string[]; env: Record<string, string> };
      expect(who.argv).toEqual([cli, 'app-server']);
      expect(who.env.ELECTRON_RUN_AS_NODE).toBe('1');
      // The hub's own process never gets it (it would make any Electron the hub starts a Node).
      expect(process.env.ELECTRON_RUN_AS_NODE).toBeUndefined();
      expect(log.find(/^the ZCode CLI runs on this Node\.js: .*ELECTRON_RUN_AS_NODE=1/)[0]).toMatchObject({
        node: app,
        source: 'desktop-electron',
      });
      // doctor, live (GET /api/doctor builds its facts from this status): the executable, its Node and why.
      const s = link.status();
      const checks = runChecks(
        gatherFacts(config, true, {
          backendState: s.state,
          backendKind: s.kind,
          backendRestarts: s.restarts,
          stderrTail: [],
          pendingInteractions: 0,
          clients: 0,
          ...(s.cliRuntime ? { cliRuntime: s.cliRuntime } : {}),
        }),
      );
      const check = checks.find((c) => c.id === 'backend.node');
      expect(check?.status).toBe('ok');
      expect(check?.message).toBe(
        `the ZCode CLI runs on ${app} (Node.js v24.11.1, the ZCode desktop app's executable run as Node): no --zcode-node, no Node.js shipped beside the CLI, and the hub's own ${old} is v20.19.0, older than 24.0.0; the ZCode desktop app's own executable answers as Node.js v24.11.1 with ELECTRON_RUN_AS_NODE=1, which the child alone is given`,
      );
    } finally {
      await link.close();
    }
  });

  it('doctor offline: a CLI with no new enough Node is a failed check with the fix, not a crash', () => {
    const root = tmp();
    const cli = cliIn(path.join(root, 'opt', 'ZCode', 'resources'));
    const old = node(path.join(root, 'node20'), 'v20.19.0');
    const config = buildConfig({
      stateDir: path.join(root, 'state'),
      zcodeCli: cli,
      zcodeNode: old,
      providerFile: path.join(root, 'p.json'),
    });
    const check = runChecks(gatherFacts(config, false)).find((c) => c.id === 'backend.node');
    expect(check).toMatchObject({ status: 'fail', fix: expect.stringMatching(/--zcode-node/) });
    expect(check?.message).toMatch(/--zcode-node .*node20 is Node\.js v20\.19\.0; the ZCode CLI needs 24\.0\.0 or newer/);
  });
});
