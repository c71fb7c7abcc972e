/**
 * The `--backend zcode` path end to end with a stand-in `zcode.cjs` (a few lines of protocol):
 * spawned as `node <zcode.cjs> app-server` without a shell, with the allow-listed environment,
 * both provider variables, the shipped built-in provider file, and the state dir as cwd.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfig } from '../../src/config/load.js';
import { createBackend } from '../../src/backend/index.js';
import { BackendConfigError } from '../../src/backend/spawn-plan.js';
import { captureLogger, quietLogger } from './helpers.js';

const FAKE_CLI = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const write = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'runtime/capabilities') write({ id: m.id, result: { independentPlanState: true } });
  else if (m.method === 'test/whoami') write({ id: m.id, result: { argv: process.argv.slice(1), env: process.env, cwd: process.cwd() } });
  else write({ id: m.id, error: { code: -32601, message: 'Method not found: ' + m.method } });
});
rl.on('close', () => process.exit(0));
`;

const dirs: string[] = [];
function tmp(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function fakeInstall(): { cli: string; builtin: string } {
  const root = tmp('zch-install-');
  const cli = path.join(root, 'resources', 'glm', 'zcode.cjs');
  const builtin = path.join(root, 'resources', 'config', 'provider', 'zcode-builtin.json');
  fs.mkdirSync(path.dirname(cli), { recursive: true });
  fs.mkdirSync(path.dirname(builtin), { recursive: true });
  fs.writeFileSync(cli, FAKE_CLI);
  fs.writeFileSync(builtin, '{"schemaVersion":1}');
  return { cli, builtin };
}

describe('backend link × a real CLI entry (--backend zcode)', () => {
  it('spawns node <zcode.cjs> app-server with an allow-listed env and both provider variables', async () => {
    const { cli, builtin } = fakeInstall();
    const stateDir = tmp('zch-state-');
    const home = tmp('zch-home-');
    // The CLI needs Node 24 (node-runtime.ts): a wrapper of this Node that reports it.
    const node24 = path.join(tmp('zch-node-'), 'node');
    fs.writeFileSync(
      node24,
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo v24.14.0; exit 0; fi\nexec ${JSON.stringify(process.execPath)} "$@"\n`,
      { mode: 0o755 },
    );
    const config = buildConfig({
      stateDir,
      backend: 'zcode',
      zcodeCli: cli,
      zcodeNode: node24,
      providerFile: path.join(home, 'providers.json'),
    });
    const log = captureLogger();
    const link = createBackend(config, log.logger, {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ZCODE_HUB_ADMIN_TOKEN: 'zch_admin_leak',
        OPENAI_API_KEY: 'sk-leak',
        NODE_OPTIONS: '--inspect',
      },
    });
    try {
      await link.start();
      expect(link.status()).toMatchObject({ state: 'ready', kind: 'zcode', command: cli, epoch: 1 });
      const who = (await link.request('test/whoami')) as { argv: string[]; env: Record<string, string>; cwd: string };
      expect(who.argv).toEqual([cli, 'app-server']);
      expect(fs.realpathSync(who.cwd)).toBe(fs.realpathSync(stateDir));
      expect(who.env.ZCODE_BUILTIN_PROVIDER_CONFIG_FILE).toBe(builtin);
      expect(who.env.ZCODE_PERSONAL_PROVIDER_CONFIG_FILE).toBe(path.join(home, 'providers.json'));
      expect(who.env.HOME).toBe(home);
      for (const leaked of ['ZCODE_HUB_ADMIN_TOKEN', 'OPENAI_API_KEY', 'NODE_OPTIONS']) expect(who.env).not.toHaveProperty(leaked);
      await expect(link.request('made/up')).rejects.toMatchObject({ name: 'BackendRpcError', code: -32601 });
    } finally {
      await link.close();
    }
    expect(link.status().state).toBe('stopped');
  });

  it('--backend zcode with a --zcode-cli that does not exist fails at construction', () => {
    const config = buildConfig({ stateDir: tmp('zch-state-'), backend: 'zcode', zcodeCli: '/nowhere/zcode.cjs' });
    expect(() => createBackend(config, quietLogger())).toThrow(BackendConfigError);
  });
});
