/**
 * The web app over HTTPS on a hub started with `--tls-cert`: real Chromium negotiates HTTP/2 by
 * ALPN for the page, its assets and its API calls, and still opens its WebSocket to `/acp` over
 * HTTP/1.1 on the same port (the hub takes no WebSocket over HTTP/2). Pair, create a session,
 * prompt, stream the answer: the whole phone flow, with the protocols checked as the browser
 * saw them (CDP Network events, not Playwright's view).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selfSignedCert } from '../helpers/tls-cert.js';
import { phoneHub } from './support/fixture.js';
import { newSession, sendPrompt, waitIdle } from './support/flow.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-e2e-h2-'));
const cert = path.join(dir, 'cert.pem');
const key = path.join(dir, 'key.pem');

const { hub, phone } = phoneHub({
  hub: () => {
    selfSignedCert(dir);
    return { config: { tlsCert: cert, tlsKey: key }, simArgs: ['--turn-delay-scale', '0.2'] };
  },
  phone: { ignoreHttpsErrors: true },
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the web app over HTTPS', () => {
  it('loads and calls the API over h2, streams a turn over its HTTP/1.1 WebSocket on the same port', async () => {
    const { page } = phone;
    const cdp = await phone.context.newCDPSession(page);
    await cdp.send('Network.enable');
    const protocols = new Map<string, string>();
    let wsOpened = '';
    cdp.on('Network.responseReceived', (e: { response: { url: string; protocol?: string } }) => {
      if (e.response.url.startsWith(hub.url)) protocols.set(new URL(e.response.url).pathname, e.response.protocol ?? '');
    });
    cdp.on('Network.webSocketHandshakeResponseReceived', (e: { response: { status: number } }) => {
      if (e.response.status === 101) wsOpened = 'open';
    });
    expect(hub.url.startsWith('https://')).toBe(true);
    // The code from the hub's own pairing service (node's fetch would refuse the self-signed certificate).
    const { code } = hub.auth.pairing.create('admin');
    await page.goto(hub.url);
    await page.getByLabel('Pairing code').fill(code);
    await page.getByLabel('Device name').fill('TLS phone');
    await page.getByRole('button', { name: 'Pair' }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await newSession(page);
    await sendPrompt(page, 'Explain this project in a few words');
    await page.getByTestId('agent-message').first().waitFor();
    await waitIdle(page);
    expect(protocols.get('/')).toBe('h2');
    expect([...protocols].some(([p, proto]) => p.startsWith('/assets/') && proto === 'h2')).toBe(true);
    expect([...protocols].some(([p, proto]) => p.startsWith('/api/') && proto === 'h2')).toBe(true);
    expect(wsOpened).toBe('open');
    expect(phone.errors).toEqual([]);
  });
});
