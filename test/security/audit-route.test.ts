import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';

describe('GET /api/audit (ARCHITECTURE.md §7)', () => {
  let hub: SecuredHub;
  beforeAll(async () => {
    hub = await startSecuredHub();
  });
  afterAll(async () => {
    await hub.close();
  });
  const get = (url: string, token = hub.adminToken) =>
    hub.app.inject({ method: 'GET', url, headers: { host: 'localhost', authorization: `Bearer ${token}` } });

  it('pages token changes oldest first with a cursor; entries name who did it', async () => {
    const a = await createToken(hub, 'view', 'audit-a');
    await createToken(hub, 'operate', 'audit-b');
    await hub.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${a.id}`,
      headers: { host: 'localhost', authorization: `Bearer ${hub.adminToken}` },
    });
    const first = await get('/api/audit?limit=2');
    expect(first.statusCode).toBe(200);
    const page1 = first.json() as { entries: Array<{ seq: number; action: string; who: { name: string } }>; nextCursor?: string };
    expect(page1.entries.map((e) => e.action)).toEqual(['token.create', 'token.create']);
    expect(page1.entries[0]?.who.name).toBe('admin');
    expect(page1.nextCursor).toBe('2');
    const page2 = (await get(`/api/audit?limit=2&cursor=${page1.nextCursor}`)).json() as {
      entries: Array<{ action: string; detail: { id: string } }>;
      nextCursor?: string;
    };
    expect(page2.entries.map((e) => e.action)).toEqual(['token.revoke']);
    expect(page2.entries[0]?.detail.id).toBe(a.id);
    expect(page2.nextCursor).toBeUndefined();
  });

  it('is admin-only and validates its query', async () => {
    const operate = await createToken(hub, 'operate', 'audit-reader');
    expect((await get('/api/audit', operate.token)).statusCode).toBe(403);
    expect((await get('/api/audit?limit=0')).statusCode).toBe(400);
    expect((await get(`/api/audit?limit=${hub.config.limits.auditPageMax + 1}`)).statusCode).toBe(400);
    expect((await get('/api/audit?cursor=-1')).statusCode).toBe(400);
  });
});
