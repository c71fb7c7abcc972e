import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureHubId, HUB_ID_FILE, hubName } from '../../src/auth/hub-id.js';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/** A hub's stable id and name, in /api/me, /api/health and initialize. */
describe('hub identity', () => {
  it('the hub id is a UUID created once per state dir (0600) and read back unchanged', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-id-'));
    try {
      const first = ensureHubId(dir);
      expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(fs.statSync(path.join(dir, HUB_ID_FILE)).mode & 0o777).toBe(0o600);
      expect(ensureHubId(dir)).toBe(first);
      // A file that is not a UUID is replaced rather than handed to clients.
      fs.writeFileSync(path.join(dir, HUB_ID_FILE), 'not-an-id\n');
      const replaced = ensureHubId(dir);
      expect(replaced).not.toBe('not-an-id');
      expect(replaced).not.toBe(first);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--name and ZCODE_HUB_NAME set the name; the default is the host name; control characters are refused', () => {
    expect(loadConfig(['--name', 'desktop'], {}).name).toBe('desktop');
    expect(loadConfig([], { ZCODE_HUB_NAME: 'build box' }).name).toBe('build box');
    expect(hubName(undefined)).toBe(os.hostname().trim() || 'zcode-hub');
    expect(() => loadConfig(['--name', 'a\u0007b'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--name', 'x'.repeat(101)], {})).toThrow(ConfigError);
  });

  describe('on a running daemon', () => {
    let hub: HubHarness;
    let hubId: string;
    beforeAll(async () => {
      hub = await startHub({ config: { name: 'desktop' } });
      hubId = fs.readFileSync(path.join(hub.stateDir, HUB_ID_FILE), 'utf8').trim();
    });
    afterAll(async () => {
      await hub.close();
    });

    it('GET /api/me names the hub and the caller, and says whether the token is bound', async () => {
      const token = await hub.token('view', 'phone');
      const res = await hub.api('/api/me', { token });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ hubId, name: 'desktop', identity: { name: 'phone', scope: 'view' }, bound: false });
      expect(typeof body.version).toBe('string');
      expect(typeof body.identity.tokenId).toBe('string');
    });

    it('GET /api/health (public, JSON) carries hubId and name; its text form stays "ok"', async () => {
      const json = await fetch(`${hub.url}/api/health`, { headers: { accept: 'application/json' } });
      expect(await json.json()).toMatchObject({ status: 'ok', hubId, name: 'desktop' });
      // A no-cors probe from another origin must be able to complete ("not allowed" vs offline).
      expect(json.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const text = await fetch(`${hub.url}/api/health`);
      expect(await text.text()).toBe('ok');
    });

    it('initialize carries _meta.zcode.hub = { hubId, name, version }', async () => {
      const client = await hub.client();
      const result = await client.initialize();
      const meta = (result._meta as { zcode: { hub: unknown; hubVersion: string } }).zcode;
      expect(meta.hub).toEqual({ hubId, name: 'desktop', version: meta.hubVersion });
    });
  });
});
