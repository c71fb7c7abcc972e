import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogFiles, logLeaks, registerSecret, registeredSecrets } from './helpers/log-capture.js';
import { startProductionDaemon, type ProductionDaemon } from './helpers/production-daemon.js';
import { rawRequest } from './helpers/raw-http.js';
import { createToken, startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';

/**
 * SEC-05: drives every way a secret enters the hub (bearer, cookie, `?token=`, pairing codes,
 * provider API keys, bad credentials, schema failures) with debug logging on, then greps the
 * captured logs. The global teardown (test/security/log-check.global.ts) repeats the grep over
 * every log of the run once all suites are done.
 */
describe('[SEC-05] no secret and no query string in any log line', () => {
  let hub: SecuredHub;
  let prod: ProductionDaemon;
  beforeAll(async () => {
    hub = await startSecuredHub({ allowOrigins: ['https://remote.example.test'] });
    prod = await startProductionDaemon();
  });
  afterAll(async () => {
    await hub.close();
    await prod.close();
  });

  it('[SEC-05] secrets sent every possible way never reach the log', async () => {
    const host = `127.0.0.1:${hub.port}`;
    const device = await createToken(hub, 'operate', 'log-phone');
    // Query-string credential (compat) on HTTP and on the upgrade, good and bad.
    await rawRequest(hub.port, { path: `/api/me?token=${device.token}`, headers: { host } });
    await rawRequest(hub.port, { path: `${hub.wsPath}?token=${device.token}&instance=x`, headers: { host }, upgrade: true });
    const badQuery = 'not-a-valid-token-SECRET-Q1';
    registerSecret(badQuery);
    await rawRequest(hub.port, { path: `/api/tokens?token=${badQuery}`, headers: { host } });
    // Bearer and cookie, good and bad; a foreign Origin with a credential (403 path).
    await rawRequest(hub.port, { path: '/api/me', headers: { host, authorization: `Bearer ${device.token}` } });
    const badBearer = 'zch_admin_WRONG-SECRET-B1-aaaaaaaaaaaaaaaaaa';
    registerSecret(badBearer);
    await rawRequest(hub.port, { path: '/api/me', headers: { host, authorization: `Bearer ${badBearer}` } });
    await rawRequest(hub.port, {
      path: '/api/me',
      headers: { host, cookie: `zcode_hub_token=${device.token}`, 'sec-fetch-site': 'same-origin' },
    });
    await rawRequest(hub.port, {
      path: '/api/me',
      headers: { host, origin: 'https://evil.example.com', authorization: `Bearer ${device.token}` },
    });
    // Pairing: code creation, a good and a wrong redemption, a cookie delivery, a schema failure.
    const codeRes = await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/pair/codes',
      headers: { host, authorization: `Bearer ${hub.adminToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const code = (JSON.parse(codeRes.body) as { code: string }).code;
    registerSecret(code);
    registerSecret(code.replace('-', ''));
    const wrongCode = 'ZZZZZ-ZZZZZ';
    registerSecret(wrongCode);
    await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/pair',
      headers: { host, 'content-type': 'application/json' },
      body: JSON.stringify({ code: wrongCode }),
    });
    const paired = await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/pair',
      headers: { host, 'content-type': 'application/json' },
      body: JSON.stringify({ code, delivery: 'cookie' }),
    });
    registerSecret(String(paired.headers['set-cookie']).split(';')[0]?.split('=')[1] ?? '');
    await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/pair',
      headers: { host, 'content-type': 'application/json' },
      body: JSON.stringify({ code, extra: code }),
    });
    // Provider API keys through the settings routes of the production app (valid and invalid bodies).
    const apiKey = 'sk-live-LOGTEST-0123456789abcdef';
    registerSecret(apiKey);
    const admin = { host: 'localhost', authorization: `Bearer ${prod.daemon.adminToken}` };
    await prod.daemon.app.inject({
      method: 'POST',
      url: '/api/settings/providers',
      headers: admin,
      payload: { providerId: 'logtest', apiType: 'openai-chat-completions', baseUrl: 'http://127.0.0.1:9/v1', apiKey },
    });
    await prod.daemon.app.inject({
      method: 'POST',
      url: '/api/settings/providers',
      headers: admin,
      payload: { providerId: 'logtest2', apiType: 'nope', baseUrl: 'not a url', apiKey },
    });
    await prod.daemon.app.inject({ method: 'GET', url: `/api/settings/providers?token=${apiKey}`, headers: admin });

    const files = [hub.logFile, ...capturedLogFiles()];
    expect(fs.readFileSync(hub.logFile, 'utf8').length).toBeGreaterThan(0);
    expect(logLeaks([...new Set(files)], registeredSecrets())).toEqual([]);
  });

  it('[SEC-05] the checker itself finds a planted secret and a planted query string', () => {
    const planted = `${hub.logFile}.planted.txt`;
    fs.writeFileSync(planted, '{"msg":"x","authorization":"Bearer PLANTED-SECRET-1"}\n{"req":{"url":"/acp?token=abc"}}\n');
    try {
      expect(logLeaks([planted], ['PLANTED-SECRET-1'])).toHaveLength(2);
    } finally {
      fs.rmSync(planted);
    }
  });

  it('[SEC-05] request logs keep the path but drop the query string', () => {
    const text = fs.readFileSync(hub.logFile, 'utf8');
    expect(text).toContain('"url":"/api/me"');
    expect(text).not.toMatch(/"url":"[^"]*\?/);
    expect(text).not.toContain('token=');
  });
});
