import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BindSafetyError, checkBindSafety, isLoopbackHost } from '../../src/auth/bind-safety.js';
import { buildConfig } from '../../src/config/load.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { captureLogger } from '../security/helpers/log-capture.js';
import { tempDir } from '../security/helpers/temp-dir.js';

describe('[SEC-01] bind safety', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  function dirs() {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    return { stateDir: path.join(tmp.dir, 'state'), workspace: tmp.dir, providerFile: path.join(tmp.dir, 'provider.json') };
  }

  it('[SEC-01] defaults bind loopback, and a default start listens on 127.0.0.1 only', async () => {
    expect(buildConfig({}).host).toBe('127.0.0.1');
    const config = buildConfig({ ...dirs(), port: 0, backend: 'sim' });
    expect(checkBindSafety(config)).toEqual({ warnings: [] });
    const daemon = await startDaemon(config, captureLogger('sec01').logger);
    cleanups.push(() => daemon.close());
    const address = daemon.app.server.address();
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
  });

  it('[SEC-01] 0.0.0.0 where no admin token or key can be created refuses with a clear message', async () => {
    const d = dirs();
    fs.mkdirSync(d.workspace, { recursive: true });
    const blocker = path.join(d.workspace, 'not-a-dir');
    fs.writeFileSync(blocker, 'x');
    const config = buildConfig({ ...d, stateDir: path.join(blocker, 'state'), host: '0.0.0.0', port: 0, backend: 'sim' });
    expect(() => checkBindSafety(config)).toThrow(BindSafetyError);
    expect(() => checkBindSafety(config)).toThrow(/refusing to listen on 0\.0\.0\.0.*127\.0\.0\.1/s);
    // The daemon itself cannot start there either: no state dir, no secret, no listener.
    await expect(startDaemon(config, captureLogger('sec01-refuse').logger)).rejects.toThrow();
  });

  it('[SEC-01] a non-loopback bind creates its secrets (0600) and warns unless TLS (an https tunnel is not enough)', () => {
    const d = dirs();
    const exposed = checkBindSafety(buildConfig({ ...d, host: '0.0.0.0' }));
    expect(exposed.warnings).toHaveLength(1);
    expect(exposed.warnings[0]).toMatch(/without TLS/);
    expect(fs.statSync(path.join(d.stateDir, 'admin.token')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(d.stateDir, 'jwt.secret')).mode & 0o777).toBe(0o600);
    // An https tunnel does not make the plain HTTP on 0.0.0.0 safe.
    const tunnelled = checkBindSafety(buildConfig({ ...d, host: '0.0.0.0', publicUrl: 'https://hub.example.test' })).warnings;
    expect(tunnelled).toHaveLength(1);
    expect(tunnelled[0]).toMatch(/without TLS: plain HTTP .*--host 127\.0\.0\.1/);
    expect(checkBindSafety(buildConfig({ ...d, host: '::', tlsCert: '/c.pem', tlsKey: '/k.pem' })).warnings).toEqual([]);
  });

  it('knows which hosts are loopback', () => {
    for (const h of ['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', 'example.com', 'localhost.example.com']) expect(isLoopbackHost(h), h).toBe(false);
  });
});
