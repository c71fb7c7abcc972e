import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';
import { rawConnect, rawRequest } from './helpers/raw-http.js';

const PUBLIC = 'https://hub.example.test';

describe('Host and Origin allow-lists (ARCHITECTURE.md §7)', () => {
  let hub: SecuredHub;
  let viewToken: string;

  beforeAll(async () => {
    hub = await startSecuredHub({ publicUrl: PUBLIC, allowOrigins: ['https://remote.example.test'] });
    viewToken = (await createToken(hub, 'view')).token;
  });
  afterAll(async () => {
    await hub.close();
  });

  const bearer = () => ({ authorization: `Bearer ${viewToken}` });

  describe('[SEC-02] Host matrix', () => {
    const refused: Array<[string, string | undefined]> = [
      ['foreign name', 'evil.example.com'],
      ['rebinding name (a foreign name resolving to 127.0.0.1)', '127.0.0.1.nip.io'],
      ['look-alike of localhost', 'localhost.evil.test'],
      ['empty', ''],
      ['foreign IP literal', '10.1.2.3'],
      ['foreign IPv6 literal', '[fe80::1]'],
      ['malformed', 'localhost:99999'],
    ];
    const accepted = ['localhost', '127.0.0.1', '[::1]', 'hub.example.test', 'HUB.example.test:443'];

    for (const [what, host] of refused) {
      it(`[SEC-02] ${what} → 403 on HTTP`, async () => {
        const headers: Record<string, string> = { ...bearer() };
        if (host !== undefined) headers.host = host;
        const res = await rawRequest(hub.port, { path: '/api/health', headers });
        expect(res.status).toBe(403);
        expect(JSON.parse(res.body).error.code).toBe('HUB_ERR_HOST');
      });
      it(`[SEC-02] ${what} → 403 on the WebSocket upgrade`, async () => {
        const headers: Record<string, string> = { ...bearer() };
        if (host !== undefined) headers.host = host;
        const res = await rawRequest(hub.port, { path: hub.wsPath, headers, upgrade: true });
        expect(res.upgraded).toBe(false);
        expect(res.status).toBe(403);
      });
    }

    for (const name of accepted) {
      it(`[SEC-02] ${name} (any port) is ours on HTTP and the upgrade`, async () => {
        const host = name.includes(':') && !name.startsWith('[') ? name : `${name}:${hub.port}`;
        const http = await rawRequest(hub.port, { path: '/api/health', headers: { host } });
        expect(http.status).toBe(200);
        const ws = await rawRequest(hub.port, { path: hub.wsPath, headers: { host, ...bearer() }, upgrade: true });
        expect(ws.upgraded).toBe(true);
      });
    }

    it('[SEC-02] absent Host is refused on HTTP (node: 400) and on the upgrade (our hook: 403)', async () => {
      const http = await rawRequest(hub.port, { path: '/api/health', headers: bearer() });
      expect(http.status).toBe(400);
      const ws = await rawRequest(hub.port, { path: hub.wsPath, headers: bearer(), upgrade: true });
      expect(ws.upgraded).toBe(false);
      expect(ws.status).toBe(403);
    });

    it('[SEC-02] the socket of a refused upgrade is closed by the hub, not left half-open', async () => {
      const socket = await rawConnect(hub.port);
      const closed = new Promise<string>((resolve) => {
        let data = '';
        socket.on('data', (c: Buffer) => (data += c.toString('utf8')));
        socket.on('close', () => resolve(data));
      });
      socket.write(
        `GET ${hub.wsPath} HTTP/1.1\r\nHost: evil.example.com\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
      expect(await closed).toMatch(/^HTTP\/1\.1 403/);
    });

    it('[SEC-02] X-Forwarded-Host cannot smuggle a foreign host in or ours past the check', async () => {
      const res = await rawRequest(hub.port, {
        path: '/api/health',
        headers: { host: 'evil.example.com', 'x-forwarded-host': 'localhost' },
      });
      expect(res.status).toBe(403);
    });
  });

  describe('[SEC-03] Origin matrix on the upgrade', () => {
    const host = () => `127.0.0.1:${hub.port}`;
    const refused = (): Array<[string, string]> => [
      ['foreign', 'https://evil.example.com'],
      ['null', 'null'],
      ['scheme mismatch', `https://127.0.0.1:${hub.port}`],
      ['port mismatch', `http://127.0.0.1:${hub.port + 1}`],
      ['look-alike suffix', 'https://hub.example.test.evil.com'],
      ['look-alike prefix', 'https://evilhub.example.test'],
      ['public host over http', 'http://hub.example.test'],
      ['with a path', `http://127.0.0.1:${hub.port}/x`],
    ];

    it('[SEC-03] a foreign Origin is refused 403 before auth runs (even with a valid token, even without one)', async () => {
      for (const [what, origin] of refused()) {
        for (const creds of [bearer(), {}]) {
          const res = await rawRequest(hub.port, { path: hub.wsPath, headers: { host: host(), origin, ...creds }, upgrade: true });
          expect(res.upgraded, what).toBe(false);
          expect(res.status, what).toBe(403);
          expect(JSON.parse(res.body).error.code, what).toBe('HUB_ERR_ORIGIN');
        }
      }
    });

    it('[SEC-03] own origins, the public origin and --allow-origin entries pass', async () => {
      for (const origin of [
        `http://127.0.0.1:${hub.port}`,
        `http://localhost:${hub.port}`,
        `http://[::1]:${hub.port}`,
        PUBLIC,
        'https://remote.example.test',
      ]) {
        const res = await rawRequest(hub.port, { path: hub.wsPath, headers: { host: host(), origin, ...bearer() }, upgrade: true });
        expect(res.upgraded, origin).toBe(true);
      }
    });

    it('[SEC-03] absent Origin + bearer is allowed', async () => {
      const res = await rawRequest(hub.port, { path: hub.wsPath, headers: { host: host(), ...bearer() }, upgrade: true });
      expect(res.upgraded).toBe(true);
    });

    it('[SEC-03] absent Origin + nothing → 401', async () => {
      const res = await rawRequest(hub.port, { path: hub.wsPath, headers: { host: host() }, upgrade: true });
      expect(res.upgraded).toBe(false);
      expect(res.status).toBe(401);
    });

    it('[SEC-03] absent Origin + ambient cookie is refused unless the browser says same-origin', async () => {
      const cookie = `zcode_hub_token=${viewToken}`;
      const bare = await rawRequest(hub.port, { path: hub.wsPath, headers: { host: host(), cookie }, upgrade: true });
      expect(bare.status).toBe(403);
      const sameOrigin = await rawRequest(hub.port, {
        path: '/api/me',
        headers: { host: host(), cookie, 'sec-fetch-site': 'same-origin' },
      });
      expect(sameOrigin.status).toBe(200);
      const crossSite = await rawRequest(hub.port, { path: '/api/me', headers: { host: host(), cookie, 'sec-fetch-site': 'cross-site' } });
      expect(crossSite.status).toBe(403);
    });

    it('[SEC-03] own Origin + cookie (the built-in web app) upgrades', async () => {
      const res = await rawRequest(hub.port, {
        path: hub.wsPath,
        headers: { host: host(), origin: `http://127.0.0.1:${hub.port}`, cookie: `zcode_hub_token=${viewToken}` },
        upgrade: true,
      });
      expect(res.upgraded).toBe(true);
    });

    it('[SEC-03] own Origin without credentials → 401 (the Origin check does not authenticate)', async () => {
      const res = await rawRequest(hub.port, {
        path: hub.wsPath,
        headers: { host: host(), origin: `http://127.0.0.1:${hub.port}` },
        upgrade: true,
      });
      expect(res.status).toBe(401);
    });
  });
});
