import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { selfSignedCert } from '../helpers/tls-cert.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * An upgrade the hub does not take is ignored (RFC 9110 §7.8): `curl --http2` on a plain address
 * sends `Upgrade: h2c` + `HTTP2-Settings` on every request, and gets its answer over HTTP/1.1 —
 * a GET, and a POST whose body follows the head. The WebSocket upgrade on the same port still
 * works, over plain TCP and over TLS, and a socket handed back to the parser is counted once by
 * the unauthenticated connection caps.
 */

const run = promisify(execFile);

interface CurlAnswer {
  status: number;
  body: string;
}

/** Runs curl; `-w` appends the status on its own last line. */
async function curl(args: string[]): Promise<CurlAnswer> {
  const { stdout } = await run('curl', ['-sS', '--max-time', '20', '-w', '\n%{http_code}', ...args]);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'curl', version: '1' } },
});

/** The `Upgrade: h2c` headers curl sends with `--http2` on http://, spelled out for https://. */
const h2cHeaders = ['-H', 'Connection: Upgrade, HTTP2-Settings', '-H', 'Upgrade: h2c', '-H', 'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA'];

/** Opens a WebSocket to `/acp`, sends initialize and resolves with its answer. */
function wsInitialize(url: string, token: string, tls = false): Promise<{ result?: { protocolVersion?: number } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, ...(tls ? { rejectUnauthorized: false } : {}) });
    ws.once('error', reject);
    ws.once('open', () => ws.send(initialize));
    ws.once('message', (data) => {
      resolve(JSON.parse(String(data)) as { result?: { protocolVersion?: number } });
      ws.close();
    });
  });
}

describe('h2c upgrade over plain HTTP', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    // A small unauthenticated pool: a socket counted twice would soon evict every newcomer.
    hub = await startHub({ limits: { unauthConnectionsTotal: 3, unauthConnectionsPerAddress: 3 } });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('answers `curl --http2` GET /api/health over HTTP/1.1', async () => {
    const res = await curl(['--http2', `${hub.url}/api/health`]);
    expect(res.status).toBe(200);
    expect(res.body).toBe('ok');
  });

  it('answers `curl --http2` POST /acp initialize with its JSON-RPC result', async () => {
    const res = await curl([
      '--http2',
      '-X',
      'POST',
      '-H',
      `authorization: Bearer ${hub.adminToken}`,
      '-H',
      'content-type: application/json',
      '--data-binary',
      initialize,
      `${hub.url}/acp`,
    ]);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { id: number; result: { protocolVersion: number } };
    expect(body.id).toBe(1);
    expect(body.result.protocolVersion).toBe(1);
  });

  it('counts a handed-back socket once in the unauthenticated pool', async () => {
    // Each curl is a new connection that closes after its answer; counted twice, the pool
    // would stay full after three of them and the next connection would be evicted at once.
    for (let i = 0; i < 6; i += 1) {
      const res = await curl(['--http2', `${hub.url}/api/health`]);
      expect(res.status).toBe(200);
    }
    const plain = await fetch(`${hub.url}/api/health`);
    expect(plain.status).toBe(200);
  });

  it('still upgrades a WebSocket on the same port', async () => {
    await curl(['--http2', `${hub.url}/api/health`]);
    const answer = await wsInitialize(hub.wsUrl, hub.adminToken);
    expect(answer.result?.protocolVersion).toBe(1);
  });
});

describe('a foreign upgrade over TLS', () => {
  let hub: HubHarness;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-tls-'));
    const { certPath: cert, keyPath: key } = selfSignedCert(dir);
    hub = await startHub({ config: { tlsCert: cert, tlsKey: key } });
  });
  afterAll(async () => {
    await hub?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers GET and POST over HTTP/1.1 when the request asks for h2c', async () => {
    expect(hub.url.startsWith('https://')).toBe(true);
    const health = await curl(['-k', '--http1.1', ...h2cHeaders, `${hub.url}/api/health`]);
    expect(health.status).toBe(200);
    const init = await curl([
      '-k',
      '--http1.1',
      ...h2cHeaders,
      '-X',
      'POST',
      '-H',
      `authorization: Bearer ${hub.adminToken}`,
      '-H',
      'content-type: application/json',
      '--data-binary',
      initialize,
      `${hub.url}/acp`,
    ]);
    expect(init.status).toBe(200);
    expect((JSON.parse(init.body) as { result: { protocolVersion: number } }).result.protocolVersion).toBe(1);
  });

  it('still upgrades a WebSocket', async () => {
    const answer = await wsInitialize(hub.wsUrl, hub.adminToken, true);
    expect(answer.result?.protocolVersion).toBe(1);
  });
});
