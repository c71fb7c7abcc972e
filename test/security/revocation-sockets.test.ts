import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { registerSecret } from './helpers/log-capture.js';

describe('[SEC-06] live sockets of revoked and expired tokens', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub.close();
  });

  it('[SEC-06] revoking a token closes its live sockets (4401) within 1 s; other tokens stay connected', async () => {
    const victim = await hub.auth.tokens.create({ name: 'lost-phone', scope: 'operate', ttlMs: 3_600_000, via: 'api' });
    const bystander = await hub.token('operate', 'desk');
    registerSecret(victim.token);
    registerSecret(bystander);
    const a = await hub.initializedClient({ token: victim.token, name: 'phone-a' });
    const b = await hub.initializedClient({ token: victim.token, name: 'phone-b' });
    const c = await hub.initializedClient({ token: bystander, name: 'desk' });
    const revokedAt = Date.now();
    expect(hub.auth.tokens.revoke(victim.record.id)).toBeDefined();
    const [ca, cb] = await Promise.all([a.closed, b.closed]);
    // ARCHITECTURE.md §7 states the bound; the close is sent synchronously from the revocation.
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
    expect(ca.code).toBe(4401);
    expect(cb.code).toBe(4401);
    expect(c.isOpen).toBe(true);
    await c.request('session/list', {});
    // And the revoked token cannot come back.
    await expect(hub.client({ token: victim.token })).rejects.toThrow();
  });

  it('[SEC-06] a token that expires closes its live sockets (4401)', async () => {
    const short = await hub.auth.tokens.create({ name: 'short-lived', scope: 'view', ttlMs: 2_000, via: 'api' });
    registerSecret(short.token);
    const client = await hub.initializedClient({ token: short.token });
    const closed = await client.closed;
    expect(closed.code).toBe(4401);
    await expect(hub.client({ token: short.token })).rejects.toThrow();
  });
});
