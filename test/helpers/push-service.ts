import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { selfSignedCert } from './tls-cert.js';

/**
 * A local Web Push service and the browser end of a subscription, for tests: a real
 * HTTPS server on 127.0.0.1 port 0 (web-push only speaks https, so its certificate is made here
 * with openssl and the hub is given an agent that trusts it), P-256 ECDH keys and an auth secret
 * generated here as a browser would, and the receiving side of RFC 8291 (aes128gcm, RFC 8188)
 * and RFC 8292 (VAPID) written from the RFCs with node:crypto — independent of the `web-push`
 * library the hub sends with.
 */

/** One push as the service received it. */
export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A subscription's browser side: what `PushSubscription.toJSON()` gives the hub, and the private key. */
export interface Subscriber {
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  ecdh: ECDH;
  auth: Buffer;
}

export interface PushService {
  origin: string;
  /** Trusts the service's certificate: give it to the hub (`pushAgent`). */
  agent: https.Agent;
  received: ReceivedPush[];
  subscriber(name: string): Subscriber;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-push-service-'));
  const tls = selfSignedCert(dir);
  const received: ReceivedPush[] = [];
  const server = https.createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = 201;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new https.Agent({ ca: tls.cert });
  return {
    origin,
    agent,
    received,
    subscriber(name) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      return {
        ecdh,
        auth,
        json: {
          endpoint: `${origin}/push/${name}`,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
      };
    },
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** RFC 8291 §3.4 + RFC 8188 §2: decrypts an aes128gcm push body for `sub`; throws when it does not open. */
export function decryptPush(sub: Subscriber, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20] ?? 0;
  const asPublic = body.subarray(21, 21 + idlen);
  const records = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error(`keyid must be the sender's 65-byte P-256 key, got ${idlen} bytes`);
  if (records.length > rs) throw new Error('a push fits one record');
  const ecdhSecret = sub.ecdh.computeSecret(asPublic);
  const uaPublic = sub.ecdh.getPublicKey();
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, sub.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const plain = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 and then zero padding (RFC 8188 §2).
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('missing the last-record delimiter');
  return plain.subarray(0, end).toString('utf8');
}

/** RFC 8292: checks `Authorization: vapid t=<JWT>, k=<key>` was signed by `publicKey` for `audience`; returns the claims. */
export function verifyVapid(authorization: string, publicKey: string, audience: string): { aud: string; exp: number; sub: string } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!m?.[1] || !m[2]) throw new Error(`not a vapid authorization: ${authorization}`);
  if (m[2] !== publicKey) throw new Error('k= is not the hub key');
  const [h, p, s] = m[1].split('.');
  if (!h || !p || !s) throw new Error('malformed JWT');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string };
  if (header.alg !== 'ES256') throw new Error(`alg ${header.alg}`);
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (claims.aud !== audience) throw new Error(`aud ${claims.aud} is not ${audience}`);
  if (claims.exp * 1000 <= Date.now()) throw new Error('expired');
  return claims;
}
