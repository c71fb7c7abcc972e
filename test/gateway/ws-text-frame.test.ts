import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { Frame } from '../../src/domain/delivery/frame.js';
import { wsTextFrame, wsTextFrames } from '../../src/gateway/ws-text-frame.js';

let server: WebSocketServer | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** Payload sizes at every length-encoding edge of RFC 6455 §5.2 (7, 16 and 64 bits). */
const SIZES = [0, 1, 125, 126, 127, 65_535, 65_536, 200_000];

describe('a broadcast frame built once (ws-text-frame.ts)', () => {
  it.each(['frame by frame', 'in one buffer'] as const)(
    'a real ws client reads every size, multi-byte text included, written raw to the TCP socket %s',
    async (how) => {
      const texts = SIZES.map((n, i) => (i % 2 === 0 ? 'a'.repeat(n) : `${'é'.repeat(Math.floor(n / 2))}${n % 2 ? 'x' : ''}`));
      const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
      server = wss;
      await new Promise<void>((r) => wss.once('listening', () => r()));
      wss.on('connection', (_ws, req) => {
        if (how === 'in one buffer') req.socket.write(wsTextFrames(texts.map((t) => new Frame(t))));
        else for (const text of texts) req.socket.write(wsTextFrame(new Frame(text)));
      });
      const { port } = wss.address() as AddressInfo;
      const client = new WebSocket(`ws://127.0.0.1:${port}`);
      const got: string[] = [];
      await new Promise<void>((resolve, reject) => {
        client.on('message', (data, isBinary) => {
          expect(isBinary).toBe(false);
          got.push(data.toString());
          if (got.length === texts.length) resolve();
        });
        client.on('error', reject);
        client.on('close', (code) => reject(new Error(`closed ${code}`)));
      });
      client.close();
      expect(got).toEqual(texts);
    },
  );

  it('is built once per frame and has exactly ws’s header for it', () => {
    const frame = new Frame('{"jsonrpc":"2.0","method":"session/update"}');
    const wire = wsTextFrame(frame);
    expect(wsTextFrame(frame)).toBe(wire);
    expect([...wire.subarray(0, 2)]).toEqual([0x81, frame.bytes.length]);
    expect(wire.subarray(2).equals(frame.bytes)).toBe(true);
  });

  it('writes a 16- and a 64-bit length header exactly, the text intact behind it', () => {
    for (const [size, header] of [
      [200, 4],
      [70_000, 10],
    ] as const) {
      const text = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: 'é'.repeat(size / 2) });
      const frame = new Frame(text);
      const wire = wsTextFrame(frame);
      expect(wire.length).toBe(header + frame.bytes.length);
      expect(wire.subarray(header).toString('utf8')).toBe(text);
      const len = header === 4 ? wire.readUInt16BE(2) : wire.readUInt32BE(2) * 0x1_0000_0000 + wire.readUInt32BE(6);
      expect([wire[0], wire[1], len]).toEqual([0x81, header === 4 ? 126 : 127, frame.bytes.length]);
    }
  });
});
