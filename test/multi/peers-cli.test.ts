import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPeersCli } from '../../src/cli/peers.js';
import { loadConfig } from '../../src/config/load.js';
import { PEERS_FILE } from '../../src/http/security/peers.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { rawRequest } from '../security/helpers/raw-http.js';

const APP = 'https://home.example.test';

function io(env: NodeJS.ProcessEnv) {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) }, env } };
}

/** `zcode-hub peers add|list|remove`, against the running daemon or the state dir. */
describe('zcode-hub peers', () => {
  it('--peer is repeatable, ZCODE_HUB_PEER takes a comma list, and --allow-origin stays an alias', () => {
    const c = loadConfig(['--peer', APP, '--peer', 'http://127.0.0.1:9000', '--allow-origin', 'https://old.example.test'], {});
    expect(c.peers).toEqual([APP, 'http://127.0.0.1:9000']);
    expect(c.allowOrigins).toEqual(['https://old.example.test']);
    expect(loadConfig([], { ZCODE_HUB_PEER: `${APP}, https://b.example.test` }).peers).toEqual([APP, 'https://b.example.test']);
  });

  it('without a daemon it edits <state-dir>/peers.json (0600) for the next start', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-peers-'));
    try {
      const a = io({ ZCODE_HUB_STATE_DIR: dir });
      expect(await runPeersCli(['add', APP], a.io)).toBe(0);
      expect(a.out.stdout).toMatch(/next start/);
      expect(fs.statSync(path.join(dir, PEERS_FILE)).mode & 0o777).toBe(0o600);
      const l = io({ ZCODE_HUB_STATE_DIR: dir });
      expect(await runPeersCli(['list', '--json'], l.io)).toBe(0);
      expect(JSON.parse(l.out.stdout).peers).toEqual([expect.objectContaining({ origin: APP, via: 'cli' })]);
      expect(await runPeersCli(['remove', APP], io({ ZCODE_HUB_STATE_DIR: dir }).io)).toBe(0);
      const again = io({ ZCODE_HUB_STATE_DIR: dir });
      expect(await runPeersCli(['remove', APP], again.io)).toBe(1);
      expect(again.out.stderr).toMatch(/not a peer/);
      const bad = io({ ZCODE_HUB_STATE_DIR: dir });
      expect(await runPeersCli(['add', 'not a url'], bad.io)).toBe(1);
      expect(bad.out.stderr).toMatch(/Not a URL/);
      expect(await runPeersCli(['frobnicate'], io({ ZCODE_HUB_STATE_DIR: dir }).io)).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('with a running daemon', () => {
    let hub: HubHarness;
    beforeAll(async () => {
      hub = await startHub();
    });
    afterAll(async () => {
      await hub.close();
    });
    const fromApp = async () =>
      rawRequest(Number(new URL(hub.url).port), { path: '/api/health', headers: { host: new URL(hub.url).host, origin: APP } });

    it('applies at once through the admin REST API, without a restart', async () => {
      const env = { ZCODE_HUB_STATE_DIR: hub.stateDir };
      expect((await fromApp()).status).toBe(403);
      const add = io(env);
      expect(await runPeersCli(['add', APP], add.io)).toBe(0);
      expect(add.out.stdout).toMatch(/accepts it now/);
      const ok = await fromApp();
      expect(ok.status).toBe(200);
      expect(ok.headers['access-control-allow-origin']).toBe(APP);
      const list = io(env);
      await runPeersCli(['list'], list.io);
      expect(list.out.stdout).toContain(APP);
      expect(await runPeersCli(['remove', APP], io(env).io)).toBe(0);
      expect((await fromApp()).status).toBe(403);
    });

    it('the doctor checks added peers like --peer ones: a plain-http LAN origin is a warning with its fix', async () => {
      const env = { ZCODE_HUB_STATE_DIR: hub.stateDir };
      const lan = 'http://192.168.1.50:8377';
      expect(await runPeersCli(['add', lan], io(env).io)).toBe(0);
      const report = (await (await hub.api('/api/doctor')).json()) as {
        checks: Array<{ id: string; status: string; message: string; fix?: string }>;
      };
      expect(report.checks).toContainEqual(
        expect.objectContaining({ id: 'origins', status: 'warn', fix: expect.stringContaining(`zcode-hub peers remove ${lan}`) }),
      );
      await runPeersCli(['remove', lan], io(env).io);
    });
  });
});
