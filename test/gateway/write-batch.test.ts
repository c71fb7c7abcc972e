import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { Identity } from '../../src/auth/identity.js';
import { Frame } from '../../src/domain/delivery/frame.js';
import { ClientConnection } from '../../src/gateway/client-connection.js';
import { MAX_BATCH_BYTES, WriteBatcher, type Corkable } from '../../src/gateway/write-batch.js';
import { createLogger } from '../../src/logger.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Write batching (src/gateway/write-batch.ts): one turn's frames leave in one write per client,
 * and the outbound budget (4008, ARCHITECTURE.md §4.3) still judges what the kernel refused.
 */

const endOfTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('write batching on a real socket', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('holds one turn of frames on the socket ws writes to, then delivers them all in order', async () => {
    const client = await hub.initializedClient();
    const [conn] = [...hub.daemon.app.gateway.connections()];
    if (!conn) throw new Error('no server-side connection');
    const ws = (conn as unknown as { socket: WebSocket }).socket;
    const N = 200;
    for (let i = 0; i < N; i++) conn.notify('_test/burst', { i });
    // Uncorked, loopback takes these few KiB at once; corked, ws's buffer still holds every one.
    const oneFrame = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', method: '_test/burst', params: { i: 100 } }));
    expect(ws.bufferedAmount).toBeGreaterThanOrEqual(N * oneFrame - N * 2);
    await endOfTurn();
    expect(ws.bufferedAmount).toBe(0);
    await client.waitForCount('_test/burst', N);
    expect(client.notifications<{ i: number }>('_test/burst').map((p) => p.i)).toEqual([...Array(N).keys()]);
  });
});

/**
 * A socket whose kernel side takes at most `room` bytes: corked writes wait, an uncork offers
 * them to the kernel, and what it refuses stays in `bufferedAmount` (as ws reports it).
 */
class ScriptedSocket extends EventEmitter implements Corkable {
  readonly CLOSED = 3;
  readonly OPEN = 1;
  readyState = 1;
  room = Number.POSITIVE_INFINITY;
  bufferedAmount = 0;
  sent: Buffer[] = [];
  writes = 0;
  closedWith: number | undefined;
  private corkDepth = 0;

  cork(): void {
    this.corkDepth += 1;
  }
  uncork(): void {
    if (this.corkDepth === 0) return;
    this.corkDepth -= 1;
    if (this.corkDepth === 0) this.offer();
  }
  send(data: Buffer, opts: { binary: boolean }): void {
    expect(opts.binary).toBe(false);
    this.sent.push(data);
    this.bufferedAmount += data.length;
    if (this.corkDepth === 0) this.offer();
  }
  /** The TCP side: a corked broadcast frame arrives here whole (header + payload). */
  write(chunk: Buffer): boolean {
    this.send(chunk, { binary: false });
    return true;
  }
  close(code: number): void {
    this.closedWith = code;
    this.readyState = 2;
  }
  terminate(): void {
    this.readyState = this.CLOSED;
  }
  ping(): void {}
  private offer(): void {
    if (this.bufferedAmount === 0) return;
    this.writes += 1;
    const taken = Math.min(this.room, this.bufferedAmount);
    this.room -= taken;
    this.bufferedAmount -= taken;
  }
}

const identity: Identity = { tokenId: 't', name: 'phone', person: 'phone', scope: 'operate' };
const BUDGET = 256 * 1024;

function connection(batcher: WriteBatcher): { conn: ClientConnection; sock: ScriptedSocket } {
  const sock = new ScriptedSocket();
  const limits = { clientOutboundBudgetBytes: BUDGET, protocolViolationsBeforeClose: 5, wsCloseGraceMs: 1_000, withdrawnRequestsKept: 4 };
  const conn = new ClientConnection(sock as unknown as WebSocket, identity, 'acp', limits, createLogger({ level: 'silent' }), {
    tcp: sock,
    batcher,
  });
  return { conn, sock };
}

const frameOf = (bytes: number): Frame => new Frame(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(bytes) } }));

describe('write batching and the outbound budget', () => {
  it('flushes every connection of a turn once, at the end of the turn', async () => {
    const batcher = new WriteBatcher();
    const clients = Array.from({ length: 5 }, () => connection(batcher));
    for (let i = 0; i < 50; i++) for (const { conn } of clients) conn.sendFrame(frameOf(100));
    for (const { sock } of clients) expect(sock.writes).toBe(0);
    await endOfTurn();
    for (const { sock } of clients) {
      expect(sock.writes).toBe(1);
      expect(sock.sent).toHaveLength(50);
      expect(sock.bufferedAmount).toBe(0);
    }
  });

  it('offers a large burst to the kernel every MAX_BATCH_BYTES, so a client that keeps up is never closed for it', async () => {
    const { conn, sock } = connection(new WriteBatcher());
    const frame = frameOf(4 * 1024);
    const count = Math.ceil((2 * BUDGET) / frame.bytes.length);
    for (let i = 0; i < count; i++) conn.sendFrame(frame);
    expect(conn.open).toBe(true);
    // Each early write holds at most MAX_BATCH_BYTES plus the frame that crossed it.
    expect(sock.writes).toBeGreaterThanOrEqual(Math.floor((count * frame.bytes.length) / (MAX_BATCH_BYTES + frame.bytes.length)));
    await endOfTurn();
    expect(sock.sent).toHaveLength(count);
  });

  it('a frame larger than the budget still goes to a client that keeps up, after small frames of the same turn', async () => {
    const { conn, sock } = connection(new WriteBatcher());
    conn.sendFrame(frameOf(100));
    conn.sendFrame(frameOf(BUDGET + 1));
    conn.sendFrame(frameOf(100));
    expect(conn.open).toBe(true);
    await endOfTurn();
    expect(sock.sent).toHaveLength(3);
  });

  it('[FAN-02] a client whose kernel takes nothing is closed 4008 once its backlog plus a frame crosses the budget', async () => {
    const { conn, sock } = connection(new WriteBatcher());
    sock.room = 0;
    const frame = frameOf(8 * 1024);
    let sent = 0;
    while (conn.open && sent < 1_000) {
      conn.sendFrame(frame);
      sent += 1;
      if (sent % 4 === 0) await endOfTurn();
    }
    expect(sock.closedWith).toBe(4008);
    // It was closed at the first frame that would have crossed the budget, not later.
    expect(sock.bufferedAmount).toBeLessThanOrEqual(BUDGET);
    expect(sock.bufferedAmount + frame.bytes.length).toBeGreaterThan(BUDGET);
  });
});
