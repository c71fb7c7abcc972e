/**
 * The bare baseline's whole send path (bench/baseline-server.ts), shared with the fan-out
 * micro-harness (bench/fanout-micro.ts) so both measure the same code: one pre-built WebSocket
 * frame written to every socket of an audience, each socket corked at its first frame of an
 * event-loop turn and one `setImmediate` uncorking them all, flushing early at 64 KiB — the
 * hub's batching (src/gateway/write-batch.ts) without its budget, kinds or counters.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { MAX_BATCH_BYTES } from '../../src/gateway/write-batch.js';

/** One bare client: its WebSocket, the TCP socket under it, and its batch. */
export interface BareClient {
  ws: WebSocket;
  session: number;
  tcp: Socket;
  corked: boolean;
  batchedBytes: number;
}

let held: BareClient[] = [];
let scheduled = false;

function flushAll(): void {
  scheduled = false;
  const batch = held;
  held = [];
  for (const c of batch) flush(c);
}

function flush(c: BareClient): void {
  if (!c.corked) return;
  c.corked = false;
  c.batchedBytes = 0;
  c.tcp.uncork();
}

/** Writes one pre-built frame to one client, batched per event-loop turn. */
export function bareSend(c: BareClient, wire: Buffer): void {
  if (c.ws.readyState !== c.ws.OPEN) return;
  if (!c.corked) {
    c.corked = true;
    c.tcp.cork();
    held.push(c);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flushAll);
    }
  }
  c.tcp.write(wire);
  if ((c.batchedBytes += wire.length) >= MAX_BATCH_BYTES) flush(c);
}
