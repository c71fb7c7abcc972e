import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenAuthenticator } from '../../src/daemon/admin-authenticator.js';
import { authHook } from '../../src/http/auth-hook.js';
import { installErrorHandler } from '../../src/http/error-handler.js';
import { pushRoutes } from '../../src/http/routes/push.js';
import { createLogger } from '../../src/logger.js';
import { PushNotifier } from '../../src/push/push-notifier.js';
import { vapidFile } from '../../src/push/vapid-keys.js';
import { selfSignedCert } from '../helpers/tls-cert.js';

const TOKEN = 'push-test-admin-token-0123456789';
let root: string;
let server: https.Server;
let pushUrl: string;
let agent: https.Agent;
const received: Array<{ url: string; headers: Record<string, string | string[] | undefined>; bytes: number }> = [];
/** Endpoints the local push service answers 410 Gone for (an unsubscribed browser). */
const gone = new Set<string>();

/** A real local HTTPS "push service" (self-signed cert from openssl) that records what it gets. */
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-push-'));
  const tls = selfSignedCert(root);
  server = https.createServer(tls, (req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, bytes });
      res.statusCode = gone.has(req.url ?? '') ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  pushUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = new https.Agent({ ca: tls.cert });
});
afterAll(async () => {
  agent.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** Keys a browser would hold for a subscription (P-256 public key + 16-byte auth secret). */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

describe('Web Push', () => {
  it('[SEC-09] VAPID keys are created once, 0600, and reused', () => {
    const stateDir = fs.mkdtempSync(path.join(root, 'state-'));
    const logger = createLogger({ level: 'silent' });
    const a = new PushNotifier({ stateDir, logger });
    expect(fs.statSync(vapidFile(stateDir)).mode & 0o777).toBe(0o600);
    const b = new PushNotifier({ stateDir, logger });
    expect(b.publicKey).toBe(a.publicKey);
    expect(a.publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
  });

  it('subscribes through the routes and delivers an encrypted, VAPID-signed push; 410 drops the subscription', async () => {
    const stateDir = fs.mkdtempSync(path.join(root, 'state-'));
    const notifier = new PushNotifier({
      stateDir,
      logger: createLogger({ level: 'silent' }),
      limits: { pushSubscriptionsPerDevice: 2 },
      agent,
      // The local push service is on 127.0.0.1 (test-only, docs/SECURITY.md "Push endpoints").
      allowPrivateEndpoints: true,
    });
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app);
    await app.register(authHook, { authenticator: adminTokenAuthenticator(TOKEN) });
    await app.register(pushRoutes, { notifier });
    const auth = { authorization: `Bearer ${TOKEN}` };

    expect((await app.inject({ url: '/api/push/vapid-public-key' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/push/vapid-public-key', headers: auth })).json()).toEqual({ publicKey: notifier.publicKey });
    const bad = await app.inject({
      method: 'POST',
      url: '/api/push/subscriptions',
      headers: auth,
      payload: { endpoint: 'not a url', keys: {} },
    });
    expect(bad.statusCode).toBe(400);
    for (const name of ['a', 'b', 'c']) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: auth,
        payload: { endpoint: `${pushUrl}/push/${name}`, expirationTime: null, keys: browserKeys() },
      });
      expect(r.statusCode).toBe(201);
    }
    // Bounded: the device's oldest of three went when its limit is two.
    expect(notifier.subscriptions.list().map((s) => s.endpoint)).toEqual([`${pushUrl}/push/b`, `${pushUrl}/push/c`]);
    expect(fs.statSync(path.join(stateDir, 'push-subscriptions.json')).mode & 0o777).toBe(0o600);

    gone.add('/push/c');
    received.length = 0;
    const delivered = await notifier.send({ kind: 'needs_you', sessionId: 's1', title: 'Fix tests', body: 'Needs your answer' });
    expect(delivered).toBe(1);
    expect(received.map((r) => r.url).sort()).toEqual(['/push/b', '/push/c']);
    const got = received.find((r) => r.url === '/push/b');
    expect(got?.headers['content-encoding']).toBe('aes128gcm');
    expect(String(got?.headers['authorization'])).toMatch(new RegExp(`^vapid t=[^,]+, k=${notifier.publicKey}$`));
    expect(got?.headers['ttl']).toBe('3600');
    expect(got?.bytes).toBeGreaterThan(0);
    expect(notifier.subscriptions.list().map((s) => s.endpoint)).toEqual([`${pushUrl}/push/b`]);

    const del = await app.inject({
      method: 'DELETE',
      url: '/api/push/subscriptions',
      headers: auth,
      payload: { endpoint: `${pushUrl}/push/b` },
    });
    expect(del.json()).toEqual({ removed: true });
    expect(notifier.subscriptions.list()).toEqual([]);
    await app.close();
  });
});
