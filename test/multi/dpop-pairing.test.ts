import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DpopError, DpopVerifier } from '../../src/auth/dpop.js';
import { LIMITS } from '../../src/limits.js';
import { DpopKey } from '../helpers/dpop-client.js';
import { rawRequest, type RawResponse } from '../security/helpers/raw-http.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { createToken, startSecuredHub, type SecuredHub } from '../security/helpers/secured-hub.js';

const APP = 'http://localhost:7001';
const STRANGER = 'https://evil.example.test';

/** Cross-origin pairing binds the token to the app's key; every request then proves it (RFC 9449). */
describe('cross-origin pairing and DPoP', () => {
  let hub: SecuredHub;
  let key: DpopKey;
  beforeAll(async () => {
    hub = await startSecuredHub({ peers: [APP], name: 'desktop' });
    key = await DpopKey.generate();
  });
  afterAll(async () => {
    await hub.close();
  });
  const host = () => `127.0.0.1:${hub.port}`;
  const url = (p: string) => `http://${host()}${p}`;
  const code = async (scope: 'view' | 'operate' | 'admin' = 'operate'): Promise<string> => {
    const res = await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/pair/codes',
      headers: { host: host(), authorization: `Bearer ${hub.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope }),
    });
    const c = JSON.parse(res.body).code as string;
    registerSecret(c);
    return c;
  };
  const pair = async (body: Record<string, unknown>, headers: Record<string, string>): Promise<RawResponse> =>
    rawRequest(hub.port, {
      method: 'POST',
      path: '/api/pair',
      headers: { host: host(), 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const errorOf = (res: RawResponse) => JSON.parse(res.body).error as { code: string; message: string };
  let bound: string;

  it('a non-peer origin is refused HUB_ERR_ORIGIN before the code is looked at', async () => {
    const c = await code();
    const res = await pair({ code: c, delivery: 'token' }, { origin: STRANGER, dpop: await key.proof('POST', url('/api/pair')) });
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe('HUB_ERR_ORIGIN');
  });

  it('a peer asking for the cookie is refused HUB_ERR_FORBIDDEN', async () => {
    const res = await pair({ code: await code(), delivery: 'cookie' }, { origin: APP, dpop: await key.proof('POST', url('/api/pair')) });
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe('HUB_ERR_FORBIDDEN');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('a peer redeeming an admin code is refused HUB_ERR_FORBIDDEN, and the code is spent', async () => {
    const c = await code('admin');
    const res = await pair({ code: c, delivery: 'token' }, { origin: APP, dpop: await key.proof('POST', url('/api/pair')) });
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe('HUB_ERR_FORBIDDEN');
    expect(res.body).not.toMatch(/"token"/);
    const again = await pair({ code: c }, {});
    expect(again.status).toBe(401);
  });

  it('a peer without a proof, or with a proof for another URL, is refused 401 with the DPoP challenge', async () => {
    const c = await code();
    const none = await pair({ code: c, delivery: 'token' }, { origin: APP });
    expect(none.status).toBe(401);
    expect(String(none.headers['www-authenticate'])).toMatch(/^DPoP error="invalid_dpop_proof"/);
    const wrong = await pair({ code: c, delivery: 'token' }, { origin: APP, dpop: await key.proof('POST', url('/api/pair/forget')) });
    expect(wrong.status).toBe(401);
    expect(errorOf(wrong).code).toBe('HUB_ERR_UNAUTHENTICATED');
  });

  it('a peer with a proof gets a token bound to its key (cnf.jkt), with the hub id and name', async () => {
    const res = await pair(
      { code: await code(), name: 'Pixel 9', delivery: 'token' },
      { origin: APP, dpop: await key.proof('POST', url('/api/pair')) },
    );
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    const body = JSON.parse(res.body);
    registerSecret(body.token);
    expect(body).toMatchObject({ name: 'Pixel 9', scope: 'operate', bound: true, hubName: 'desktop' });
    expect(body.hubId).toMatch(/^[0-9a-f-]{36}$/);
    expect(decodeJwt(body.token).cnf).toEqual({ jkt: await key.thumbprint() });
    bound = body.token;
    const list = await rawRequest(hub.port, { path: '/api/tokens', headers: { host: host(), authorization: `Bearer ${hub.adminToken}` } });
    expect(JSON.parse(list.body).tokens.find((t: { id: string }) => t.id === body.tokenId)).toMatchObject({
      jkt: await key.thumbprint(),
      origin: APP,
    });
  });

  const me = (headers: Record<string, string>) =>
    rawRequest(hub.port, { path: '/api/me', headers: { host: host(), origin: APP, ...headers } });

  it('the bound token works with a fresh proof by its key, and says so in /api/me', async () => {
    const res = await me(await key.headers('GET', url('/api/me'), bound));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ bound: true, name: 'desktop', identity: { name: 'Pixel 9', scope: 'operate' } });
  });

  it('the bound token as a plain Bearer → 401 with the DPoP challenge', async () => {
    const res = await me({ authorization: `Bearer ${bound}` });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe('HUB_ERR_UNAUTHENTICATED');
    expect(String(res.headers['www-authenticate'])).toMatch(/^DPoP error="invalid_dpop_proof"/);
    // A peer page can read why (exposed header).
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/www-authenticate/);
  });

  it('no proof, a proof by another key, a replayed proof, another URL or method, another token → 401', async () => {
    expect((await me({ authorization: `DPoP ${bound}` })).status).toBe(401);
    const other = await DpopKey.generate();
    expect((await me(await other.headers('GET', url('/api/me'), bound))).status).toBe(401);
    const once = await key.headers('GET', url('/api/me'), bound);
    expect((await me(once)).status).toBe(200);
    const replay = await me(once);
    expect(replay.status).toBe(401);
    expect(errorOf(replay).message).toMatch(/used before/);
    expect((await me(await key.headers('GET', url('/api/tokens'), bound))).status).toBe(401);
    expect((await me(await key.headers('GET', `http://localhost:${hub.port}/api/me`, bound))).status).toBe(401);
    expect((await me(await key.headers('POST', url('/api/me'), bound))).status).toBe(401);
    expect((await me({ authorization: `DPoP ${bound}`, dpop: await key.proof('GET', url('/api/me'), 'another-token') })).status).toBe(401);
    expect((await me({ authorization: `DPoP ${bound}`, dpop: await key.proof('GET', url('/api/me'), bound, { ath: null }) })).status).toBe(
      401,
    );
    expect((await me({ authorization: `DPoP ${bound}`, dpop: await key.proof('GET', url('/api/me'), bound, { typ: 'JWT' }) })).status).toBe(
      401,
    );
    expect((await me({ authorization: `DPoP ${bound}`, dpop: 'not.a.proof' })).status).toBe(401);
  });

  it('limits.dpopProofMaxAgeMs: a proof just inside the window passes, one just outside (either way) → 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const window = LIMITS.dpopProofMaxAgeMs / 1000;
    expect((await me(await key.headers('GET', url('/api/me'), bound, { iat: now - window + 5 }))).status).toBe(200);
    const stale = await me(await key.headers('GET', url('/api/me'), bound, { iat: now - window - 5 }));
    expect(stale.status).toBe(401);
    expect(errorOf(stale).message).toMatch(/iat/);
    expect((await me(await key.headers('GET', url('/api/me'), bound, { iat: now + window + 5 }))).status).toBe(401);
  });

  it('an unbound token keeps working as Bearer, and is refused under the DPoP scheme', async () => {
    const plain = (await createToken(hub, 'view')).token;
    expect((await me({ authorization: `Bearer ${plain}` })).status).toBe(200);
    expect((await me({ authorization: `DPoP ${plain}`, dpop: await key.proof('GET', url('/api/me'), plain) })).status).toBe(401);
  });

  it('the bound token signs its device out with POST /api/pair/forget; afterwards → 401', async () => {
    const forget = await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/pair/forget',
      headers: { host: host(), origin: APP, ...(await key.headers('POST', url('/api/pair/forget'), bound)) },
    });
    expect(forget.status).toBe(200);
    expect(JSON.parse(forget.body)).toEqual({ revoked: true });
    const after = await me(await key.headers('GET', url('/api/me'), bound));
    expect(after.status).toBe(401);
    expect(errorOf(after).code).toBe('HUB_ERR_UNAUTHENTICATED');
  });
});

describe('DpopVerifier', () => {
  it('limits.dpopReplayCacheMax: when the cache is full of live proofs a new one is refused (cache_full); once they age out it is accepted', async () => {
    const key = await DpopKey.generate();
    const verifier = new DpopVerifier({ maxAgeMs: 60_000, replayCacheMax: 2 });
    const target = 'http://127.0.0.1:1/api/me';
    const t0 = Math.floor(Date.now() / 1000);
    const check = async (iat: number, now: number) =>
      verifier.verify({ proof: await key.proof('GET', target, undefined, { iat }), method: 'GET', urls: [target], now });
    await check(t0, t0 * 1000);
    await check(t0, t0 * 1000);
    const full = await check(t0, t0 * 1000).catch((e: unknown) => e);
    expect(full).toBeInstanceOf(DpopError);
    expect((full as DpopError).reason).toBe('cache_full');
    // 61 s later the first two are too old to be replayed: their places are free.
    await expect(check(t0 + 61, (t0 + 61) * 1000)).resolves.toEqual({ jkt: await key.thumbprint() });
  });
});
