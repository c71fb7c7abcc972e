import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { PushNotifier } from '../../src/push/push-notifier.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { selfSignedCert } from '../helpers/tls-cert.js';
import { until } from '../helpers/until.js';

/**
 * Red team, push deliveries (docs/SECURITY.md "Push endpoints"): endpoints on a listener that
 * accepts and never answers held one socket each for ever, per finished turn. Real sockets: a
 * TCP listener on 127.0.0.1 that never says a word (the TLS handshake never completes), counted
 * from its own side. The hub may send to 127.0.0.1 only with the test-only config option
 * `testOnly.pushPrivateEndpoints`; without it the same endpoints are refused before any socket.
 */

/** A listener that accepts and never answers; it counts open and total connections. */
interface Silent {
  port: number;
  /** Connections open on the listener's side. */
  open: number;
  /** The most sockets this process held open towards the listener, sampled at every accept. */
  maxOpen: number;
  accepted: number;
  close(): Promise<void>;
}

/**
 * Sockets of this process (the hub runs in it) connected to `port` and still held by a file
 * descriptor: /proc/net/tcp rows whose remote port is `port` and whose inode is not 0 (a closed
 * descriptor leaves an orphan with inode 0). The red team counted the daemon's descriptors.
 */
function socketsTo(port: number): number {
  let n = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = fs.existsSync(table) ? fs.readFileSync(table, 'utf8').split('\n').slice(1) : [];
    for (const row of rows) {
      const f = row.trim().split(/\s+/);
      if (f.length > 9 && Number.parseInt(f[2]?.split(':')[1] ?? '', 16) === port && f[9] !== '0') n++;
    }
  }
  return n;
}

async function silentListener(): Promise<Silent> {
  const sockets = new Set<net.Socket>();
  const s: Silent = {
    port: 0,
    open: 0,
    maxOpen: 0,
    accepted: 0,
    close: () => {
      for (const sock of sockets) sock.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
  const server = net.createServer((sock) => {
    sockets.add(sock);
    s.accepted++;
    s.open++;
    s.maxOpen = Math.max(s.maxOpen, socketsTo(s.port));
    sock.resume();
    sock.on('error', () => undefined);
    sock.on('close', () => {
      sockets.delete(sock);
      s.open--;
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.port = (server.address() as AddressInfo).port;
  return s;
}

/** Keys a browser would hold for a subscription (P-256 public key + 16-byte auth secret). */
function browserKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}
const owner = { device: 'phone', tokenId: 'phone-token' };

describe('push deliveries are bounded', () => {
  let root: string;
  let silent: Silent;
  let keys: { p256dh: string; auth: string };
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-push-delivery-'));
    silent = await silentListener();
    keys = browserKeys();
  });
  afterAll(async () => {
    await silent?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('an endpoint that never answers: a hard deadline closes its socket, a few run at once, the queue is bounded, repeated failures forget it', async () => {
    const notifier = new PushNotifier({
      stateDir: fs.mkdtempSync(path.join(root, 'state-')),
      logger: createLogger({ level: 'silent' }),
      limits: {
        pushSubscriptionsPerDevice: 10,
        pushDeliveryTimeoutMs: 300,
        pushDeliveriesInFlight: 3,
        pushDeliveriesQueuedMax: 4,
        pushFailuresBeforeForget: 2,
      },
      allowPrivateEndpoints: true,
    });
    const endpoints = Array.from({ length: 10 }, (_, i) => `https://127.0.0.1:${silent.port}/push/${i}`);
    for (const endpoint of endpoints) notifier.subscriptions.add({ endpoint, keys }, owner);
    const before = silent.accepted;

    // 3 run, 4 wait, 3 are dropped at once; each that runs is cut off by its deadline.
    expect(await notifier.send({ kind: 'turn_finished', sessionId: 's1', title: 'Done', body: '' })).toBe(0);
    expect(notifier.deliveryStats).toEqual({ running: 0, waiting: 0, dropped: 3 });
    expect(silent.accepted - before).toBe(7);
    expect(silent.maxOpen).toBeGreaterThan(0);
    expect(silent.maxOpen).toBeLessThanOrEqual(3);
    await until(() => (silent.open === 0 ? true : undefined), 'every socket to the silent endpoint closed');
    expect(socketsTo(silent.port)).toBe(0);
    expect(notifier.subscriptions.list()).toHaveLength(10);

    // The second failure in a row forgets the seven that ran twice; the three dropped ones stay.
    expect(await notifier.send({ kind: 'turn_finished', sessionId: 's1', title: 'Done', body: '' })).toBe(0);
    expect(notifier.subscriptions.list().map((s) => s.endpoint)).toEqual(endpoints.slice(7));
    await until(() => (silent.open === 0 ? true : undefined), 'every socket closed again');
  });

  it('refused at send time: a stored endpoint whose address is not public gets no socket and is forgotten', async () => {
    const stateDir = fs.mkdtempSync(path.join(root, 'state-'));
    // Stored earlier (when the name pointed elsewhere, or by an older hub): checked again now.
    const stored = [
      `https://localhost:${silent.port}/push/a`,
      `https://127.0.0.1:${silent.port}/push/b`,
      `http://127.0.0.1:${silent.port}/c`,
    ];
    fs.writeFileSync(
      path.join(stateDir, 'push-subscriptions.json'),
      JSON.stringify({ subscriptions: stored.map((endpoint) => ({ endpoint, keys, ...owner, createdAt: 1 })) }),
      { mode: 0o600 },
    );
    const notifier = new PushNotifier({ stateDir, logger: createLogger({ level: 'silent' }) });
    expect(notifier.subscriptions.list()).toHaveLength(3);
    const before = silent.accepted;
    expect(await notifier.send({ kind: 'needs_you', sessionId: 's1', title: 'Needs you', body: '' })).toBe(0);
    expect(silent.accepted).toBe(before);
    expect(notifier.subscriptions.list()).toEqual([]);
  });

  it('a 404 forgets the subscription at once', async () => {
    const tls = selfSignedCert(fs.mkdtempSync(path.join(root, 'tls-')));
    const server = https.createServer(tls, (req, res) => {
      req.resume();
      res.statusCode = 404;
      res.end('no such subscription');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const agent = new https.Agent({ ca: tls.cert });
    const notifier = new PushNotifier({
      stateDir: fs.mkdtempSync(path.join(root, 'state-')),
      logger: createLogger({ level: 'silent' }),
      agent,
      allowPrivateEndpoints: true,
    });
    notifier.subscriptions.add({ endpoint: `https://127.0.0.1:${(server.address() as AddressInfo).port}/push/gone`, keys }, owner);
    expect(await notifier.send({ kind: 'needs_you', sessionId: 's1', title: 'Needs you', body: '' })).toBe(0);
    expect(notifier.subscriptions.list()).toEqual([]);
    agent.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
});

describe('a hub whose pushes go to an endpoint that never answers', () => {
  let h: HubHarness;
  let silent: Silent;
  beforeAll(async () => {
    silent = await silentListener();
    h = await startHub({
      config: { testOnly: { pushPrivateEndpoints: true } },
      limits: { pushSubscriptionsPerDevice: 6, pushDeliveryTimeoutMs: 500, pushDeliveriesInFlight: 2, pushFailuresBeforeForget: 2 },
    });
  });
  afterAll(async () => {
    await h?.close();
    await silent?.close();
  });

  it('finished turns leave no socket open, at most a few at once, and the dead endpoints are forgotten', async () => {
    const token = await h.token('view', 'attacker');
    const keys = browserKeys();
    for (let i = 0; i < 6; i++) {
      const r = await h.api('/api/push/subscriptions', {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ endpoint: `https://127.0.0.1:${silent.port}/push/${i}`, keys }),
      });
      expect(r.status).toBe(201);
    }
    const socket = await h.initializedClient({ name: 'editor' });
    const { sessionId } = await socket.request<{ sessionId: string }>('session/new', { cwd: h.workspace, mcpServers: [] });
    for (let turn = 1; turn <= 2; turn++) {
      const done = await socket.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
      expect(done.stopReason).toBe('end_turn');
      await until(() => (silent.accepted >= 6 * turn ? true : undefined), `turn ${turn}'s six deliveries`);
      await until(() => (silent.open === 0 ? true : undefined), `turn ${turn}'s sockets closed`);
      expect(socketsTo(silent.port)).toBe(0);
    }
    expect(silent.maxOpen).toBeGreaterThan(0);
    expect(silent.maxOpen).toBeLessThanOrEqual(2);
    await until(
      () => (fs.readFileSync(path.join(h.stateDir, 'push-subscriptions.json'), 'utf8').includes('/push/') ? undefined : true),
      'the dead endpoints forgotten',
    );
  });
});
