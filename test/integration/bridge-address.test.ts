import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastAddressArgs } from '../../src/bridge/daemon-launcher.js';
import { readHubFile, readLastAddress } from '../../src/daemon/state-files.js';
import { processAlive } from '../../src/fs/process-alive.js';
import { until } from '../helpers/until.js';

/** `zcode-hub acp` with no daemon running starts one where the state dir's hub last listened. */

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) {
    const hub = readHubFile(path.join(d, 'state'));
    if (hub && processAlive(hub.pid)) process.kill(hub.pid, 'SIGKILL');
    fs.rmSync(d, { recursive: true, force: true });
  }
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function run(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('the editor bridge starts the daemon on its last address', () => {
  it('a hub that ran on port P and stopped: `zcode-hub acp` without --port brings it back on P and says so', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-bridge-addr-'));
    dirs.push(home);
    const stateDir = path.join(home, 'state');
    const env = { ...process.env, HOME: home, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'info' };
    const flags = ['--backend', 'sim', '--workspace', home, '--provider-file', path.join(home, 'p.json')];
    const port = await freePort();
    const first = run(['start', '--state-dir', stateDir, '--port', String(port), ...flags], env);
    await until(() => readHubFile(stateDir), 'the first daemon');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(readHubFile(stateDir)).toBeUndefined();
    expect(readLastAddress(stateDir)).toEqual({ host: '127.0.0.1', port });

    const bridge = run(['acp', '--state-dir', stateDir, ...flags], env);
    const hub = await until(() => readHubFile(stateDir), 'the daemon the bridge starts', 45_000);
    expect(hub.port).toBe(port);
    await until(
      () => (bridge.output().includes(`on 127.0.0.1:${port}, where this state dir's hub last ran`) ? true : undefined),
      'the line',
    );
    // And in a sentence for the person reading the editor's log (the JSON record above is for
    // machines), once the hub answers.
    const sentence = `no hub was running, so I started one on http://127.0.0.1:${port}, where this state dir's hub last ran`;
    await until(() => (bridge.output().includes(sentence) ? true : undefined), 'the sentence');
    bridge.child.stdin!.end();
    const code = await bridge.exited;
    expect({ code, signal: bridge.child.signalCode, out: bridge.output() }).toEqual({ code: 0, signal: null, out: expect.any(String) });
  }, 90_000);

  it('an address the editor or the environment chooses wins over the last one', () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-bridge-addr-'));
    dirs.push(stateDir);
    expect(lastAddressArgs(stateDir, [], {})).toEqual([]);
    fs.writeFileSync(path.join(stateDir, 'last-address.json'), '{"host":"127.0.0.1","port":9123}\n');
    expect(lastAddressArgs(stateDir, [], {})).toEqual(['--host', '127.0.0.1', '--port', '9123']);
    expect(lastAddressArgs(stateDir, ['--port', '0'], {})).toEqual([]);
    expect(lastAddressArgs(stateDir, ['--host=0.0.0.0'], {})).toEqual([]);
    expect(lastAddressArgs(stateDir, ['--config', 'hub.json'], {})).toEqual([]);
    expect(lastAddressArgs(stateDir, [], { ZCODE_HUB_PORT: '9000' })).toEqual([]);
    fs.writeFileSync(path.join(stateDir, 'last-address.json'), 'not json');
    expect(lastAddressArgs(stateDir, [], {})).toEqual([]);
  });
});
