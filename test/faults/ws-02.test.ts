import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { FULL, scale } from './fault-scale.js';

/**
 * WS-02 at full size: 10,000 malformed frames from 10 sockets (bad JSON, wrong schema, unknown
 * method, huge strings, deep nesting, `__proto__` keys, binary). A binary frame closes its socket
 * (1003, text frames only), as do repeated violations (4400): a closed socket is replaced and the
 * sender carries on, so the full count is sent. The daemon runs in this process, so a crash or an unhandled
 * rejection fails this test directly, and prototype pollution would be visible here.
 */
const FRAMES = scale(10_000, 1_000);
const SOCKETS = 10;
/** Frames sent between two ping/pong barriers (the pong proves the hub handled what came before). */
const BURST = 20;
const HUGE = 256 * 1024;
const ALLOWED_CLOSES = new Set([4400, 1009, 1003]);

/** The i-th malformed frame; every 97th is binary, which closes its socket 1003. */
function malformed(i: number): { data: string | Buffer; binary: boolean } {
  const kind = i % 97 === 0 ? 'binary' : ['badJson', 'schema', 'unknown', 'huge', 'deep', 'proto', 'schema2', 'notObject'][i % 8]!;
  switch (kind) {
    case 'binary':
      return { data: Buffer.from([0xde, 0xad, 0xbe, 0xef, i & 0xff]), binary: true };
    case 'badJson':
      return { data: `{"jsonrpc":"2.0","id":${i},"method":`, binary: false };
    case 'schema':
      return { data: JSON.stringify({ jsonrpc: '1.0', id: { nested: i }, method: 42 }), binary: false };
    case 'schema2':
      return {
        data: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'session/prompt', params: { sessionId: 42, prompt: 'not-an-array' } }),
        binary: false,
      };
    case 'unknown':
      return { data: JSON.stringify({ jsonrpc: '2.0', id: i, method: `no/such_method_${i}` }), binary: false };
    case 'huge':
      return {
        data: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'session/prompt',
          params: { sessionId: 'x'.repeat(HUGE), prompt: [{ type: 'text', text: 'y'.repeat(HUGE) }] },
        }),
        binary: false,
      };
    case 'deep':
      return {
        data: `{"jsonrpc":"2.0","id":${i},"method":"session/load","params":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
        binary: false,
      };
    case 'proto':
      return {
        data: `{"jsonrpc":"2.0","id":${i},"method":"session/new","params":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"cwd":"/","mcpServers":[]}}`,
        binary: false,
      };
    default:
      return { data: i % 2 === 0 ? '[]' : 'null', binary: false };
  }
}

function barrier(c: AcpWsClient): Promise<void> {
  return new Promise((resolve) => {
    if (!c.isOpen) return resolve();
    const done = () => {
      c.ws.off('pong', done);
      resolve();
    };
    c.ws.once('pong', done);
    void c.closed.then(done);
    c.ws.ping();
  });
}

/** A full GC in this worker (the daemon runs here), so the heap comparison measures what is retained. */
v8.setFlagsFromString('--expose-gc');
const gcFn = runInNewContext('gc') as () => void;
function collectGarbage(): void {
  gcFn();
  gcFn();
}

let hub: HubHarness;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  hub = await startHub();
}, 60_000);

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await hub?.close();
}, 60_000);

describe(`WS-02 at full size (${FULL ? 'RUN_FAULTS' : 'everyday size'})`, () => {
  it(
    `[WS-02] ${FRAMES} malformed frames from ${SOCKETS} sockets: typed errors or 4400 closes, no crash, no unhandled rejection, memory bounded`,
    async () => {
      collectGarbage();
      const heapBefore = process.memoryUsage().heapUsed;
      const closes = new Map<number, number>();
      const badResponses: string[] = [];
      let errors = 0;
      let sent = 0;
      const perSocket = FRAMES / SOCKETS;

      const sender = async (slot: number): Promise<void> => {
        let c = await hub.initializedClient({ name: `ws02-${slot}` });
        for (let n = 0; n < perSocket; ) {
          for (let b = 0; b < BURST && n < perSocket && c.isOpen; b++, n++) {
            const f = malformed(slot * perSocket + n);
            c.sendRaw(f.data, f.binary);
            sent++;
          }
          await barrier(c);
          if (!c.isOpen) {
            const closed = await c.closed;
            closes.set(closed.code, (closes.get(closed.code) ?? 0) + 1);
            collect(c);
            c = await hub.initializedClient({ name: `ws02-${slot}` });
          }
        }
        collect(c);
        await c.close();
      };
      const collect = (c: AcpWsClient) => {
        expect(c.garbage).toEqual([]);
        for (const m of c.messages) {
          if (m.error) {
            errors++;
            if (!(Number.isInteger(m.error.code) && m.error.code <= -32000 && m.error.code >= -32768))
              badResponses.push(JSON.stringify(m.error).slice(0, 200));
          }
        }
        // The harness keeps every client until the end; what they received is not the hub's memory.
        c.messages.splice(0);
      };

      await Promise.all([...Array(SOCKETS).keys()].map(sender));

      expect(sent).toBe(FRAMES);
      expect(badResponses).toEqual([]);
      expect(errors).toBeGreaterThan(0);
      expect([...closes.keys()].filter((code) => !ALLOWED_CLOSES.has(code))).toEqual([]);
      expect(closes.get(4400) ?? 0).toBeGreaterThan(0);
      expect(closes.get(1003) ?? 0).toBeGreaterThan(0);
      expect(unhandled).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // Still serving: health, and a fresh client can open a session.
      expect((await hub.api('/api/health')).status).toBe(200);
      const fresh = await hub.initializedClient({ name: 'after-ws02' });
      const opened = await fresh.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
      expect(opened.sessionId).toBeTruthy();
      // Memory bounded: nothing per malformed frame is kept (the 10,000 frames total ~100 MB on the wire).
      collectGarbage();
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
    },
    FULL ? 600_000 : 120_000,
  );
});
