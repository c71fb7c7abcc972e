/**
 * `node --import tsx bench/phone-waterfall.ts [slow-4g|3g] [turns]`: the network waterfall of
 * B-PHONE's cold, compressed loads (bench/scenarios/b-phone.ts, the same daemon, session and
 * emulation): for the session list and for the long session's chat, each HTTP request (start,
 * first byte, end, bytes, what started it), the WebSocket upgrade and the first frames each way
 * (the JSON-RPC method or the id they answer), in ms from the document's request. Where the
 * first second goes, request by request: which waited for which, which bytes came before the
 * screen. Run `npm run build` first, so the daemon serves the current web/dist.
 */
import type { CDPSession } from 'playwright-core';
import { loadListAndChat, NETWORKS, openPhoneRig } from './scenarios/b-phone.js';

interface Row {
  at: number;
  text: string;
}

const FRAME_ROWS = 60;

/** What one frame is, in a few words: `→ session/list #2 (102 B)`, `← result #2 (567 B)`, `← session/update (697 B)`. */
function describeFrame(payload: string, dir: '→' | '←'): string {
  try {
    const m = JSON.parse(payload) as { id?: unknown; method?: unknown; error?: unknown };
    const id = m.id === undefined ? '' : ` #${String(m.id)}`;
    const name = typeof m.method === 'string' ? m.method : m.error === undefined ? 'result' : 'error';
    return `${dir} ${name}${id} (${payload.length} B)`;
  } catch {
    return `${dir} non-JSON (${payload.length} B)`;
  }
}

/** Records what the page fetches and says over its sockets through `cdp`, as rows of a waterfall. */
function record(cdp: CDPSession): () => Row[] {
  const rows: Row[] = [];
  const req = new Map<string, { url: string; start: number; ttfb?: number; initiator: string }>();
  let t0: number | undefined;
  let frames = 0;
  const ms = (ts: number) => Math.round((ts - (t0 ?? ts)) * 1000);
  const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/^wss?:\/\/[^/]+/, 'ws:') || '/';
  cdp.on(
    'Network.requestWillBeSent',
    (e: { requestId: string; timestamp: number; request: { url: string }; initiator: { type: string; url?: string } }) => {
      if (e.request.url.startsWith('data:')) return;
      t0 ??= e.timestamp;
      const by = e.initiator.url ? `${e.initiator.type} ${short(e.initiator.url)}` : e.initiator.type;
      req.set(e.requestId, { url: short(e.request.url), start: ms(e.timestamp), initiator: by });
    },
  );
  cdp.on('Network.responseReceived', (e: { requestId: string; timestamp: number }) => {
    const r = req.get(e.requestId);
    if (r) r.ttfb = ms(e.timestamp);
  });
  cdp.on('Network.loadingFinished', (e: { requestId: string; timestamp: number; encodedDataLength: number }) => {
    const r = req.get(e.requestId);
    if (!r) return;
    rows.push({
      at: r.start,
      text: `${String(r.start).padStart(5)} → ${String(r.ttfb ?? '?').padStart(5)} → ${String(ms(e.timestamp)).padStart(5)} ms  ${String(e.encodedDataLength).padStart(6)} B  ${r.url}  (by ${r.initiator})`,
    });
  });
  cdp.on('Network.loadingFailed', (e: { requestId: string; timestamp: number; errorText: string }) => {
    const r = req.get(e.requestId);
    if (r) rows.push({ at: r.start, text: `${String(r.start).padStart(5)} ms  FAILED ${e.errorText}  ${r.url}` });
  });
  cdp.on('Network.webSocketWillSendHandshakeRequest', (e: { timestamp: number }) => {
    rows.push({ at: ms(e.timestamp), text: `${String(ms(e.timestamp)).padStart(5)} ms  WebSocket upgrade sent` });
  });
  cdp.on('Network.webSocketHandshakeResponseReceived', (e: { timestamp: number; response: { status: number } }) => {
    rows.push({ at: ms(e.timestamp), text: `${String(ms(e.timestamp)).padStart(5)} ms  WebSocket upgrade answered ${e.response.status}` });
  });
  const frame = (dir: '→' | '←') => (e: { timestamp: number; response: { payloadData: string } }) => {
    if (++frames > FRAME_ROWS) return;
    rows.push({ at: ms(e.timestamp), text: `${String(ms(e.timestamp)).padStart(5)} ms  ${describeFrame(e.response.payloadData, dir)}` });
  };
  cdp.on('Network.webSocketFrameSent', frame('→'));
  cdp.on('Network.webSocketFrameReceived', frame('←'));
  return () => rows.sort((a, b) => a.at - b.at);
}

const network = (process.argv[2] ?? 'slow-4g') as keyof typeof NETWORKS;
if (!(network in NETWORKS)) throw new Error(`network: one of ${Object.keys(NETWORKS).join(', ')}`);
const turns = Number(process.argv[3] ?? 200);
const rig = await openPhoneRig(turns);
try {
  const recorded: Partial<Record<'list' | 'chat', () => Row[]>> = {};
  const { list, chat } = await loadListAndChat(rig, { network, encoding: 'compressed', cache: 'cold' }, (cdp, what) => {
    recorded[what] = record(cdp);
  });
  for (const [what, load] of [
    ['session list at /', list],
    [`${turns}-turn chat at /s/<id>`, chat],
  ] as const) {
    process.stdout.write(
      `\n${network}, cold, compressed: ${what}: shown after ${load.ms} ms; ${load.http} B HTTP, ${load.ws} B WebSocket\n`,
    );
    process.stdout.write('start → first byte → end      bytes  request\n');
    for (const r of recorded[what.startsWith('session') ? 'list' : 'chat']?.() ?? []) process.stdout.write(`${r.text}\n`);
  }
} finally {
  await rig.close();
}
