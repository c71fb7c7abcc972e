import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { Identity } from '../../src/auth/identity.js';
import { Frame } from '../../src/domain/delivery/frame.js';
import { ClientConnection } from '../../src/gateway/client-connection.js';
import { MAX_BATCH_BYTES, WriteBatcher, type RawSocket } from '../../src/gateway/write-batch.js';
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

  it('holds one turn of frames, then writes them to the TCP socket at once, all delivered in order', async () => {
    const client = await hub.initializedClient();
    const [conn] = [...hub.daemon.app.gateway.connections()];
    if (!conn) throw new Error('no server-side connection');
    const tcp = (conn as unknown as { tcp: Socket }).tcp;
    const before = tcp.bytesWritten;
    const N = 200;
    for (let i = 0; i < N; i++) conn.notify('_test/burst', { i });
    // Nothing reaches the socket during the turn; at its end, every frame at once.
    expect(tcp.bytesWritten).toBe(before);
    await endOfTurn();
    const oneFrame = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', method: '_test/burst', params: { i: 100 } }));
    expect(tcp.bytesWritten - before).toBeGreaterThanOrEqual(N * oneFrame - N * 2);
    await client.waitForCount('_test/burst', N);
    expect(client.notifications<{ i: number }>('_test/burst').map((p) => p.i)).toEqual([...Array(N).keys()]);
  });
});

/**
 * A socket whose kernel side takes at most `room` bytes: each write is offered to the kernel at
 * once, and what it refuses stays in `bufferedAmount` (as ws reports it). `log` records, in order,
 * the frames the TCP side was written and ws's close frame.
 */
class ScriptedSocket extends EventEmitter implements RawSocket {
  readonly CLOSED = 3;
  readonly OPEN = 1;
  readyState = 1;
  room = Number.POSITIVE_INFINITY;
  bufferedAmount = 0;
  /** The TCP side's queue: the same bytes (ws's sender queues nothing without compression). */
  get writableLength(): number {
    return this.bufferedAmount;
  }
  /** Every chunk written, as written. */
  sent: Buffer[] = [];
  writes = 0;
  closedWith: number | undefined;
  readonly log: string[] = [];

  /** ws's own path (an unbatched frame). */
  send(data: Buffer, opts: { binary: boolean }): void {
    expect(opts.binary).toBe(false);
    this.log.push(data.toString('utf8'));
    this.offer(data);
  }
  /** The TCP side: a turn's batch arrives here whole (WebSocket frames back to back). */
  write(chunk: Buffer): boolean {
    this.sent.push(chunk);
    this.log.push(...payloads([chunk]));
    this.offer(chunk);
    return true;
  }
  close(code: number): void {
    this.closedWith = code;
    this.log.push(`close ${code}`);
    this.readyState = 2;
  }
  terminate(): void {
    this.readyState = this.CLOSED;
  }
  ping(): void {}
  private offer(chunk: Buffer): void {
    this.writes += 1;
    this.bufferedAmount += chunk.length;
    const taken = Math.min(this.room, this.bufferedAmount);
    this.room -= taken;
    this.bufferedAmount -= taken;
  }
}

/** The text payloads of the server WebSocket frames in `chunks` (RFC 6455 §5.2: FIN+text, unmasked). */
function payloads(chunks: Buffer[]): string[] {
  const all = Buffer.concat(chunks);
  const out: string[] = [];
  for (let at = 0; at < all.length; ) {
    expect(all[at]).toBe(0x81);
    const b1 = all[at + 1] ?? 0;
    const [header, len] =
      b1 < 126
        ? [2, b1]
        : b1 === 126
          ? [4, all.readUInt16BE(at + 2)]
          : [10, all.readUInt32BE(at + 2) * 0x1_0000_0000 + all.readUInt32BE(at + 6)];
    out.push(all.subarray(at + header, at + header + len).toString('utf8'));
    at += header + len;
  }
  return out;
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

let serial = 0;
const frameOf = (bytes: number): Frame =>
  new Frame(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { n: serial++, pad: 'p'.repeat(bytes) } }));

describe('write batching and the outbound budget', () => {
  it('writes every connection’s turn once, at the end of the turn, as one buffer the clients share', async () => {
    const batcher = new WriteBatcher();
    const clients = Array.from({ length: 5 }, () => connection(batcher));
    const frames = Array.from({ length: 50 }, () => frameOf(100));
    for (const frame of frames) for (const { conn } of clients) conn.sendFrame(frame);
    for (const { sock } of clients) expect(sock.writes).toBe(0);
    await endOfTurn();
    for (const { sock } of clients) {
      expect(sock.writes).toBe(1);
      expect(payloads(sock.sent)).toEqual(frames.map((f) => f.text));
      expect(sock.bufferedAmount).toBe(0);
    }
    // One buffer built for the five (the same frames, in the same order).
    expect(new Set(clients.map(({ sock }) => sock.sent[0])).size).toBe(1);
  });

  it('a client sent other frames this turn gets its own buffer, each client its own frames in order', async () => {
    const batcher = new WriteBatcher();
    const [a, b, c] = [connection(batcher), connection(batcher), connection(batcher)];
    const [f1, f2, f3, own] = [frameOf(10), frameOf(10), frameOf(10), frameOf(10)];
    for (const { conn } of [a, b, c]) conn.sendFrame(f1);
    a.conn.sendFrame(f2);
    b.conn.sendFrame(f2);
    c.conn.sendFrame(own);
    for (const { conn } of [a, b, c]) conn.sendFrame(f3);
    await endOfTurn();
    expect(payloads(a.sock.sent)).toEqual([f1.text, f2.text, f3.text]);
    expect(payloads(c.sock.sent)).toEqual([f1.text, own.text, f3.text]);
    expect(a.sock.sent[0]).toBe(b.sock.sent[0]);
    expect(c.sock.sent[0]).not.toBe(a.sock.sent[0]);
    // The next turn starts afresh: one frame is its own pre-built bytes.
    a.conn.sendFrame(f1);
    await endOfTurn();
    expect(a.sock.writes).toBe(2);
    expect(payloads([a.sock.sent[1] as Buffer])).toEqual([f1.text]);
  });

  it('a turn after a longer one writes only its own frames, and no frame stays pinned between turns', async () => {
    // The connection's list and the batcher's held list are reused turn after turn (a count, not
    // a length): a stale slot from a longer turn must never leak into a shorter one.
    const batcher = new WriteBatcher();
    const [a, b] = [connection(batcher), connection(batcher)];
    const turns = [[frameOf(10), frameOf(10), frameOf(10)], [frameOf(10)], [frameOf(10), frameOf(10)], [frameOf(10)]];
    for (const [k, turn] of turns.entries()) {
      for (const f of turn) a.conn.sendFrame(f);
      // b holds in the first and third turns only: the held list shrinks and grows too.
      if (k === 0 || k === 2) for (const f of turn) b.conn.sendFrame(f);
      await endOfTurn();
      expect(payloads([a.sock.sent[k] as Buffer])).toEqual(turn.map((f) => f.text));
      const held = a.conn as unknown as { batch: unknown[]; batchFirst: unknown };
      expect(held.batch.every((slot) => slot === undefined)).toBe(true);
      expect(held.batchFirst).toBeUndefined();
    }
    expect(a.sock.writes).toBe(4);
    expect(payloads(b.sock.sent)).toEqual([...(turns[0] ?? []), ...(turns[2] ?? [])].map((f) => f.text));
  });

  it('the frames a turn batched leave before the close frame', async () => {
    const { conn, sock } = connection(new WriteBatcher());
    const frames = [frameOf(10), frameOf(10)];
    for (const f of frames) conn.sendFrame(f);
    conn.close(4008, 'slow consumer');
    expect(sock.log).toEqual([...frames.map((f) => f.text), 'close 4008']);
    await endOfTurn();
    expect(sock.writes).toBe(1);
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
    expect(payloads(sock.sent)).toHaveLength(count);
  });

  it('a frame larger than the budget still goes to a client that keeps up, after small frames of the same turn', async () => {
    const { conn, sock } = connection(new WriteBatcher());
    const frames = [frameOf(100), frameOf(BUDGET + 1), frameOf(100)];
    for (const f of frames) conn.sendFrame(f);
    expect(conn.open).toBe(true);
    await endOfTurn();
    expect(payloads(sock.sent)).toEqual(frames.map((f) => f.text));
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
