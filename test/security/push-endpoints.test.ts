import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { isPublicAddress, publicOnlyLookup } from '../../src/push/endpoint-guard.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Red team, push subscriptions (docs/SECURITY.md "Push endpoints"): a `view` token registering
 * endpoints on loopback, the LAN or the metadata service, flooding the list to push a real
 * phone's subscription out, and removing or taking over another device's subscription — each
 * sent as the attacker would, over the hub's real routes with real device tokens.
 */

const keys = {
  p256dh: 'BPcMbnWQL5GOYX/5LKZXT6sLmHiMsJSiEvIFvfcDvX7IZ9qqtq68onpTPEYmyxSQNiH7UD/98AUcQ12kBoxz/0s=',
  auth: 'NKbe4tUkNbDOTJ8l1P0wXA==',
};
const sub = (endpoint: string) => ({ endpoint, expirationTime: null, keys });
/** Public IP literals: accepted without DNS, never delivered to here (no turn ends in this file). */
const publicEndpoint = (name: string) => `https://93.184.215.14/push/${name}`;

describe('push subscriptions: who may register what', () => {
  let h: HubHarness;
  let tokenA: string;
  let tokenB: string;
  let tokenC: string;
  beforeAll(async () => {
    h = await startHub({ limits: { pushSubscriptionsMax: 7 } });
    [tokenA, tokenB, tokenC] = await Promise.all([h.token('view', 'attacker'), h.token('view', 'phone'), h.token('view', 'tablet')]);
  });
  afterAll(async () => {
    await h?.close();
  });
  const post = (token: string, body: unknown) =>
    h.api('/api/push/subscriptions', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const del = (token: string, endpoint: string) =>
    h.api('/api/push/subscriptions', {
      method: 'DELETE',
      token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint }),
    });
  const stored = () =>
    (
      JSON.parse(fs.readFileSync(path.join(h.stateDir, 'push-subscriptions.json'), 'utf8')) as {
        subscriptions: Array<{ endpoint: string; device: string }>;
      }
    ).subscriptions.map((s) => [s.device, s.endpoint]);

  it('refuses endpoints that are not https on a public address, resolved names included', async () => {
    const refused = [
      'http://push.example.com/x',
      'https://127.0.0.1:9/x',
      'https://127.1/x',
      'https://localhost:9/x',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/x',
      'https://172.16.5.4/x',
      'https://192.168.1.1/x',
      'https://100.64.0.1/x',
      'https://0.0.0.0/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[fd00:ec2::254]/x',
      'https://[fe80::1]/x',
      'https://user:pw@93.184.215.14/x',
      'https://nothing.invalid/x',
    ];
    for (const endpoint of refused) {
      const r = await post(tokenA, sub(endpoint));
      expect(r.status, endpoint).toBe(400);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('HUB_ERR_BAD_REQUEST');
    }
    expect(fs.existsSync(path.join(h.stateDir, 'push-subscriptions.json'))).toBe(false);
  });

  it('keeps a few per device: a flood from one token drops only its own oldest, never the phone’s', async () => {
    expect((await post(tokenB, sub(publicEndpoint('phone')))).status).toBe(201);
    for (let i = 0; i < 6; i++) expect((await post(tokenA, sub(publicEndpoint(`junk-${i}`)))).status).toBe(201);
    expect(stored()).toEqual([['phone', publicEndpoint('phone')], ...[2, 3, 4, 5].map((i) => ['attacker', publicEndpoint(`junk-${i}`)])]);
    // Past pushSubscriptionsMax in all, a new one is refused; nothing stored is dropped for it.
    expect((await post(tokenC, sub(publicEndpoint('tablet-1')))).status).toBe(201);
    expect((await post(tokenC, sub(publicEndpoint('tablet-2')))).status).toBe(201);
    const full = await post(tokenC, sub(publicEndpoint('tablet-3')));
    expect(full.status).toBe(429);
    expect(((await full.json()) as { error: { code: string } }).error.code).toBe('HUB_ERR_LIMIT');
    expect(stored()).toHaveLength(7);
    expect(stored()[0]).toEqual(['phone', publicEndpoint('phone')]);
  });

  it('a subscription belongs to its device: another token can neither take it over nor remove it; an admin can', async () => {
    const taken = await post(tokenA, sub(publicEndpoint('phone')));
    expect(taken.status).toBe(409);
    const removed = await del(tokenA, publicEndpoint('phone'));
    expect(removed.status).toBe(403);
    expect(stored()).toContainEqual(['phone', publicEndpoint('phone')]);
    // Its own device removes it; an admin removes anyone's.
    expect(await (await del(tokenB, publicEndpoint('phone'))).json()).toEqual({ removed: true });
    expect(
      await (
        await h.api('/api/push/subscriptions', {
          method: 'DELETE',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ endpoint: publicEndpoint('junk-5') }),
        })
      ).json(),
    ).toEqual({ removed: true });
    expect(stored().map(([, e]) => e)).not.toContain(publicEndpoint('phone'));
    expect(stored().map(([, e]) => e)).not.toContain(publicEndpoint('junk-5'));
  });

  it('audits subscribe and unsubscribe with the device and the endpoint’s origin, never its path', async () => {
    const entries = h.auth.audit.page(0, 100).entries.filter((e) => e.action.startsWith('push.'));
    const subscribes = entries.filter((e) => e.action === 'push.subscribe');
    expect(subscribes).toHaveLength(9);
    expect(subscribes[0]).toMatchObject({
      who: { name: 'phone', scope: 'view' },
      detail: { endpoint: 'https://93.184.215.14', result: 'added' },
    });
    expect(subscribes.filter((e) => e.who.name === 'attacker').map((e) => (e.detail as { dropped: number }).dropped)).toEqual([
      0, 0, 0, 0, 1, 1,
    ]);
    const unsubscribes = entries.filter((e) => e.action === 'push.unsubscribe');
    expect(unsubscribes.map((e) => [e.who.name, e.who.scope])).toEqual([
      ['phone', 'view'],
      [expect.any(String), 'admin'],
    ]);
    expect(JSON.stringify(entries)).not.toContain('/push/');
  });
});

describe('testOnly.pushPrivateEndpoints', () => {
  it('is read from the config file only: no flag and no environment variable turns it on', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-push-config-'));
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ testOnly: { pushPrivateEndpoints: true } }));
    expect(loadConfig(['--config', file], {}).testOnly?.pushPrivateEndpoints).toBe(true);
    expect(loadConfig([], {}).testOnly?.pushPrivateEndpoints).not.toBe(true);
    expect(() => loadConfig(['--push-private-endpoints'], {})).toThrow();
    expect(() => loadConfig(['--test-only'], {})).toThrow();
    const env = { ZCODE_HUB_TEST_ONLY: '{"pushPrivateEndpoints":true}', ZCODE_HUB_PUSH_PRIVATE_ENDPOINTS: '1' };
    expect(loadConfig([], env).testOnly?.pushPrivateEndpoints).not.toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the address check (src/push/endpoint-guard.ts)', () => {
  it('passes only public unicast addresses, mapped and embedded forms of private ones included', () => {
    for (const ok of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(ok), ok).toBe(true);
    for (const bad of [
      '127.0.0.1',
      '127.8.9.10',
      '0.0.0.0',
      '10.1.2.3',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.100.100.200',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      'ff02::1',
      'not an address',
    ])
      expect(isPublicAddress(bad), bad).toBe(false);
  });

  it('the lookup every delivery connects through answers both of node:net’s forms, and refuses a private answer', async () => {
    const one = await new Promise<[unknown, unknown, unknown]>((r) => publicOnlyLookup('93.184.215.14', {}, (e, a, f) => r([e, a, f])));
    expect(one).toEqual([null, '93.184.215.14', 4]);
    const all = await new Promise<[unknown, unknown]>((r) => publicOnlyLookup('93.184.215.14', { all: true }, (e, a) => r([e, a])));
    expect(all).toEqual([null, [{ address: '93.184.215.14', family: 4 }]]);
    const refused = await new Promise<unknown>((r) => publicOnlyLookup('localhost', { all: true }, (e) => r(e)));
    expect(refused).toMatchObject({ code: 'HUB_PUSH_PRIVATE_ADDRESS' });
  });
});
