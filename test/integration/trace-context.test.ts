import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';

/**
 * W3C trace context (ACP reserves `traceparent`, `tracestate`, `baggage` at the root of
 * `_meta`): from a client's request, through the hub's log lines, into the envelope `trace`
 * the real simulator child receives (it logs what it got on stderr, which the hub keeps).
 */

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

class Lines extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    for (const l of chunk.toString('utf8').split('\n')) if (l.trim()) this.lines.push(JSON.parse(l) as Record<string, unknown>);
    done();
  }
}

/** The child's `traced request` stderr lines (JSON, as the simulator logs them). */
function childTraces(hub: HubHarness): Array<{ method: string; trace: Record<string, string> }> {
  return hub.daemon.backend
    .stderrTail()
    .filter((l) => l.includes('traced request'))
    .map((l) => JSON.parse(l) as { method: string; trace: Record<string, string> });
}

describe('trace context from client to child', () => {
  let hub: HubHarness;
  const log = new Lines();
  beforeAll(async () => {
    hub = await startHub({ logger: createLogger({ level: 'info', destination: log }) });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('a traced prompt is logged with its ids and reaches the child as the envelope trace, with the hub as parent span', async () => {
    const c = await hub.initializedClient({ name: 'traced' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const _meta = {
      traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01`,
      tracestate: 'congo=t61rcWkgMzE',
      baggage: 'userId=alice-secret-value,tenant=blue',
    };
    await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello traced' }], _meta });

    const entry = log.lines.find((l) => l['msg'] === 'traced client request' && l['method'] === 'session/prompt');
    expect(entry).toMatchObject({
      traceId: TRACE_ID,
      parentId: CLIENT_SPAN,
      tracestate: 'congo=t61rcWkgMzE',
      baggageKeys: ['userId', 'tenant'],
    });
    const spanId = String(entry?.['spanId']);
    expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    // Baggage values may be personal data: only the keys reach the log.
    expect(JSON.stringify(log.lines)).not.toContain('alice-secret-value');

    const sent = await until(
      () => childTraces(hub).find((t) => t.method === 'session/send' && t.trace['traceId'] === TRACE_ID),
      'the child to log the traced session/send',
    );
    expect(sent.trace).toEqual({ traceId: TRACE_ID, parentId: CLIENT_SPAN, spanId, traceparent: `00-${TRACE_ID}-${spanId}-01` });
    // The hub's log carries the child's line too: one grep for the trace id follows the prompt.
    await until(
      () => log.lines.find((l) => l['msg'] === 'backend stderr' && String(l['line']).includes(TRACE_ID)),
      'the child line in the hub log',
    );
  });

  it('a queued prompt is sent to the child in the trace of the request that asked, not of the turn that drained it', async () => {
    const a = await hub.initializedClient({ name: 'first' });
    const b = await hub.initializedClient({ name: 'second' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await b.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const first = a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'slow please' }] });
    await a.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.state === 'running',
    );
    const queuedTrace = 'a'.repeat(32);
    const second = b.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'queued hello' }],
      _meta: { traceparent: `00-${queuedTrace}-${'b'.repeat(16)}-00` },
    });
    await b.waitForNotification<{ sessionId: string; queue: unknown[] }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.queue.length === 1,
    );
    a.notify('session/cancel', { sessionId });
    await first;
    await second;
    const sent = await until(
      () => childTraces(hub).find((t) => t.method === 'session/send' && t.trace['traceId'] === queuedTrace),
      'the queued prompt to reach the child traced',
    );
    expect(sent.trace['traceparent']).toMatch(new RegExp(`^00-${queuedTrace}-[0-9a-f]{16}-00$`));
  });

  it('an invalid traceparent is ignored (W3C), an over-long tracestate is dropped alone', async () => {
    const c = await hub.initializedClient({ name: 'invalid' });
    const before = log.lines.filter((l) => l['msg'] === 'traced client request').length;
    await c.request('session/list', { _meta: { traceparent: `00-${'0'.repeat(32)}-${CLIENT_SPAN}-01` } });
    await c.request('session/list', { _meta: { traceparent: 'not a traceparent' } });
    expect(log.lines.filter((l) => l['msg'] === 'traced client request').length).toBe(before);
    const other = 'c'.repeat(32);
    await c.request('session/list', { _meta: { traceparent: `00-${other}-${CLIENT_SPAN}-01`, tracestate: `k=${'v'.repeat(600)}` } });
    const entry = log.lines.find((l) => l['msg'] === 'traced client request' && l['traceId'] === other);
    expect(entry).toBeDefined();
    expect(entry).not.toHaveProperty('tracestate');
  });
});
