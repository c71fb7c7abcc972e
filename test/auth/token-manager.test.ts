import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthServices, type AuthServices } from '../../src/auth/auth-services.js';
import { TOKENS_FILE, TokenRegistry, TokenRegistryError } from '../../src/auth/token-registry.js';
import { parseTtl } from '../../src/auth/ttl.js';
import { LIMITS } from '../../src/limits.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { tempDir } from '../security/helpers/temp-dir.js';

const limits = { ...LIMITS, tokenExpirySweepMs: 20 };

describe('token registry and manager', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });
  function services(now?: () => number): AuthServices & { dir: string } {
    const tmp = tempDir();
    const s = createAuthServices({ stateDir: tmp.dir, limits, ...(now ? { now } : {}) });
    cleanups.push(() => s.close(), tmp.cleanup);
    return Object.assign(s, { dir: tmp.dir });
  }

  it('persists records atomically and survives a restart (same secret, same registry)', async () => {
    const a = services();
    const issued = await a.tokens.create({ name: 'laptop', scope: 'operate', ttlMs: 60_000, via: 'cli' });
    registerSecret(issued.token);
    const b = createAuthServices({ stateDir: a.dir, limits });
    cleanups.push(() => b.close());
    expect(await b.tokens.authenticate(issued.token)).toMatchObject({ tokenId: issued.record.id, name: 'laptop', scope: 'operate' });
    expect(b.tokens.list().map((t) => t.id)).toEqual([issued.record.id]);
    expect(fs.readFileSync(path.join(a.dir, TOKENS_FILE), 'utf8')).not.toContain(issued.token);
  });

  it('accepts the admin token as admin and records last-seen for device tokens', async () => {
    const s = services();
    const admin = fs.readFileSync(path.join(s.dir, 'admin.token'), 'utf8').trim();
    registerSecret(admin);
    expect(await s.tokens.authenticate(admin)).toMatchObject({ tokenId: 'admin', scope: 'admin' });
    const issued = await s.tokens.create({ name: 'phone', scope: 'view', ttlMs: 60_000, via: 'pairing' });
    registerSecret(issued.token);
    await s.tokens.authenticate(issued.token);
    expect(s.tokens.list()[0]?.lastSeenAt).toBeTypeOf('number');
  });

  it('[SEC-06] revoke fires onRevoked at once with the token id; revoking twice is harmless', async () => {
    const s = services();
    const issued = await s.tokens.create({ name: 'phone', scope: 'view', ttlMs: 60_000, via: 'api' });
    registerSecret(issued.token);
    const seen: string[] = [];
    s.tokens.onRevoked((id) => seen.push(id));
    expect(s.tokens.revoke(issued.record.id)?.revokedAt).toBeTypeOf('number');
    expect(seen).toEqual([issued.record.id]);
    expect(s.tokens.revoke('nope')).toBeUndefined();
    expect(await s.tokens.authenticate(issued.token)).toBeNull();
  });

  it('[SEC-06] an expired token is announced once through onRevoked by the sweep', async () => {
    let clock = Date.now();
    const s = services(() => clock);
    const issued = await s.tokens.create({ name: 'short', scope: 'view', ttlMs: 5_000, via: 'api' });
    registerSecret(issued.token);
    const seen: string[] = [];
    const announced = new Promise<void>((resolve) => s.tokens.onRevoked((id) => (seen.push(id), resolve())));
    expect(await s.tokens.authenticate(issued.token)).not.toBeNull();
    clock += 10_000;
    await announced;
    s.tokens.checkExpiry();
    expect(seen).toEqual([issued.record.id]);
    expect(await s.tokens.authenticate(issued.token)).toBeNull();
  });

  it('refuses to overwrite a registry file that is not ours', () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    fs.writeFileSync(path.join(tmp.dir, TOKENS_FILE), '{"hand": "edited"');
    expect(() => TokenRegistry.open(tmp.dir)).toThrow(TokenRegistryError);
    expect(fs.readFileSync(path.join(tmp.dir, TOKENS_FILE), 'utf8')).toBe('{"hand": "edited"');
  });

  it('parses lifetimes and refuses nonsense', () => {
    expect(parseTtl('30m')).toBe(1_800_000);
    expect(parseTtl('7d')).toBe(604_800_000);
    expect(parseTtl('2w')).toBe(1_209_600_000);
    expect(parseTtl('90')).toBe(90_000);
    for (const bad of ['', '0', '-1d', '7 days', '1y', '9999d', 'abc']) expect(parseTtl(bad), bad).toBeUndefined();
  });
});
