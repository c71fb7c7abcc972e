import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { connectSdkOverHttp, type SdkHttpClient } from '../helpers/sdk-http-client.js';
import { selfSignedCert } from '../helpers/tls-cert.js';

/**
 * The official ACP SDK's Streamable HTTP client (`createHttpStream`) over HTTP/2, as the remote
 * transport RFD asks of it: the SDK takes any `fetch`, and undici's fetch speaks HTTP/2 — h2 by
 * ALPN over TLS and h2c with prior knowledge, both through an Agent with `allowH2` (undici's
 * single-connection `H2CClient` stalls every request sent while the event stream is open, against
 * any HTTP/2 server, so it cannot carry this transport). Node's global fetch alone sends HTTP/1.1:
 * a client gets HTTP/2 by handing the SDK such a fetch (docs/CLIENT-PROTOCOL.md "HTTP/2").
 * A prompt turn with a permission, end to end, on the real hub and simulator child.
 */

/** The SDK's HTTP stream with undici's fetch going through `dispatcher`. */
function connectSdk(hub: HubHarness, dispatcher: Dispatcher): SdkHttpClient {
  const h2fetch = ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1])) as unknown as typeof fetch;
  return connectSdkOverHttp(hub, h2fetch);
}

/** initialize, session/new, a prompt that asks a permission (answered by the SDK), the turn's end. */
async function promptTurn(hub: HubHarness, sdk: SdkHttpClient): Promise<void> {
  const init = await sdk.agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: {},
    clientInfo: { name: 'sdk-h2', version: '1.0.0' },
  });
  expect(init.protocolVersion).toBe(1);
  const { sessionId } = await sdk.agent.request('session/new', { cwd: hub.workspace, mcpServers: [] });
  const res = await sdk.agent.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'run the tests, permission needed' }],
  });
  expect(res.stopReason).toBe('end_turn');
  expect(sdk.permissions).toHaveLength(1);
  const mine = sdk.updates.filter((u) => u.sessionId === sessionId);
  expect(mine.some((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed')).toBe(true);
  expect(mine.some((u) => u.update.sessionUpdate === 'agent_message_chunk')).toBe(true);
}

describe('the ACP SDK over h2 (TLS, ALPN)', () => {
  let hub: HubHarness;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-sdk-h2-'));
    const { certPath: cert, keyPath: key } = selfSignedCert(dir);
    hub = await startHub({ config: { tlsCert: cert, tlsKey: key } });
  });
  afterAll(async () => {
    await hub?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('drives a prompt turn through createHttpStream, every connection negotiated h2', async () => {
    const ca = fs.readFileSync(path.join(dir, 'cert.pem'));
    const connect = buildConnector({ ca, allowH2: true });
    const protocols: Array<string | false | null> = [];
    const agent = new Agent({
      allowH2: true,
      // Undici's own connector, watched: each TLS socket says which protocol ALPN chose.
      connect: (opts, callback) =>
        connect(opts, (err, socket) => {
          if (socket) protocols.push((socket as TLSSocket).alpnProtocol);
          callback(err as Error, socket as never);
        }),
    });
    const sdk = connectSdk(hub, agent);
    try {
      await promptTurn(hub, sdk);
      expect(protocols.length).toBeGreaterThan(0);
      expect(new Set(protocols)).toEqual(new Set(['h2']));
    } finally {
      sdk.close();
      await agent.close();
    }
  });
});

describe('the ACP SDK over h2c (prior knowledge)', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('drives a prompt turn through createHttpStream over HTTP/2 cleartext', async () => {
    expect(hub.url.startsWith('http://')).toBe(true);
    // `useH2c`: undici opens each connection with the HTTP/2 preface, never HTTP/1.1; the hub
    // answers a preface on plain http:// only as h2c, so every answer below came over HTTP/2.
    const h2c = new Agent({ allowH2: true, connect: { useH2c: true } as Parameters<typeof buildConnector>[0] });
    const sdk = connectSdk(hub, h2c);
    try {
      await promptTurn(hub, sdk);
    } finally {
      sdk.close();
      await h2c.close();
    }
  });
});
