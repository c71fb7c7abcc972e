import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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
