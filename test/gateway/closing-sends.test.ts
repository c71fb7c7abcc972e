import http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * After ws has sent its close frame, the hub writes nothing more to that client (RFC 6455 §5.5.1),
 * though the connection lives on until the socket closes. The gateway writes a turn's frames to the
 * TCP socket itself, past ws (src/gateway/write-batch.ts), so ws's own refusal to send after a close
 * does not cover them: `flushBatch` (client-connection.ts) must. These drive the hub's real ws
 * server from a raw socket and read every byte it sends.
 */

const CLOSE = 0x8;

/** One server frame (unmasked, RFC 6455 §5.2). */
interface ServerFrame {
  opcode: number;
  payload: Buffer;
}

/** A WebSocket client on a bare TCP socket: what it writes is exactly what the test builds. */
class RawWs {
  private received = Buffer.alloc(0);
  private readonly waiters: Array<() => void> = [];

  constructor(readonly socket: Socket) {
    // Keeps its own side open after the server's FIN, as a slow or stuck peer would.
    socket.allowHalfOpen = true;
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static open(port: number, token: string): Promise<RawWs> {
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        path: '/acp',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('upgrade', (_res, socket, head) => {
        const ws = new RawWs(socket);
        if (head.length > 0) socket.emit('data', head);
        resolve(ws);
      });
      req.on('response', (res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
  }

  /** Every frame the server sent so far. */
  frames(): ServerFrame[] {
    const out: ServerFrame[] = [];
    const all = this.received;
    for (let at = 0; at + 2 <= all.length; ) {
      const b1 = all[at + 1] ?? 0;
      const [header, len] = b1 < 126 ? [2, b1] : b1 === 126 ? [4, all.readUInt16BE(at + 2)] : [10, Number(all.readBigUInt64BE(at + 2))];
      if (at + header + len > all.length) break;
      out.push({ opcode: (all[at] ?? 0) & 0x0f, payload: all.subarray(at + header, at + header + len) });
      at += header + len;
    }
    return out;
  }

  /** Resolves once the server's close frame has arrived. */
  async closeFrame(): Promise<ServerFrame> {
    for (;;) {
      const close = this.frames().find((f) => f.opcode === CLOSE);
      if (close) return close;
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** A client frame: masked (with a zero mask, so the payload reads as written) unless `unmasked`. */
  send(opcode: number, payload: Buffer, unmasked = false): void {
    const head = Buffer.from([0x80 | opcode, (unmasked ? 0 : 0x80) | payload.length]);
    this.socket.write(unmasked ? Buffer.concat([head, payload]) : Buffer.concat([head, Buffer.alloc(4), payload]));
  }
}

const code = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};

describe('nothing follows the close frame ws sent', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  /** Opens a raw client and returns it with its server-side connection. */
  async function client() {
    const before = new Set([...hub.daemon.app.gateway.connections()].map((c) => c.clientId));
    const ws = await RawWs.open(Number(new URL(hub.url).port), hub.adminToken);
    for (let i = 0; i < 100; i++) {
      const conn = [...hub.daemon.app.gateway.connections()].find((c) => !before.has(c.clientId));
      if (conn) return { ws, conn };
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no server-side connection');
  }

  /** Sends to the connection over a few turns, then returns the frames after the server's close frame. */
  async function sentAfterClose(ws: RawWs, conn: { notify(method: string, params: unknown): void }) {
    await ws.closeFrame();
    for (let i = 0; i < 3; i++) {
      conn.notify('_test/after_close', { i });
      await new Promise((r) => setTimeout(r, 20));
    }
    const frames = ws.frames();
    return frames.slice(frames.findIndex((f) => f.opcode === CLOSE) + 1);
  }

  it('a client that closes: the hub answers with its close frame and writes nothing after it', async () => {
    const { ws, conn } = await client();
    conn.notify('_test/before_close', {});
    ws.send(CLOSE, code(1000));
    const close = await ws.closeFrame();
    expect(close.payload.readUInt16BE(0)).toBe(1000);
    expect(ws.frames().filter((f) => f.opcode === 0x1)).toHaveLength(1);
    // The connection lives on until the socket closes (the client keeps its side open): sends to it
    // reach the gateway, and the gateway writes none of them.
    expect(conn.open).toBe(true);
    expect(await sentAfterClose(ws, conn)).toEqual([]);
    expect(conn.open).toBe(true);
    ws.socket.destroy();
  });

  it('a client that breaks the protocol (an unmasked frame): closed 1002, nothing after the close frame', async () => {
    // ws says 'error' as it closes here, and the connection ends moments later: whichever comes first
    // stops the sends.
    const { ws, conn } = await client();
    ws.send(0x1, Buffer.from('{}'), true);
    const close = await ws.closeFrame();
    expect(close.payload.readUInt16BE(0)).toBe(1002);
    expect(await sentAfterClose(ws, conn)).toEqual([]);
    ws.socket.destroy();
  });
});
