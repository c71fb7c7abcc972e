/**
 * The round-trip proxy B-PHONE puts between Chromium and the daemon (bench/lib/latency-proxy.ts):
 * a real echo server on port 0 behind it. Only lower bounds are asserted — a busy machine makes
 * things slower, never faster — so a proxy that forgot a delay or the pacing fails, and load
 * cannot.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startLatencyProxy, type LatencyProxy, type LinkProfile } from '../../bench/lib/latency-proxy.js';
import { until } from '../helpers/until.js';

const PROFILE: LinkProfile = { rttMs: 200, downBytesPerSec: 2_000_000, upBytesPerSec: 1_000_000 };

let echo: net.Server | undefined;
let proxy: LatencyProxy | undefined;

afterEach(async () => {
  await proxy?.close();
  await new Promise<void>((resolve) => (echo ? echo.close(() => resolve()) : resolve()));
  proxy = undefined;
  echo = undefined;
});

/** An echo server and the proxy in front of it. */
async function echoBehindProxy(profile: LinkProfile): Promise<LatencyProxy> {
  const server = net.createServer((s) => s.pipe(s));
  echo = server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  proxy = await startLatencyProxy({ host: '127.0.0.1', port: address.port }, profile);
  return proxy;
}

/** Connects to `port` and resolves once the connection is up. */
function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Writes `data` and resolves with the ms until as many bytes came back. */
function echoed(s: net.Socket, data: Buffer): Promise<number> {
  return new Promise((resolve) => {
    let got = 0;
    const started = performance.now();
    const onData = (chunk: Buffer) => {
      got += chunk.length;
      if (got < data.length) return;
      s.off('data', onData);
      resolve(performance.now() - started);
    };
    s.on('data', onData);
    s.write(data);
  });
}

describe('the round-trip proxy', () => {
  it('a new connection pays the handshake and a round trip; on a warm one an echo pays the round trip', async () => {
    const p = await echoBehindProxy(PROFILE);
    // The handshake the loopback connect did not pay is counted from the proxy's accept, which comes
    // before the client's connect callback and its write: the bound holds from the connect call.
    const dialled = performance.now();
    const s = await connect(p.port);
    try {
      // The first bytes wait for that handshake's round trip, then cross the link and back: two round trips.
      await echoed(s, Buffer.from('ping'));
      expect(performance.now() - dialled).toBeGreaterThanOrEqual(2 * PROFILE.rttMs);
      expect(await echoed(s, Buffer.from('pong'))).toBeGreaterThanOrEqual(PROFILE.rttMs);
    } finally {
      s.destroy();
    }
  });

  it('1 MB takes at least its size over the slower direction, and arrives whole and in order', async () => {
    const p = await echoBehindProxy(PROFILE);
    const s = await connect(p.port);
    const data = Buffer.alloc(1_000_000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff;
    const back: Buffer[] = [];
    s.on('data', (c: Buffer) => back.push(c));
    try {
      await echoed(s, Buffer.from('warm'));
      back.length = 0;
      const ms = await echoed(s, data);
      const slowest = Math.min(PROFILE.upBytesPerSec, PROFILE.downBytesPerSec);
      expect(ms).toBeGreaterThanOrEqual((data.length / slowest) * 1000 + PROFILE.rttMs);
      expect(Buffer.concat(back).equals(data)).toBe(true);
    } finally {
      s.destroy();
    }
  }, 30_000);

  it('connections take turns on the link: a small answer is not stuck behind a large transfer', async () => {
    const p = await echoBehindProxy(PROFILE);
    const [big, small] = await Promise.all([connect(p.port), connect(p.port)]);
    try {
      await Promise.all([echoed(big, Buffer.from('warm')), echoed(small, Buffer.from('warm'))]);
      const order: string[] = [];
      const large = echoed(big, Buffer.alloc(400_000, 1)).then(() => order.push('large'));
      const ping = echoed(small, Buffer.from('ping')).then(() => order.push('ping'));
      await Promise.all([large, ping]);
      expect(order).toEqual(['ping', 'large']);
    } finally {
      big.destroy();
      small.destroy();
    }
  }, 30_000);

  it('is idle only once what was sent has arrived', async () => {
    const p = await echoBehindProxy(PROFILE);
    const s = await connect(p.port);
    try {
      await echoed(s, Buffer.from('warm'));
      await p.whenIdle(5_000);
      let back = 0;
      s.on('data', (c: Buffer) => {
        back += c.length;
      });
      const size = 400_000;
      const sent = performance.now();
      s.write(Buffer.alloc(size, 2));
      await until(() => back > 0, 'the first bytes back');
      await p.whenIdle(30_000);
      // A lower bound, as everywhere here: the last byte is not back before it went up the link at
      // its rate and crossed it twice. (Its arrival in the client's socket is read in a later turn
      // of the event loop, so `back` is waited for, not read at once.)
      expect(performance.now() - sent).toBeGreaterThanOrEqual((size * 1000) / PROFILE.upBytesPerSec + PROFILE.rttMs);
      await until(() => back === size, 'every byte back');
    } finally {
      s.destroy();
    }
  }, 40_000);

  it('an end from either side reaches the other after the data before it', async () => {
    const p = await echoBehindProxy(PROFILE);
    const s = await connect(p.port);
    const back: Buffer[] = [];
    s.on('data', (c: Buffer) => back.push(c));
    const ended = new Promise<void>((resolve) => s.once('end', resolve));
    s.end(Buffer.from('last words'));
    await ended;
    expect(Buffer.concat(back).toString()).toBe('last words');
  });
});
