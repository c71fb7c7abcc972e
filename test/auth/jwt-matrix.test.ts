import { randomBytes } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../src/auth/device-jwt.js';
import { createToken, startSecuredHub, type SecuredHub } from '../security/helpers/secured-hub.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { ensureJwtSecret } from '../../src/auth/jwt-secret.js';

/** Re-encodes a JWT's payload without re-signing it (the attacker's edit). */
function tamper(token: string, edit: (claims: Record<string, unknown>) => void): string {
  const [h, p, s] = token.split('.');
  const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  edit(claims);
  return `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
}

describe('[SEC-06] JWT matrix', () => {
  let hub: SecuredHub;
  let good: { token: string; id: string };
  let secret: Uint8Array;

  beforeAll(async () => {
    hub = await startSecuredHub();
    good = await createToken(hub, 'view', 'matrix-phone');
    secret = ensureJwtSecret(hub.stateDir);
  });
  afterAll(async () => {
    await hub.close();
  });

  async function me(token: string): Promise<number> {
    const res = await hub.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { host: `127.0.0.1:${hub.port}`, authorization: `Bearer ${token}` },
    });
    return res.statusCode;
  }

  function signed(claims: Record<string, unknown>, key: Uint8Array = secret, alg = 'HS256'): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ scope: 'admin', ...claims })
      .setProtectedHeader({ alg })
      .setIssuer(String(claims.iss ?? TOKEN_ISSUER))
      .setAudience(String(claims.aud ?? TOKEN_AUDIENCE))
      .setSubject('attacker')
      .setJti(String(claims.jti ?? good.id))
      .setIssuedAt(now)
      .setExpirationTime(Number(claims.exp ?? now + 3600))
      .sign(key);
  }

  it('[SEC-06] the genuine token is accepted and resolves to its registry identity', async () => {
    const res = await hub.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { host: 'localhost', authorization: `Bearer ${good.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ identity: { tokenId: good.id, name: 'matrix-phone', scope: 'view' } });
  });

  it('[SEC-06] alg:none is rejected', async () => {
    const none = new UnsecuredJWT({ scope: 'admin' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject('x')
      .setJti(good.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    registerSecret(none);
    expect(await me(none)).toBe(401);
    // The same with the genuine token's header swapped for alg:none and its signature dropped.
    const [, p] = good.token.split('.');
    expect(await me(`${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`)).toBe(401);
  });

  it('[SEC-06] a token signed with another key is rejected', async () => {
    const forged = await signed({ scope: 'view' }, new Uint8Array(randomBytes(32)));
    registerSecret(forged);
    expect(await me(forged)).toBe(401);
  });

  it('[SEC-06] another HMAC algorithm with our key is rejected (one allow-listed alg)', async () => {
    const hs512 = await signed({ scope: 'view' }, new Uint8Array(randomBytes(64)), 'HS512');
    registerSecret(hs512);
    expect(await me(hs512)).toBe(401);
    const hs384 = await signed({ scope: 'view' }, secret, 'HS384');
    registerSecret(hs384);
    expect(await me(hs384)).toBe(401);
  });

  it('[SEC-06] wrong aud and wrong iss are rejected', async () => {
    const aud = await signed({ scope: 'view', aud: 'some-other-service' });
    const iss = await signed({ scope: 'view', iss: 'someone-else' });
    registerSecret(aud);
    registerSecret(iss);
    expect(await me(aud)).toBe(401);
    expect(await me(iss)).toBe(401);
  });

  it('[SEC-06] an expired token is rejected', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await signed({ scope: 'view', exp: past });
    registerSecret(expired);
    expect(await me(expired)).toBe(401);
  });

  it('[SEC-06] a tampered scope is rejected (signature), and a re-signed scope upgrade too (registry)', async () => {
    const upgraded = tamper(good.token, (c) => (c.scope = 'admin'));
    registerSecret(upgraded);
    expect(await me(upgraded)).toBe(401);
    // Even with the key, a scope that differs from the registry record is refused.
    const resigned = await signed({ scope: 'admin' });
    registerSecret(resigned);
    expect(await me(resigned)).toBe(401);
  });

  it('[SEC-06] a jti the registry does not know is rejected, even when correctly signed', async () => {
    const unknown = await signed({ scope: 'view', jti: 'not-in-the-registry' });
    registerSecret(unknown);
    expect(await me(unknown)).toBe(401);
  });

  it('[SEC-06] a revoked jti is rejected from the moment of revocation', async () => {
    const victim = await createToken(hub, 'operate', 'lost-phone');
    expect(await me(victim.token)).toBe(200);
    const res = await hub.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${victim.id}`,
      headers: { host: 'localhost', authorization: `Bearer ${hub.adminToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().info.state).toBe('revoked');
    expect(await me(victim.token)).toBe(401);
  });

  it('[SEC-06] junk credentials are rejected without a server error', async () => {
    for (const junk of ['x', 'a.b.c', 'a.b', `${'A'.repeat(5000)}.${'B'.repeat(5000)}.C`, 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.sig']) {
      expect(await me(junk)).toBe(401);
    }
  });
});
