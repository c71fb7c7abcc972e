import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHubFile } from '../../src/daemon/state-files.js';
import { until } from '../helpers/until.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const entrypoint = path.join(root, 'docker', 'entrypoint.sh');

function run(env: Record<string, string>) {
  // The entrypoint execs its arguments once its checks pass; a tiny node command stands in for the daemon.
  return spawnSync('sh', [entrypoint, process.execPath, '-e', 'process.stdout.write("started")'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
}

describe('docker entrypoint', () => {
  it('refuses a non-loopback host without an auth secret file', () => {
    const r = run({ ZCODE_HUB_HOST: '0.0.0.0' });
    expect(r.status).toBe(64);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('refusing to listen on 0.0.0.0 without an auth secret');
  });

  it('refuses a secret file that is missing or empty', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-docker-'));
    const empty = path.join(dir, 'empty');
    fs.writeFileSync(empty, '');
    expect(run({ ZCODE_HUB_HOST: '0.0.0.0', ZCODE_HUB_ADMIN_TOKEN_FILE: path.join(dir, 'nope') }).status).toBe(64);
    expect(run({ ZCODE_HUB_HOST: '0.0.0.0', ZCODE_HUB_ADMIN_TOKEN_FILE: empty }).status).toBe(64);
  });

  it('starts on a non-loopback host with a secret file, and on loopback without one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-docker-'));
    const secret = path.join(dir, 'token');
    fs.writeFileSync(secret, 'a-long-enough-secret-value-0123456789\n', { mode: 0o600 });
    const withSecret = run({ ZCODE_HUB_HOST: '0.0.0.0', ZCODE_HUB_ADMIN_TOKEN_FILE: secret });
    expect(withSecret.status).toBe(0);
    expect(withSecret.stdout).toBe('started');
    const loopback = run({ ZCODE_HUB_HOST: '127.0.0.1' });
    expect(loopback.status).toBe(0);
    expect(loopback.stdout).toBe('started');
  });

  it('Dockerfile runs as a non-root user with a health check; compose publishes on loopback only', () => {
    const dockerfile = fs.readFileSync(path.join(root, 'docker', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/api\/health/m);
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    const compose = fs.readFileSync(path.join(root, 'docker', 'compose.yaml'), 'utf8');
    const published = [...compose.matchAll(/^\s*-\s*"([^"]*:\d+:\d+)"/gm)].map((m) => m[1]);
    expect(published.length).toBeGreaterThan(0);
    for (const p of published) expect(p).toMatch(/^127\.0\.0\.1:/);
    expect(compose).toMatch(/read_only: true/);
    expect(compose).toMatch(/ZCODE_HUB_ADMIN_TOKEN_FILE: \/run\/secrets\//);
    expect(compose).toMatch(/:\/opt\/zcode:ro/);
  });
});

/** `KEY: value` lines of the hub service's `environment:` block in compose.yaml (comments skipped). */
function composeEnvironment(compose: string): Record<string, string> {
  const block = /^ {4}environment:\n((?: {6}.*\n)+)/m.exec(compose);
  if (!block) throw new Error('compose.yaml has no environment block');
  const env: Record<string, string> = {};
  for (const line of block[1]!.split('\n')) {
    const m = /^ {6}([A-Z0-9_]+): (.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!.trim();
  }
  return env;
}

/** The Dockerfile's runtime-stage `ENV A=1 \ B=2` pairs. */
function dockerfileEnvironment(dockerfile: string): Record<string, string> {
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const block = /^ENV ((?:.*\\\n)*.*)$/m.exec(runtime);
  if (!block) throw new Error('the runtime stage sets no ENV');
  return Object.fromEntries([...block[1]!.matchAll(/([A-Z0-9_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
}

describe('docker compose without a ZCode install', () => {
  it("the entrypoint with compose's environment and no ZCode CLI brings the hub up on the simulator, not an exit 1", async () => {
    const dockerfile = fs.readFileSync(path.join(root, 'docker', 'Dockerfile'), 'utf8');
    const compose = fs.readFileSync(path.join(root, 'docker', 'compose.yaml'), 'utf8');
    const env = { ...dockerfileEnvironment(dockerfile), ...composeEnvironment(compose) };
    const cliPath = env.ZCODE_HUB_ZCODE_CLI;
    expect(cliPath, 'compose points at a ZCode install').toBeTruthy();
    expect(fs.existsSync(cliPath!), `${cliPath} must not exist on this machine`).toBe(false);
    expect(env.ZCODE_HUB_BACKEND).toBe('auto');

    // The container's paths, moved into a temp dir: /data is the state volume, the secret is a file.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-compose-'));
    const data = path.join(dir, 'data');
    const secret = path.join(dir, 'admin.token');
    fs.writeFileSync(secret, 'compose-secret-value-0123456789abcdef\n', { mode: 0o600 });
    const moved = (v: string) => v.replace(/^\/data(?=\/|$)/, data).replace(/^\/run\/secrets\/zcode_hub_admin_token$/, secret);
    const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: dir, ZCODE_HUB_FROM_SOURCE: '1' };
    for (const [k, v] of Object.entries(env)) childEnv[k] = moved(v);
    childEnv.ZCODE_HUB_PORT = '0';
    // The daemon's workspace defaults to its working directory (/app in the image).
    const child = spawn('sh', [entrypoint, process.execPath, path.join(root, 'bin', 'zcode-hub.js'), 'start'], {
      cwd: dir,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const hub = await until(
        () => (child.exitCode !== null ? Promise.reject(new Error(`exited ${child.exitCode}:\n${output}`)) : readHubFile(data)),
        'the hub to write hub.json',
        80_000,
      );
      const port = new URL(hub.url).port;
      expect(await (await fetch(`http://127.0.0.1:${port}/api/health`)).text()).toBe('ok');
      const token = fs.readFileSync(secret, 'utf8').trim();
      const status = await until(async () => {
        const s = (await (
          await fetch(`http://127.0.0.1:${port}/api/status`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { backend: { kind: string; state: string } };
        return s.backend.state === 'ready' ? s : undefined;
      }, 'the backend to be ready');
      expect(status.backend.kind).toBe('sim');
      expect(output).toContain(`no ZCode CLI at ${cliPath}; starting on the simulator`);
    } finally {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // The daemon starts from its TypeScript sources (tsx compiles them at start): beside another
    // suite's spawns on two busy cores that alone took more than the default 30 s.
  }, 90_000);

  it('an explicit zcode backend with a missing CLI still refuses (the fallback is only for auto)', () => {
    const r = spawnSync('sh', [entrypoint, process.execPath, '-e', 'process.stdout.write(process.env.ZCODE_HUB_ZCODE_CLI ?? "unset")'], {
      env: { PATH: process.env.PATH ?? '', ZCODE_HUB_BACKEND: 'zcode', ZCODE_HUB_ZCODE_CLI: '/nowhere/zcode.cjs' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('/nowhere/zcode.cjs');
  });
});
