import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHubFile } from '../../src/daemon/state-files.js';
import { processAlive } from '../../src/fs/process-alive.js';
import { until } from '../helpers/until.js';

/**
 * `zcode-hub acp` that starts the daemon itself tells the person reading the editor's log, in a
 * sentence on stderr, where the hub now runs, that it outlives the editor and how to stop it;
 * the JSON log record stays beside it. A bridge that finds the hub running says nothing of the
 * kind. Real processes: the bridges and the daemon the first one starts.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-started-notice-'));
const stateDir = path.join(tmp, 'state');
const env = { ...process.env, HOME: tmp, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'info' };
const flags = ['--state-dir', stateDir, '--backend', 'sim', '--port', '0', '--workspace', tmp, '--provider-file', path.join(tmp, 'p.json')];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  const hub = readHubFile(stateDir);
  if (hub && processAlive(hub.pid)) process.kill(hub.pid, 'SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

function bridge(): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [bin, 'acp', ...flags], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return { child, stderr: () => err, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

const SENTENCE = /^zcode-hub acp: no hub was running.*$/m;

describe('the stdio bridge says in a sentence that it started the daemon', () => {
  it('names the URL, the state dir, its log, that it keeps running, and how to stop it', async () => {
    const first = bridge();
    const said = await until(() => SENTENCE.exec(first.stderr())?.[0], 'the sentence', 60_000);
    const hub = readHubFile(stateDir)!;
    expect(said).toBe(
      `zcode-hub acp: no hub was running, so I started one on ${hub.url} (state dir ${stateDir}, log ${path.join(stateDir, 'daemon.log')}); ` +
        `it keeps running after this editor closes — stop it with \`zcode-hub stop --state-dir ${stateDir}\`.`,
    );
    // The machine-readable record is still there, as its own JSON line.
    const lines = first
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.msg)).toContain('started the zcode-hub daemon');
    // No line says a key twice (JSON.parse would keep the last and hide the first): the logger's
    // own pid is the bridge's, the daemon's has a name of its own.
    for (const [i, line] of lines.entries())
      for (const key of Object.keys(records[i]!)) expect(line.split(`"${key}":`).length - 1, `${key} in ${line}`).toBe(1);
    const started = records.find((r) => r.msg === 'started the zcode-hub daemon')!;
    expect({ pid: started.pid, daemonPid: started.daemonPid }).toEqual({ pid: first.child.pid, daemonPid: hub.pid });
    first.child.stdin!.end();
    expect(await first.exited).toBe(0);
    expect(processAlive(hub.pid)).toBe(true);

    // A second editor finds that hub running: nothing started, nothing to say about it.
    const second = bridge();
    second.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } })}\n`);
    const out: string[] = [];
    second.child.stdout!.on('data', (d: Buffer) => out.push(d.toString()));
    await until(() => (out.join('').includes('"id":1') ? true : undefined), 'initialize through the second bridge', 60_000);
    second.child.stdin!.end();
    expect(await second.exited).toBe(0);
    expect(second.stderr()).not.toMatch(SENTENCE);
    expect(readHubFile(stateDir)?.pid).toBe(hub.pid);
  }, 120_000);
});
