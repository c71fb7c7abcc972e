/**
 * The ordered ZCode CLI candidates (src/backend/cli-candidates.ts) over real directories: fake
 * install trees laid out as the vendor ships them (the desktop app's `resources/glm/zcode.cjs`
 * beside its executable, npm's `lib/node_modules/@zcode/cli/dist/zcode.cjs` with the `bin/zcode`
 * link, the npx cache, a single executable), each with files this test creates.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectCli, type CliDetection } from '../../src/backend/cli-candidates.js';
import { inspectCliEntry } from '../../src/backend/cli-entry.js';
import type { FsProbe } from '../../src/backend/cli-detect.js';
import { buildSpawnPlan, chooseBackend } from '../../src/backend/spawn-plan.js';
import { readCliVersion } from '../../src/backend/cli-version.js';
import { buildConfig } from '../../src/config/load.js';
import { quietLogger } from './helpers.js';

const roots: string[] = [];
afterEach(() => {
  for (const d of roots.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The first bytes of an ELF executable: what the desktop's Electron binary or a single executable starts with. */
const ELF = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

function write(file: string, content: string | Buffer, mode = 0o644): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode });
  fs.chmodSync(file, mode);
  return file;
}

function link(target: string, at: string): string {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at);
  return at;
}

const cjs = '#!/usr/bin/env node\n"use strict";\n';

/** The desktop app as the .deb lays it out under /opt/ZCode: the Electron executable and resources/glm/zcode.cjs. */
function desktop(dir: string): { exe: string; entry: string } {
  return { exe: write(path.join(dir, 'zcode'), ELF, 0o755), entry: write(path.join(dir, 'resources', 'glm', 'zcode.cjs'), cjs) };
}

/** `npm install -g @zcode/cli` under `prefix`: the package, and the bin link npm makes. */
function npmGlobal(prefix: string, version: string): { bin: string; entry: string } {
  const pkg = path.join(prefix, 'lib', 'node_modules', '@zcode', 'cli');
  write(path.join(pkg, 'package.json'), JSON.stringify({ name: '@zcode/cli', version, bin: { zcode: './dist/zcode.cjs' } }));
  const entry = write(path.join(pkg, 'dist', 'zcode.cjs'), cjs, 0o755);
  const bin = link(path.relative(path.join(prefix, 'bin'), entry), path.join(prefix, 'bin', 'zcode'));
  return { bin, entry };
}

function npx(home: string, hash: string, version: string): string {
  const pkg = path.join(home, '.npm', '_npx', hash, 'node_modules', '@zcode', 'cli');
  write(path.join(pkg, 'package.json'), JSON.stringify({ name: '@zcode/cli', version }));
  return write(path.join(pkg, 'dist', 'zcode.cjs'), cjs);
}

interface World {
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
  detect: (explicit?: string) => CliDetection;
}

function world(env: (root: string) => NodeJS.ProcessEnv = () => ({})): World {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zch-cli-')));
  roots.push(root);
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const e = { HOME: home, PATH: path.join(root, 'bin'), ...env(root) };
  // The hub's own node under <root>/node: npm's default prefix is <root>/node, empty here.
  const execPath = path.join(root, 'node', 'bin', 'node');
  return {
    root,
    home,
    env: e,
    detect: (explicit) => detectCli({ env: e, platform: 'linux', execPath, cwd: root, ...(explicit !== undefined ? { explicit } : {}) }),
  };
}

/** The first system-wide desktop install of this machine (none on a machine without ZCode): what wins once ours are gone. */
function systemPick(d: CliDetection, root: string) {
  return d.candidates.find((c) => c.status === 'found' && !c.path.startsWith(root));
}

describe('the ordered ZCode CLI candidates, over real install trees', () => {
  it('explicit, then PATH, then a global npm install, then the npx cache, then the desktop app', () => {
    const w = world((root) => ({ npm_config_prefix: path.join(root, 'npm'), APPDIR: path.join(root, 'appdir') }));
    const app = desktop(path.join(w.root, 'appdir'));
    const global = npmGlobal(path.join(w.root, 'npm'), '0.16.9');
    const older = npx(w.home, 'a1b2', '0.9.0');
    const newer = npx(w.home, 'ffff', '0.16.10');
    const onPath = link(global.entry, path.join(w.root, 'bin', 'zcode'));

    let d = w.detect();
    expect(d.candidates.map((c) => c.source)).toEqual([
      'path',
      'npm-global',
      'npm-global',
      'npx-cache',
      'npx-cache',
      ...d.candidates.slice(5).map(() => 'desktop'),
    ]);
    expect(d.picked).toMatchObject({ source: 'path', path: onPath, status: 'found', entry: global.entry, launch: 'node' });
    expect(d.picked?.note).toMatch(/a link to .*dist\/zcode\.cjs/);
    expect(d.reason).toBe('the first runnable candidate in the order path → npm-global → npx-cache → desktop');
    // npm's prefix from npm_config_prefix, then the hub's node's own (empty here).
    expect(d.candidates[1]).toMatchObject({ status: 'found', entry: global.entry });
    expect(d.candidates[2]).toMatchObject({
      path: path.join(w.root, 'node', 'lib', 'node_modules', '@zcode', 'cli', 'dist', 'zcode.cjs'),
      status: 'missing',
    });
    // The npx cache: highest version first, whatever the hash directory is called.
    expect(d.candidates.slice(3, 5).map((c) => c.entry)).toEqual([newer, older]);
    expect(d.candidates[5]).toMatchObject({ source: 'desktop', path: app.entry, status: 'found' });

    // An explicit path is the only candidate, ahead of everything.
    d = w.detect(app.entry);
    expect(d.candidates).toHaveLength(1);
    expect(d.picked).toMatchObject({ source: 'explicit', entry: app.entry });
    expect(d.reason).toBe('set explicitly; nothing else is looked at');

    fs.rmSync(onPath);
    d = w.detect();
    expect(d.candidates[0]).toMatchObject({ source: 'path', status: 'missing', note: 'not on PATH (1 directory searched)' });
    expect(d.picked).toMatchObject({ source: 'npm-global', entry: global.entry });
    expect(d.reason).toBe('the first runnable candidate in the order path → npm-global → npx-cache → desktop (1 looked at before it)');

    fs.rmSync(path.join(w.root, 'npm'), { recursive: true });
    expect(w.detect().picked).toMatchObject({ source: 'npx-cache', entry: newer });

    fs.rmSync(path.join(w.home, '.npm'), { recursive: true });
    expect(w.detect().picked).toMatchObject({ source: 'desktop', entry: app.entry, launch: 'node' });

    fs.rmSync(path.join(w.root, 'appdir'), { recursive: true });
    d = w.detect();
    expect(d.candidates.filter((c) => c.path.startsWith(w.root)).every((c) => c.status === 'missing')).toBe(true);
    expect(d.picked).toEqual(systemPick(d, w.root));
    expect(d.reason).toMatch(d.picked ? /^the first runnable candidate in the order/ : /^no candidate is a runnable ZCode CLI$/);
  });

  it("a `zcode` on PATH that is the desktop app's executable is followed to its bundled zcode.cjs", () => {
    const w = world();
    const app = desktop(path.join(w.root, 'opt', 'ZCode'));
    // The .deb links /usr/bin/zcode to /opt/ZCode/zcode, the Electron app itself.
    const onPath = link(app.exe, path.join(w.root, 'bin', 'zcode'));
    const d = w.detect();
    expect(d.picked).toMatchObject({ source: 'path', path: onPath, entry: app.entry, launch: 'node' });
    expect(d.picked?.note).toMatch(/the ZCode desktop app's executable .*its bundled CLI .*resources\/glm\/zcode\.cjs is used/);
  });

  it('a shell-script `zcode` (a desktop launcher) is present but not runnable, and the next candidate wins', () => {
    const w = world((root) => ({ APPDIR: path.join(root, 'appdir') }));
    const app = desktop(path.join(w.root, 'appdir'));
    write(path.join(w.root, 'bin', 'zcode'), '#!/bin/sh\nexec electron41 /usr/lib/zcode/app.asar "$@"\n', 0o755);
    const d = w.detect();
    expect(d.candidates[0]).toMatchObject({ source: 'path', status: 'not-runnable' });
    expect(d.candidates[0]!.note).toMatch(/a shell script .*the hub runs no shell scripts/);
    expect(d.picked).toMatchObject({ source: 'desktop', entry: app.entry });
    expect(d.reason).toMatch(/\(\d+ looked at before it, 1 of them present but not runnable\)$/);
  });

  it('a single executable of the CLI on PATH runs directly; one without the execute bit is not runnable', () => {
    const w = world();
    const sea = write(path.join(w.root, 'bin', 'zcode'), ELF, 0o755);
    let d = w.detect();
    expect(d.picked).toMatchObject({ source: 'path', entry: sea, launch: 'direct' });
    expect(d.picked?.note).toBe('a native executable, run as `zcode app-server`');
    fs.chmodSync(sea, 0o644);
    d = w.detect();
    expect(d.candidates[0]).toMatchObject({ status: 'not-runnable', note: `${sea} is not executable` });
    expect(d.picked?.source).not.toBe('path');
  });

  it('explicit: a missing path is reported, a directory is searched for its zcode.cjs, a relative one is resolved', () => {
    const w = world();
    let d = w.detect(path.join(w.root, 'nope', 'zcode.cjs'));
    expect(d.picked).toBeUndefined();
    expect(d.candidates).toEqual([
      { source: 'explicit', path: path.join(w.root, 'nope', 'zcode.cjs'), status: 'missing', note: 'not found' },
    ]);
    expect(d.reason).toMatch(/set explicitly .* but not found$/);
    const app = desktop(path.join(w.root, 'install'));
    d = w.detect(path.join(w.root, 'install'));
    expect(d.picked).toMatchObject({ entry: app.entry, launch: 'node' });
    expect(w.detect('install/resources/glm/zcode.cjs').picked?.entry).toBe(app.entry);
    write(path.join(w.root, 'README'), 'not a program');
    expect(w.detect('README').candidates[0]).toMatchObject({
      status: 'not-runnable',
      note: expect.stringMatching(/neither a JavaScript entry nor an executable/),
    });
  });

  it("npm's prefix from ~/.npmrc", () => {
    const w = world();
    const global = npmGlobal(path.join(w.home, '.npm-global'), '0.16.9');
    write(path.join(w.home, '.npmrc'), `fund=false\nprefix=${path.join(w.home, '.npm-global')}\n`);
    expect(w.detect().picked).toMatchObject({ source: 'npm-global', entry: global.entry });
  });

  it('start follows the pick: node <entry> app-server, or the single executable itself; the npm package version is read', () => {
    const w = world((root) => ({ npm_config_prefix: path.join(root, 'npm') }));
    const global = npmGlobal(path.join(w.root, 'npm'), '0.16.9');
    const deps = { env: w.env, platform: 'linux' as const, logger: quietLogger(), execPath: path.join(w.root, 'node', 'bin', 'node') };
    const choice = chooseBackend({ backend: 'zcode' }, deps);
    expect({ ...choice, detection: choice.detection?.picked?.source }).toEqual({
      kind: 'zcode',
      cli: global.entry,
      launch: 'node',
      detection: 'npm-global',
    });
    expect(readCliVersion(global.entry)).toEqual({ version: '0.16.9', verified: true });

    const sea = write(path.join(w.root, 'bin', 'zcode'), ELF, 0o755);
    const direct = chooseBackend({ backend: 'auto' }, deps);
    expect({ ...direct, detection: direct.detection?.picked?.source }).toEqual({
      kind: 'zcode',
      cli: sea,
      launch: 'direct',
      detection: 'path',
    });
    const stateDir = path.join(w.root, 'state');
    const plan = buildSpawnPlan(buildConfig({ stateDir, providerFile: path.join(w.root, 'p.json') }), direct, {
      env: w.env,
      platform: 'linux',
      simulatorSpawnSpec: () => ({ command: 'x', args: [] }),
      nodePath: '/never/node',
    });
    expect(plan).toMatchObject({ kind: 'zcode', command: sea, args: ['app-server'], entry: sea });

    expect(() => chooseBackend({ backend: 'auto', zcodeCli: path.join(w.root, 'README') }, deps)).toThrow(/does not exist/);
    write(path.join(w.root, 'README'), 'text');
    expect(() => chooseBackend({ backend: 'auto', zcodeCli: path.join(w.root, 'README') }, deps)).toThrow(/cannot be run: .*neither/);
  });
});

describe('PATH hygiene', () => {
  it('relative PATH entries (`.`, `bin`) are never searched: the current directory is no source of programs', () => {
    const probe: FsProbe = { isFile: (f) => f === 'zcode' || f === 'bin/zcode', listDir: () => [], readHead: () => ELF };
    const d = detectCli({ env: { PATH: '.:bin::/nowhere' }, platform: 'linux', probe, execPath: '/nowhere/bin/node' });
    expect(d.candidates[0]).toEqual({ source: 'path', path: 'zcode', status: 'missing', note: 'not on PATH (1 directory searched)' });
    expect(d.candidates.some((c) => c.path === 'zcode' && c.status !== 'missing')).toBe(false);
    expect(d.picked).toBeUndefined();
  });
});

describe('Windows layouts (a probe over win32 paths)', () => {
  function probe(files: Record<string, string>, dirs: Record<string, string[]> = {}): FsProbe {
    return {
      isFile: (f) => f in files,
      listDir: (d) => dirs[d] ?? [],
      readText: (f) => files[f],
      readHead: (f) => Buffer.from(files[f] ?? ''),
    };
  }

  it("PATH's zcode.cmd shim of a global npm install leads to the package's dist\\zcode.cjs; zcode.exe comes first", () => {
    const prefix = 'C:\\Users\\cy\\AppData\\Roaming\\npm';
    const entry = `${prefix}\\node_modules\\@zcode\\cli\\dist\\zcode.cjs`;
    const files = { [`${prefix}\\zcode.cmd`]: '@ECHO off\r\n', [entry]: cjs };
    const env = {
      Path: `C:\\Windows;${prefix}`,
      APPDATA: 'C:\\Users\\cy\\AppData\\Roaming',
      LOCALAPPDATA: 'C:\\Users\\cy\\AppData\\Local',
    };
    const d = detectCli({ env, platform: 'win32', probe: probe(files), execPath: 'C:\\Program Files\\nodejs\\node.exe' });
    expect(d.picked).toMatchObject({ source: 'path', path: `${prefix}\\zcode.cmd`, entry, launch: 'node' });
    // %APPDATA%\npm is npm's default prefix on Windows: the same package is the npm-global row.
    expect(d.candidates.find((c) => c.source === 'npm-global')).toMatchObject({ path: entry, status: 'found' });
    const desktopEntry = 'C:\\Users\\cy\\AppData\\Local\\Programs\\ZCode\\resources\\glm\\zcode.cjs';
    expect(d.candidates.find((c) => c.path === desktopEntry)).toMatchObject({ source: 'desktop', status: 'missing' });

    const exe = 'C:\\tools\\zcode.exe';
    const d2 = detectCli({
      env: { ...env, Path: `C:\\tools;${prefix}` },
      platform: 'win32',
      probe: probe({ ...files, [exe]: 'MZ\u0090\u0000' }),
      execPath: 'C:\\Program Files\\nodejs\\node.exe',
    });
    expect(d2.picked).toMatchObject({ path: exe, launch: 'direct' });
  });

  it('a .cmd with no package beside it is not run (no shell)', () => {
    const r = inspectCliEntry('C:\\bin\\zcode.cmd', 'win32', probe({ 'C:\\bin\\zcode.cmd': '@ECHO off' }));
    expect(r).toEqual({ ok: false, status: 'not-runnable', note: expect.stringMatching(/no @zcode\/cli package beside it/) });
  });
});
