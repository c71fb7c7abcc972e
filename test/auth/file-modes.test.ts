import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, startSecuredHub, type SecuredHub } from '../security/helpers/secured-hub.js';
import { registerSecret } from '../security/helpers/log-capture.js';

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('[SEC-09] file modes under umask 022', () => {
  let previous: number;
  let hub: SecuredHub;
  beforeAll(async () => {
    previous = process.umask(0o022);
    hub = await startSecuredHub();
  });
  afterAll(async () => {
    await hub.close();
    process.umask(previous);
  });

  function expectPrivate(): void {
    expect(mode(hub.stateDir)).toBe(0o700);
    for (const f of fs.readdirSync(hub.stateDir)) {
      const p = path.join(hub.stateDir, f);
      if (fs.statSync(p).isFile()) expect(mode(p), f).toBe(0o600);
    }
  }

  it('[SEC-09] after first start: state dir 0700; admin.token, jwt.secret, audit.jsonl 0600', () => {
    for (const f of ['admin.token', 'jwt.secret', 'audit.jsonl']) expect(fs.existsSync(path.join(hub.stateDir, f)), f).toBe(true);
    expectPrivate();
  });

  it('[SEC-09] after token writes, revocations, pairing and audit appends: still 0600 / 0700', async () => {
    const t = await createToken(hub, 'operate');
    const headers = { host: 'localhost', authorization: `Bearer ${hub.adminToken}` };
    await hub.app.inject({ method: 'DELETE', url: `/api/tokens/${t.id}`, headers });
    const code = await hub.app.inject({ method: 'POST', url: '/api/pair/codes', headers, payload: {} });
    registerSecret(code.json().code);
    expect(fs.existsSync(path.join(hub.stateDir, 'tokens.json'))).toBe(true);
    // No stray temp files from the atomic writes.
    expect(fs.readdirSync(hub.stateDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expectPrivate();
  });

  it('[SEC-09] a loosened state dir and loosened secret files are tightened again on the next start', async () => {
    fs.chmodSync(hub.stateDir, 0o755);
    fs.chmodSync(path.join(hub.stateDir, 'jwt.secret'), 0o644);
    fs.chmodSync(path.join(hub.stateDir, 'tokens.json'), 0o644);
    fs.chmodSync(path.join(hub.stateDir, 'audit.jsonl'), 0o644);
    fs.chmodSync(path.join(hub.stateDir, 'admin.token'), 0o644);
    const { createAuthServices } = await import('../../src/auth/auth-services.js');
    const again = createAuthServices({ stateDir: hub.stateDir, limits: hub.config.limits });
    again.close();
    for (const f of ['admin.token', 'jwt.secret', 'tokens.json', 'audit.jsonl']) expect(mode(path.join(hub.stateDir, f)), f).toBe(0o600);
    expect(mode(hub.stateDir)).toBe(0o700);
  });
});
