/**
 * The bare baseline of B-FAN/B-LAT/B-SLOW/B-CEIL: the least a broadcaster of the same stream
 * can do, laid out like the hub ("a fair limit"):
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
 *   no budget checks — those are the hub's overhead the ratio measures;
 * - **same sessions:** a client picks its session with `?session=<k>` (default 0), as a hub
 *   client attaches to one; each session has its own seq and its own simulator session.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import { Frame } from '../src/domain/delivery/frame.js';
import { wsTextFrame } from '../src/gateway/ws-text-frame.js';
import { bareSend, type BareClient } from './lib/bare-fanout.js';
import { benchPrompt, teamSlotMs } from './lib/bench-prompt.js';
import { hostedHubFromEnv } from './lib/hosted-hub.js';
import { SimPipe, type ChildLine } from './lib/sim-pipe.js';

const streamSchema = z.object({
  id: z.number().int(),
  command: z.object({
    op: z.literal('stream'),
    rate: z.number().positive(),
    bytes: z.number().int().positive(),
    durationMs: z.number().positive(),
    /** Sessions streaming at once (B-SCALE's team); session k starts k × phaseMs after session 0. */
    sessions: z.number().int().min(1).max(100).default(1),
    phaseMs: z.number().min(0).default(0),
    /** Where the sessions stream on the shared grid (bench/lib/bench-prompt.ts `GRID`, `teamSlotMs`); 0: each from its own prompt. */
    grid: z.number().int().min(0).max(2).default(0),
  }),
});
const exitSchema = z.object({ id: z.number().int(), command: z.object({ op: z.literal('exit') }) });

const EPOCH = 'baseline-1';

/** Clients of each session (by index). */
const audiences = new Map<number, Set<BareClient>>();
function audience(k: number): Set<BareClient> {
  let set = audiences.get(k);
  if (!set) audiences.set(k, (set = new Set()));
  return set;
}
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
const listening = new Promise<void>((r) => wss.once('listening', () => r()));
wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
  const session = Number(new URL(req.url ?? '/', 'http://baseline').searchParams.get('session') ?? 0);
  const c: BareClient = { ws, tcp: req.socket as Socket, corked: false, batchedBytes: 0, session: Number.isInteger(session) ? session : 0 };
  audience(c.session).add(c);
  ws.on('close', () => audience(c.session).delete(c));
  ws.on('error', () => undefined);
});

interface SimSession {
  id: string;
  seq: number;
  onPromptEnd?: (() => void) | undefined;
}
const sessions: SimSession[] = [];

function onLine(m: ChildLine): void {
  const p = m.params;
  if (
    m.method === 'session/event' &&
    p?.type === 'model.streaming' &&
    p.payload?.kind === 'text_delta' &&
    typeof p.payload.delta === 'string'
  ) {
    const k = sessions.findIndex((x) => x.id === p.sessionId);
    const session = sessions[k];
    if (!session) return;
    session.seq += 1;
    const update = {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: p.payload.delta },
      messageId: p.payload.assistantMessageId,
    };
    const frame = new Frame(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId: p.sessionId, update, _meta: { zcode: { seq: session.seq, epoch: EPOCH } } },
      }),
    );
    const wire = wsTextFrame(frame);
    for (const c of audience(k)) bareSend(c, wire);
    return;
  }
  if (m.method === 'state.updated' && (p?.reason === 'prompt_completed' || p?.reason === 'prompt_failed'))
    sessions.find((x) => x.id === p.sessionId)?.onPromptEnd?.();
}

/** One bench stream in `session`: a prompt that sets its own rate/size/duration; resolves at the prompt's end. */
async function stream(sim: SimPipe, session: SimSession, prompt: string): Promise<void> {
  const ended = new Promise<void>((r) => {
    session.onPromptEnd = r;
  });
  await sim.request('session/send', {
    sessionId: session.id,
    content: prompt,
  });
  await ended;
  session.onPromptEnd = undefined;
}

/** Streams in the first `count` sessions (opened on first use), session k starting k × phaseMs late; answers the frames sent and each session's last seq. */
async function streamAll(
  sim: SimPipe,
  command: z.infer<typeof streamSchema>['command'],
): Promise<{ sent: number; lastSeq: number; lastSeqs: number[] }> {
  while (sessions.length < command.sessions) sessions.push({ id: await sim.openSession(), seq: 0 });
  const team = sessions.slice(0, command.sessions);
  const first = team.reduce((a, x) => a + x.seq, 0);
  await Promise.all(
    team.map(async (session, k) => {
      if (k > 0 && command.phaseMs > 0) await new Promise((r) => setTimeout(r, k * command.phaseMs));
      const slotMs = teamSlotMs({ grid: command.grid, rate: command.rate, sessions: command.sessions }, k);
      await stream(sim, session, benchPrompt({ rate: command.rate, bytes: command.bytes, ms: command.durationMs, slotMs }));
    }),
  );
  const lastSeqs = team.map((x) => x.seq);
  return { sent: lastSeqs.reduce((a, b) => a + b, 0) - first, lastSeq: lastSeqs[0]!, lastSeqs };
}

// B-COST-TEAM's hosted mode (bench/lib/baseline-process.ts): a whole hub in this process beside the
// baseline, started as `zcode-hub <args>` would start it, so both sides' legs are measured in one process.
const hosted = hostedHubFromEnv();
if (hosted) {
  const cli = (await import(pathToFileURL(hosted.entry).href)) as { main: (argv: string[]) => Promise<void> };
  void cli.main(hosted.args).catch((err: unknown) => {
    process.stderr.write(`hosted hub failed: ${String(err)}\n`);
    process.exit(1);
  });
}

const sim = SimPipe.start(['--event-rate', '1', '--event-bytes', '300', '--event-duration-ms', '1000']);
sim.onLine = onLine;
sessions.push({ id: await sim.openSession(), seq: 0 });

await listening;
const address = wss.address();
process.send?.({ id: 0, ok: true, value: { port: typeof address === 'object' && address ? address.port : 0, simPid: sim.pid ?? 0 } });

process.on('message', (raw: unknown) => {
  const s = streamSchema.safeParse(raw);
  if (s.success) {
    void streamAll(sim, s.data.command).then(
      (value) => process.send?.({ id: s.data.id, ok: true, value }),
      (err: unknown) => process.send?.({ id: s.data.id, ok: false, value: String(err) }),
    );
    return;
  }
  const e = exitSchema.safeParse(raw);
  if (e.success) {
    for (const set of audiences.values()) for (const c of set) c.ws.terminate();
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
