/**
 * The bare baseline of B-FAN/B-LAT: a separate process with a plain `ws` server that broadcasts
 * frames shaped and sized like the hub's `session/update` frames (docs/CLIENT-PROTOCOL.md) at
 * the rate the simulator uses (same 5 ms tick, same catch-up rule as
 * src/simulator/scenarios/bench.ts). Each frame is serialized once and the same string is sent
 * to every socket: the least a broadcaster can do, so the hub's ratio to it is its overhead.
 */
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';

const streamSchema = z.object({ id: z.number().int(), command: z.object({ op: z.literal('stream'), rate: z.number().positive(), bytes: z.number().int().positive(), durationMs: z.number().positive(), cork: z.boolean().default(false) }) });
const exitSchema = z.object({ id: z.number().int(), command: z.object({ op: z.literal('exit') }) });

const clients = new Set<WebSocket>();
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
wss.on('connection', (ws) => {
  clients.add(ws);
  ws.on('close', () => clients.delete(ws));
  ws.on('error', () => undefined);
});

const SESSION = 'sess_baseline000000000000';
const EPOCH = 'baseline-1';
let seq = 0;

function frame(delta: string): string {
  seq += 1;
  return JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: SESSION, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: delta } }, _meta: { zcode: { seq, epoch: EPOCH } } } });
}

/** The TCP socket under a ws connection (ws keeps it private; the cork variant needs it). */
function rawSocket(ws: WebSocket): { cork(): void; uncork(): void } | undefined {
  const raw = (ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
  return raw;
}

/**
 * `cork`: the variant the profile recommends for the hub — every frame of one tick goes out in
 * one write per client (cork before the tick's sends, uncork after) instead of one per frame.
 */
async function stream(rate: number, bytes: number, durationMs: number, cork: boolean): Promise<number> {
  const started = performance.now();
  let sent = 0;
  while (true) {
    const elapsed = performance.now() - started;
    if (elapsed >= durationMs) break;
    const due = Math.floor((elapsed / 1000) * rate);
    if (cork && sent < due) for (const ws of clients) rawSocket(ws)?.cork();
    for (; sent < due; sent++) {
      const sentAt = performance.timeOrigin + performance.now();
      const prefix = `[simSentAt=${sentAt.toFixed(3)}] `;
      const f = frame(prefix + 'x'.repeat(Math.max(0, bytes - prefix.length)));
      for (const ws of clients) ws.send(f);
    }
    if (cork) for (const ws of clients) rawSocket(ws)?.uncork();
    await new Promise((r) => setTimeout(r, 5));
  }
  return sent;
}

wss.on('listening', () => {
  const address = wss.address();
  process.send?.({ id: 0, ok: true, value: typeof address === 'object' && address ? address.port : 0 });
});

process.on('message', (raw: unknown) => {
  const s = streamSchema.safeParse(raw);
  if (s.success) {
    const { rate, bytes, durationMs, cork } = s.data.command;
    void stream(rate, bytes, durationMs, cork).then((sent) => process.send?.({ id: s.data.id, ok: true, value: { sent, lastSeq: seq } }));
    return;
  }
  const e = exitSchema.safeParse(raw);
  if (e.success) {
    for (const ws of clients) ws.terminate();
    wss.close();
    process.send?.({ id: e.data.id, ok: true, value: {} });
    setImmediate(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
