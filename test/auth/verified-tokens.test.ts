import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceClaims } from '../../src/auth/device-jwt.js';
import { TokenManager } from '../../src/auth/token-manager.js';
import { TokenRegistry } from '../../src/auth/token-registry.js';
import { VerifiedTokens } from '../../src/auth/verified-tokens.js';
import { LIMITS } from '../../src/limits.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { tempDir } from '../security/helpers/temp-dir.js';

const claims = (jti: string, exp: number): DeviceClaims => ({
  iss: 'zcode-hub',
  aud: 'zcode-hub:api',
  sub: 'phone',
  scope: 'operate',
  jti,
  iat: exp - 60,
  exp,
});

describe('verified device tokens (limits.verifiedTokensMax)', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  /** A manager over its own key, so a test can change the key under it. */
  function manager(verifiedTokensMax: number): { tokens: TokenManager; secret: Uint8Array } {
    const tmp = tempDir();
    const secret = new Uint8Array(randomBytes(32));
    const tokens = new TokenManager({
      adminToken: 'not-used-here',
      secret,
      registry: TokenRegistry.open(tmp.dir),
      expirySweepMs: LIMITS.tokenExpirySweepMs,
      verifiedTokensMax,
    });
    cleanups.push(() => tokens.close(), tmp.cleanup);
    return { tokens, secret };
  }

  it('a token verified once is not verified again; a token never seen still is', async () => {
    const { tokens, secret } = manager(LIMITS.verifiedTokensMax);
    const seen = await tokens.create({ name: 'phone', scope: 'operate', ttlMs: 60_000, via: 'api' });
    const fresh = await tokens.create({ name: 'laptop', scope: 'operate', ttlMs: 60_000, via: 'api' });
    registerSecret(seen.token);
    registerSecret(fresh.token);
    expect(await tokens.authenticate(seen.token)).toMatchObject({ tokenId: seen.record.id });
    // Another key from now on: only a signature check could tell the two tokens apart.
    secret.fill(7);
    expect(await tokens.authenticate(seen.token)).toMatchObject({ tokenId: seen.record.id });
    expect(await tokens.authenticate(fresh.token)).toBeNull();
  });

  it('with the cache off (0) every use checks the signature', async () => {
    const { tokens, secret } = manager(0);
    const issued = await tokens.create({ name: 'phone', scope: 'operate', ttlMs: 60_000, via: 'api' });
    registerSecret(issued.token);
    expect(await tokens.authenticate(issued.token)).not.toBeNull();
    secret.fill(7);
    expect(await tokens.authenticate(issued.token)).toBeNull();
  });

  it('[SEC-06] a remembered token that is revoked is refused on its next use', async () => {
    const { tokens } = manager(LIMITS.verifiedTokensMax);
    const issued = await tokens.create({ name: 'phone', scope: 'operate', ttlMs: 60_000, via: 'api' });
    registerSecret(issued.token);
    expect(await tokens.authenticate(issued.token)).not.toBeNull();
    tokens.revoke(issued.record.id);
    expect(await tokens.authenticate(issued.token)).toBeNull();
  });

  it('a tampered copy of a remembered token is verified, refused, and not remembered', async () => {
    const { tokens } = manager(LIMITS.verifiedTokensMax);
    const issued = await tokens.create({ name: 'phone', scope: 'operate', ttlMs: 60_000, via: 'api' });
    registerSecret(issued.token);
    await tokens.authenticate(issued.token);
    // The signature's first character: every bit of it is data. (The last character of a 43-character
    // signature carries two padding bits, which decoders ignore: 'A' → 'B' there changes nothing.)
    const at = issued.token.lastIndexOf('.') + 1;
    const flipped = issued.token[at] === 'A' ? 'B' : 'A';
    const tampered = `${issued.token.slice(0, at)}${flipped}${issued.token.slice(at + 1)}`;
    expect(await tokens.authenticate(tampered)).toBeNull();
    expect(await tokens.authenticate(tampered)).toBeNull();
  });

  it('expiry is checked on every hit, by the claims (jose: expired once now reaches exp)', () => {
    const cache = new VerifiedTokens(4);
    cache.add('t', claims('a', 1_000));
    expect(cache.get('t', 999_999)).toMatchObject({ jti: 'a' });
    expect(cache.get('t', 1_000_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('crossing the limit forgets the token verified longest ago', () => {
    const cache = new VerifiedTokens(2);
    const exp = Math.floor(Date.now() / 1000) + 600;
    cache.add('t1', claims('1', exp));
    cache.add('t2', claims('2', exp));
    cache.add('t3', claims('3', exp));
    expect(cache.size).toBe(2);
    expect(cache.get('t1', Date.now())).toBeUndefined();
    expect(cache.get('t2', Date.now())).toMatchObject({ jti: '2' });
    expect(cache.get('t3', Date.now())).toMatchObject({ jti: '3' });
  });
});
