import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { DpopKey } from '../helpers/dpop-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { decryptPush, startPushService, verifyVapid, type PushService, type Subscriber } from '../helpers/push-service.js';
import { until } from '../helpers/until.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { rawRequest, type RawResponse } from '../security/helpers/raw-http.js';

interface Payload {
  kind: string;
  sessionId: string;
  title: string;
  body: string;
  url: string;
  tag: string;
  requireInteraction: boolean;
  hub: { hubId: string; name: string };
}

/**
 * The hub's leg of "each machine's notifications reach the phone": the home app
 * (A's origin) registers a push subscription on machine B cross-origin with its DPoP-bound token,
 * B needs attention (a real permission request of the simulator), and B's push arrives at a local
 * push service, RFC 8291-encrypted to the subscription's keys and VAPID-signed with B's key. The
 * test decrypts it and checks it names the machine, the session, what is waiting, and the deep
 * link the home app opens. (The browser's leg is test/e2e/machines.test.ts; the leg between a
 * browser and a real push service cannot run here, see docs/SECURITY.md "Push".)
 */
describe('push from another machine', () => {
  let service: PushService;
  let a: HubHarness;
  let b: HubHarness;
  let home: string;
  let bPort: number;
  let hubB: string;
  let key: DpopKey;
  let token: string;
  let phone: Subscriber;
  let socket: AcpWsClient;
  beforeAll(async () => {
    service = await startPushService();
    [a, b] = await Promise.all([
      startHub({ config: { name: 'laptop' } }),
      // The local push service is on 127.0.0.1: the test-only config option lets B send there.
      startHub({ config: { name: 'desktop', testOnly: { pushPrivateEndpoints: true } }, pushAgent: service.agent }),
    ]);
    home = `http://localhost:${new URL(a.url).port}`;
    bPort = Number(new URL(b.url).port);
    hubB = ((await (await b.api('/api/me')).json()) as { hubId: string }).hubId;
    key = await DpopKey.generate();
    phone = service.subscriber('phone');
  });
  afterAll(async () => {
    await socket?.close().catch(() => undefined);
    await Promise.all([a?.close(), b?.close()]);
    await service?.close();
  });
  const bHost = () => `127.0.0.1:${bPort}`;
  const fromApp = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> =>
    rawRequest(bPort, {
      method,
      path: p,
      headers: {
        host: bHost(),
        origin: home,
        ...(await key.headers(method, `http://${bHost()}${p.split('?')[0]}`, token)),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('the home app registers a push subscription on B cross-origin with its DPoP-bound token', async () => {
    expect(
      (
        await b.api('/api/peers', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ origin: home }),
        })
      ).status,
    ).toBe(201);
    const codes = await b.api('/api/pair/codes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"scope":"operate"}',
    });
    const { code } = (await codes.json()) as { code: string };
    registerSecret(code);
    const pair = await rawRequest(bPort, {
      method: 'POST',
      path: '/api/pair',
      headers: { host: bHost(), origin: home, 'content-type': 'application/json', dpop: await key.proof('POST', `${b.url}/api/pair`) },
      body: JSON.stringify({ code, name: 'Pixel 9', delivery: 'token' }),
    });
    expect(pair.status).toBe(200);
    ({ token } = JSON.parse(pair.body) as { token: string });
    registerSecret(token);

    // The browser's preflight for the subscription POST (content-type json, DPoP, Authorization).
    const pre = await rawRequest(bPort, {
      method: 'OPTIONS',
      path: '/api/push/subscriptions',
      headers: {
        host: bHost(),
        origin: home,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, dpop',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(home);
    const vapid = await fromApp('GET', '/api/push/vapid-public-key');
    expect(vapid.status).toBe(200);
    expect(vapid.headers['access-control-allow-origin']).toBe(home);
    const sub = await fromApp('POST', '/api/push/subscriptions', phone.json);
    expect(sub.status).toBe(201);
    expect(sub.headers['access-control-allow-origin']).toBe(home);
    // The same token without its proof cannot subscribe anything.
    const bare = await rawRequest(bPort, {
      method: 'POST',
      path: '/api/push/subscriptions',
      headers: { host: bHost(), origin: home, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(service.subscriber('thief').json),
    });
    expect(bare.status).toBe(401);
    const stored = JSON.parse(fs.readFileSync(path.join(b.stateDir, 'push-subscriptions.json'), 'utf8')) as {
      subscriptions: Array<{ endpoint: string; device: string }>;
    };
    expect(stored.subscriptions.map((s) => [s.endpoint, s.device])).toEqual([[phone.json.endpoint, 'Pixel 9']]);
  });

  it('B needs attention: the phone gets an encrypted, VAPID-signed push naming B, the session, what waits and the deep link', async () => {
    const publicKey = (JSON.parse((await fromApp('GET', '/api/push/vapid-public-key')).body) as { publicKey: string }).publicKey;
    socket = await b.initializedClient({ name: 'laptop terminal' });
    const { sessionId } = await socket.request<{ sessionId: string }>('session/new', { cwd: b.workspace, mcpServers: [] });
    const turn = socket.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'permission please' }],
    });
    await socket.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    const push = await until(() => service.received.find((r) => r.path === '/push/phone'), 'the push at the phone endpoint');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers['urgency']).toBe('high');
    verifyVapid(String(push.headers['authorization']), publicKey, service.origin);
    const payload = JSON.parse(decryptPush(phone, push.body)) as Payload;

    const inbox = JSON.parse((await fromApp('GET', `/api/interactions?sessionId=${sessionId}`)).body) as {
      interactions: Array<{ interactionId: string; title: string }>;
    };
    const [pending] = inbox.interactions;
    expect(pending).toBeDefined();
    expect(payload).toMatchObject({
      kind: 'needs_you',
      sessionId,
      hub: { hubId: hubB, name: 'desktop' },
      body: `Allow ${pending?.title}?`,
      url: `/m/${hubB}/s/${encodeURIComponent(sessionId)}?answer=${encodeURIComponent(pending?.interactionId ?? '')}`,
      tag: `session:${sessionId}`,
      requireInteraction: true,
    });
    expect(payload.title).toMatch(/^Needs you · /);
    // A push the test cannot open is not ours: the wrong keys fail the AEAD check.
    expect(() => decryptPush(service.subscriber('other'), push.body)).toThrow();

    // Answered from the phone: the turn ends and "done" follows, linking the same session.
    const answered = await fromApp('POST', `/api/interactions/${pending?.interactionId}/answer`, { optionId: 'allow_once' });
    expect(answered.status).toBe(200);
    expect((await turn).stopReason).toBe('end_turn');
    const done = await until(() => service.received.filter((r) => r.path === '/push/phone')[1], 'the "done" push');
    expect(JSON.parse(decryptPush(phone, done.body))).toMatchObject({
      kind: 'turn_finished',
      sessionId,
      hub: { hubId: hubB, name: 'desktop' },
      url: `/m/${hubB}/s/${encodeURIComponent(sessionId)}`,
    });
  });
});
