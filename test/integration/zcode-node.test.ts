import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { simulatorSpawnSpec } from '../../src/simulator/launcher.js';
import { killStarted, start } from '../daemon/process-helpers.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';

/**
 * `--zcode-node PATH`: the real ZCode CLI targets Node 24, newer than the hub's floor. A desktop
 * install is laid out in a temp dir: `resources/glm/zcode.cjs` is a stand-in entry that notes
 * which Node ran it and then execs the real simulator child, and "node" binaries are wrappers
 * around this Node that report a chosen `--version`. The hub is the real daemon.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
afterEach(() => killStarted());

interface Install {
  root: string;
  cli: string;
  marker: string;
}

function install(): Install {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-node-'));
  dirs.push(root);
  const cli = path.join(root, 'resources', 'glm', 'zcode.cjs');
  const marker = path.join(root, 'ran-with.json');
  fs.mkdirSync(path.dirname(cli), { recursive: true });
  const sim = simulatorSpawnSpec(['--data-dir', path.join(root, 'sim-data')]);
  // The entry records its runtime, then becomes the simulator (stdio passed through).
  fs.writeFileSync(
    cli,
    `const fs = require('node:fs');
fs.writeFileSync(${JSON.stringify(marker)}, JSON.stringify({ wrapper: process.env.ZCH_NODE_WRAPPER ?? null, argv: process.argv.slice(2) }));
const child = require('node:child_process').spawn(${JSON.stringify(sim.command)}, ${JSON.stringify(sim.args)}, { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
process.on('SIGTERM', () => child.kill('SIGTERM'));
`,
  );
  return { root, cli, marker };
}

/** A "node" that answers `--version` with `version` (or hangs), else runs this Node marked `label`. */
function fakeNode(file: string, version: string | 'hang', label: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const answer = version === 'hang' ? 'exec sleep 60' : `echo ${version}; exit 0`;
  fs.writeFileSync(
    file,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then ${answer}; fi\nZCH_NODE_WRAPPER=${label} exec ${JSON.stringify(process.execPath)} "$@"\n`,
    { mode: 0o755 },
  );
  return file;
}

function ranWith(i: Install): { wrapper: string | null; argv: string[] } {
  return JSON.parse(fs.readFileSync(i.marker, 'utf8')) as { wrapper: string | null; argv: string[] };
}

async function promptOnce(hub: HubHarness): Promise<string> {
  const c = await hub.initializedClient({ name: 'node-check' });
  const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
  const r = await c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
  return r.stopReason;
}

describe('--zcode-node', () => {
  it('runs zcode.cjs with the Node named by --zcode-node, after checking its version', async () => {
    const i = install();
    const node = fakeNode(path.join(i.root, 'node24', 'bin', 'node'), 'v24.14.0', 'flag');
    const hub = await startHub({ config: { backend: 'zcode', zcodeCli: i.cli, zcodeNode: node } });
    try {
      expect(hub.daemon.backend.status()).toMatchObject({ kind: 'zcode' });
      expect(await promptOnce(hub)).toBe('end_turn');
      expect(ranWith(i)).toEqual({ wrapper: 'flag', argv: ['app-server'] });
    } finally {
      await hub.close();
    }
  });

  it('finds the Node a desktop install ships beside its CLI when no flag is given', async () => {
    const i = install();
    fakeNode(path.join(i.root, 'resources', 'node', 'bin', 'node'), 'v24.1.0', 'shipped');
    const hub = await startHub({ config: { backend: 'zcode', zcodeCli: i.cli } });
    try {
      expect(await promptOnce(hub)).toBe('end_turn');
      expect(ranWith(i).wrapper).toBe('shipped');
    } finally {
      await hub.close();
    }
  });

  it('refuses to start on a Node older than the CLI needs, naming both versions', async () => {
    const i = install();
    const old = fakeNode(path.join(i.root, 'old', 'node'), 'v20.19.0', 'old');
    await expect(startHub({ config: { backend: 'zcode', zcodeCli: i.cli, zcodeNode: old } })).rejects.toThrow(
      /--zcode-node .*old\/node is Node\.js v20\.19\.0; the ZCode CLI needs 24\.0\.0 or newer/,
    );
    // The hub's own Node (20 or 22; 24 is new enough) is checked the same way when nothing else is found.
    const hubMajor = Number(process.versions.node.split('.')[0]);
    if (hubMajor < 24)
      await expect(startHub({ config: { backend: 'zcode', zcodeCli: i.cli } })).rejects.toThrow(
        `is Node.js ${process.version}; the ZCode CLI needs 24.0.0 or newer`,
      );
    expect(fs.existsSync(i.marker)).toBe(false);
  });

  it('a missing path, a non-node and a hanging --version are clear errors (limits.nodeVersionCheckTimeoutMs)', async () => {
    const i = install();
    await expect(startHub({ config: { backend: 'zcode', zcodeCli: i.cli, zcodeNode: path.join(i.root, 'nope') } })).rejects.toThrow(
      /--zcode-node .*nope does not exist/,
    );
    const liar = fakeNode(path.join(i.root, 'liar'), 'hello', 'liar');
    await expect(startHub({ config: { backend: 'zcode', zcodeCli: i.cli, zcodeNode: liar } })).rejects.toThrow(
      /is not Node\.js \(--version printed "hello"\)/,
    );
    const hang = fakeNode(path.join(i.root, 'hang'), 'hang', 'hang');
    await expect(
      startHub({ config: { backend: 'zcode', zcodeCli: i.cli, zcodeNode: hang }, limits: { nodeVersionCheckTimeoutMs: 300 } }),
    ).rejects.toThrow(/did not answer --version within 300 ms/);
  });

  it('`zcode-hub start --zcode-node <old node>` exits 1 with one line on stderr', async () => {
    const i = install();
    const old = fakeNode(path.join(i.root, 'old', 'node'), 'v22.3.0', 'old');
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-node-home-'));
    dirs.push(home);
    const run = start(home, path.join(home, 'state'), ['--backend', 'zcode', '--zcode-cli', i.cli, '--zcode-node', old]);
    expect(await run.exited).toBe(1);
    await until(() => (run.output().includes('zcode-hub: --zcode-node') ? true : undefined), 'the error line');
    expect(run.output()).toMatch(
      /zcode-hub: --zcode-node \S+ is Node\.js v22\.3\.0; the ZCode CLI needs 24\.0\.0 or newer\. Pass --zcode-node PATH/,
    );
  });
});
