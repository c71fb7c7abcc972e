import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPairCli } from '../../src/cli/pair.js';
import { runPublicUrlCli } from '../../src/cli/public-url.js';
import { writeHubFile } from '../../src/daemon/state-files.js';
import { HubError } from '../../src/errors.js';
import { normalisePublicUrl, PublicUrls } from '../../src/http/security/public-urls.js';
import { LIMITS } from '../../src/limits.js';
import { VERSION } from '../../src/version.js';
import { registerSecret } from './helpers/log-capture.js';
import { rawRequest } from './helpers/raw-http.js';
import { createToken, startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';
import { tempDir } from './helpers/temp-dir.js';
import { collector } from '../helpers/cli-io.js';

// A quick tunnel's hostname is accepted without restarting the hub.
const TUNNEL = 'https://calm-river-1234.trycloudflare.com';
const TUNNEL_HOST = 'calm-river-1234.trycloudflare.com';

describe('public addresses added at run time', () => {
  let hub: SecuredHub;
  let admin: string;
  let operate: string;

  beforeAll(async () => {
    hub = await startSecuredHub();
    writeHubFile(hub.stateDir, {
      pid: process.pid,
      host: '127.0.0.1',
      port: hub.port,
      url: hub.url,
      version: VERSION,
      startedAt: Date.now(),
    });
    admin = (await createToken(hub, 'admin')).token;
    operate = (await createToken(hub, 'operate')).token;
  });
  afterAll(async () => {
    await hub.close();
  });

  it('a refused tunnel Host is accepted once an admin adds it; an operate device may not add one', async () => {
    const me = (host: string, token = admin) =>
      rawRequest(hub.port, { path: '/api/me', headers: { host, authorization: `Bearer ${token}` } });
    expect((await me(TUNNEL_HOST)).status).toBe(403);
    const denied = await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/settings/public-urls',
      headers: { host: `127.0.0.1:${hub.port}`, authorization: `Bearer ${operate}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: TUNNEL }),
    });
    expect(denied.status).toBe(403);

    const io = collector();
    expect(await runPublicUrlCli(['add', `${TUNNEL}/`, '--state-dir', hub.stateDir], io)).toBe(0);
    expect(io.out()).toContain(TUNNEL);
    expect(io.out()).toContain('zcode-hub pair');
    expect((await me(TUNNEL_HOST)).status).toBe(200);
    // Its Origin too: the web app loaded through the tunnel uses the cookie with it.
    const viaTunnel = await rawRequest(hub.port, {
      path: '/api/me',
      headers: { host: TUNNEL_HOST, origin: TUNNEL, cookie: `zcode_hub_token=${admin}` },
    });
    expect(viaTunnel.status).toBe(200);
    // Persisted (0600) for the next start.
    const file = path.join(hub.stateDir, 'public-urls.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ version: 1, urls: [TUNNEL] });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(new PublicUrls(file, LIMITS.publicUrlsMax).hasHost(TUNNEL_HOST)).toBe(true);

    // pair now prints the tunnel link, with no loopback warning.
    const pairIo = collector();
    expect(await runPairCli(['--state-dir', hub.stateDir, '--no-qr'], pairIo)).toBe(0);
    registerSecret(/Pairing code: (\S+)/.exec(pairIo.out())?.[1] ?? '');
    expect(pairIo.out()).toContain(`Open on the device: ${TUNNEL}/#pair=`);
    expect(pairIo.err()).toBe('');

    const removed = collector();
    expect(await runPublicUrlCli(['remove', TUNNEL, '--state-dir', hub.stateDir], removed)).toBe(0);
    expect((await me(TUNNEL_HOST)).status).toBe(403);
    const empty = collector();
    expect(await runPublicUrlCli(['list', '--state-dir', hub.stateDir], empty)).toBe(0);
    expect(empty.out()).toMatch(/^no public URL: .*zcode-hub public-url add URL\)\n$/);
  });

  it('bad addresses are refused with a reason', async () => {
    const post = (url: string) =>
      rawRequest(hub.port, {
        method: 'POST',
        path: '/api/settings/public-urls',
        headers: { host: `127.0.0.1:${hub.port}`, authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
    for (const [url, why] of [
      ['not a url', /Not a URL/],
      ['ftp://x.example', /Only http/],
      ['https://u:p@x.example', /No user/],
      ['https://x.example/path', /without a path/],
    ] as const) {
      const res = await post(url);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error.message).toMatch(why);
    }
  });

  it(`crossing publicUrlsMax (${LIMITS.publicUrlsMax}) answers HUB_ERR_LIMIT; a corrupt file is ignored, not fatal`, () => {
    const tmp = tempDir();
    try {
      const file = path.join(tmp.dir, 'public-urls.json');
      const urls = new PublicUrls(file, 3);
      for (let i = 0; i < 3; i++) urls.add(`https://t${i}.example.com`);
      urls.add('https://t0.example.com'); // re-adding moves it, does not count twice
      expect(urls.list()).toEqual(['https://t1.example.com', 'https://t2.example.com', 'https://t0.example.com']);
      expect(urls.latest()).toBe('https://t0.example.com');
      expect(() => urls.add('https://t3.example.com')).toThrow(HubError);
      try {
        urls.add('https://t3.example.com');
      } catch (err) {
        expect((err as HubError).code).toBe('HUB_ERR_LIMIT');
      }
      fs.writeFileSync(file, '{broken');
      const messages: string[] = [];
      expect(new PublicUrls(file, 3, (m) => messages.push(m)).list()).toEqual([]);
      expect(messages[0]).toMatch(/ignoring unreadable/);
      expect(normalisePublicUrl(' HTTPS://Name.Example.com:443/ ')).toBe('https://name.example.com');
    } finally {
      tmp.cleanup();
    }
  });
});
