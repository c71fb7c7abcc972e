/**
 * The bare baseline of B-FAN/B-LAT/B-SLOW/B-CEIL: the least a broadcaster of the same stream
 * can do, laid out like the hub (issue 16 item 1, "a fair limit"):
 *
 * - **same producer, same pipe:** it spawns the same simulator child with the same bench
 *   switches and reads its stdout (bench/lib/sim-pipe.ts), one `JSON.parse` per line;
 * - **same frames:** each `text_delta` becomes a `session/update` `agent_message_chunk`
 *   notification shaped like the hub's (docs/CLIENT-PROTOCOL.md), serialized, UTF-8-encoded and
 *   framed once (src/gateway/ws-text-frame.ts), the same WebSocket frame written to every socket;
 * - **same batching:** a socket is corked at its first frame of an event-loop turn and one
 *   `setImmediate` uncorks them all (src/gateway/write-batch.ts), flushing early at 64 KiB — one
 *   write per client per turn, as the hub writes;
 * - **same clients:** the same load process and sockets; no auth, no journal, no translation,
 *   no budget checks — those are the hub's overhead the ratio measures.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import { Frame } from '../src/domain/frame.js';
import { MAX_BATCH_BYTES } from '../src/gateway/write-batch.js';
import { wsTextFrame } from '../src/gateway/ws-text-frame.js';
import { SimPipe, type ChildLine } from './lib/sim-pipe.js';

const streamSchema = z.object({
  id: z.number().int(),
  command: z.object({
    op: z.literal('stream'),
    rate: z.number().positive(),
    bytes: z.number().int().positive(),
    durationMs: z.number().positive(),
  }),
});
const exitSchema = z.object({ id: z.number().int(), command: z.object({ op: z.literal('exit') }) });

const EPOCH = 'baseline-1';

interface Client {
  ws: WebSocket;
  tcp: Socket;
  corked: boolean;
  batchedBytes: number;
}

const clients = new Set<Client>();
let held: Client[] = [];
let scheduled = false;

function flushAll(): void {
  scheduled = false;
  const batch = held;
  held = [];
  for (const c of batch) flush(c);
}

function flush(c: Client): void {
  if (!c.corked) return;
  c.corked = false;
  c.batchedBytes = 0;
  c.tcp.uncork();
}

function send(c: Client, wire: Buffer): void {
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

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
const listening = new Promise<void>((r) => wss.once('listening', () => r()));
wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
  const c: Client = { ws, tcp: req.socket as Socket, corked: false, batchedBytes: 0 };
  clients.add(c);
  ws.on('close', () => clients.delete(c));
  ws.on('error', () => undefined);
});

let sessionId = '';
let seq = 0;
let onPromptEnd: (() => void) | undefined;

function onLine(m: ChildLine): void {
  const p = m.params;
  if (
    m.method === 'session/event' &&
    p?.type === 'model.streaming' &&
    p.payload?.kind === 'text_delta' &&
    typeof p.payload.delta === 'string'
  ) {
    seq += 1;
    const update = {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: p.payload.delta },
      messageId: p.payload.assistantMessageId,
    };
    const frame = new Frame(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId: p.sessionId, update, _meta: { zcode: { seq, epoch: EPOCH } } },
      }),
    );
    const wire = wsTextFrame(frame);
    for (const c of clients) send(c, wire);
    return;
  }
  if (m.method === 'state.updated' && p?.sessionId === sessionId && (p.reason === 'prompt_completed' || p.reason === 'prompt_failed'))
    onPromptEnd?.();
}

/** One bench stream: a prompt that sets its own rate/size/duration; resolves at the prompt's end. */
async function stream(sim: SimPipe, rate: number, bytes: number, durationMs: number): Promise<number> {
  const first = seq;
  const ended = new Promise<void>((r) => {
    onPromptEnd = r;
  });
  await sim.request('session/send', { sessionId, content: `bench rate=${Math.round(rate)} bytes=${bytes} ms=${Math.round(durationMs)}` });
  await ended;
  onPromptEnd = undefined;
  return seq - first;
}

const sim = SimPipe.start(['--event-rate', '1', '--event-bytes', '300', '--event-duration-ms', '1000']);
sim.onLine = onLine;
sessionId = await sim.openSession();

await listening;
const address = wss.address();
process.send?.({ id: 0, ok: true, value: { port: typeof address === 'object' && address ? address.port : 0, simPid: sim.pid ?? 0 } });

process.on('message', (raw: unknown) => {
  const s = streamSchema.safeParse(raw);
  if (s.success) {
    const { rate, bytes, durationMs } = s.data.command;
    void stream(sim, rate, bytes, durationMs).then(
      (sent) => process.send?.({ id: s.data.id, ok: true, value: { sent, lastSeq: seq } }),
      (err: unknown) => process.send?.({ id: s.data.id, ok: false, value: String(err) }),
    );
    return;
  }
  const e = exitSchema.safeParse(raw);
  if (e.success) {
    for (const c of clients) c.ws.terminate();
    wss.close();
    void sim.stop().then(() => {
      process.send?.({ id: e.data.id, ok: true, value: {} });
      setImmediate(() => process.exit(0));
    });
  }
});
process.on('disconnect', () => {
  void sim.stop().finally(() => process.exit(0));
});
