/**
 * The first load as a real daemon serves it (src/http/web.ts over the built web/dist): the
 * precompressed sibling Accept-Encoding asks for, else the file as is, both with
 * `Vary: Accept-Encoding` and the cache/CSP headers they had. Raw node:http, so nothing on our
 * side decompresses or adds an Accept-Encoding of its own.
 */
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { firstLoadScripts } from '../web/first-load.js';

const DIST = path.resolve(import.meta.dirname, '../../web/dist');

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(url: string, headers: Record<string, string>): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

let hub: HubHarness;
let entry = '';
beforeAll(async () => {
  hub = await startHub();
  entry = firstLoadScripts(DIST).find((s) => s.startsWith('assets/index-')) ?? '';
});
afterAll(async () => {
  await hub?.close();
});

describe('compressed first load (real daemon)', () => {
  it('sends the entry script as brotli when asked, gzip when only that is accepted, identity otherwise', async () => {
    expect(entry).not.toBe('');
    const raw = fs.readFileSync(path.join(DIST, entry));
    const br = await get(`${hub.url}/${entry}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(raw.length / 2);
    expect(brotliDecompressSync(br.body).equals(raw)).toBe(true);

    const gz = await get(`${hub.url}/${entry}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(raw)).toBe(true);

    const plain = await get(`${hub.url}/${entry}`, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.equals(raw)).toBe(true);
  });

  it('compresses the shell too, keeping its CSP and no-cache', async () => {
    for (const url of ['/', '/s/some-session']) {
      const br = await get(`${hub.url}${url}`, { 'accept-encoding': 'br' });
      expect(br.status, url).toBe(200);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers['content-type'], url).toMatch(/text\/html/);
      expect(br.headers['cache-control'], url).toBe('no-cache');
      expect(br.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(br.headers.vary, url).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.body).toString('utf8'), url).toContain(`/${entry}`);
      const plain = await get(`${hub.url}${url}`, { 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.body.toString('utf8'), url).toContain('id="app"');
    }
  });
});
