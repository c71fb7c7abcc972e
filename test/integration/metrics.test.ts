import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
  // The child starts after the daemon listens; wait for it rather than for time.
  for (;;) {
    const health = (await (await fetch(`${hub.url}/api/health`, { headers: { accept: 'application/json' } })).json()) as {
      backend: { state: string };
    };
    if (health.backend.state === 'ready') break;
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(async () => {
  await hub?.close();
});

let lastText = '';
async function scrape(token?: string): Promise<Map<string, Array<{ value?: string; labels?: Record<string, string>; count?: string }>>> {
  const res = await hub.api('/metrics', token ? { token } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  lastText = await res.text();
  const families = parsePrometheusTextFormat(lastText);
  return new Map(families.map((f) => [f.name, f.metrics]));
}

const value = (
  m: Map<string, Array<{ value?: string; labels?: Record<string, string> }>>,
  name: string,
  labels?: Record<string, string>,
): number => {
  const samples = m.get(name);
  if (!samples) throw new Error(`metric ${name} missing`);
  const s = labels ? samples.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v)) : samples[0];
  return Number(s?.value);
};

describe('/metrics', () => {
  it('parses as Prometheus text and moves when traffic flows', async () => {
    const before = await scrape();
    expect(value(before, 'zcode_hub_clients', { profile: 'acp' })).toBe(0);
    expect(value(before, 'zcode_hub_backend_ready')).toBe(1);
    expect(before.has('zcode_hub_process_nodejs_eventloop_lag_seconds')).toBe(true);

    const c = await hub.initializedClient({ name: 'metrics-probe' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const other = await hub.initializedClient({ name: 'second' });
    await other.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const prompt = c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'please ask permission' }] });
    const req = await c.waitForRequest('session/request_permission');
    c.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    await prompt;

    const after = await scrape();
    expect(value(after, 'zcode_hub_clients', { profile: 'acp' })).toBe(2);
    expect(value(after, 'zcode_hub_attached_sessions')).toBe(1);
    expect(value(after, 'zcode_hub_journal_updates')).toBeGreaterThan(0);
    expect(value(after, 'zcode_hub_updates_sent_total')).toBeGreaterThan(value(before, 'zcode_hub_updates_sent_total'));
    expect(value(after, 'zcode_hub_bytes_sent_total')).toBeGreaterThan(0);
    expect(Number(after.get('zcode_hub_interaction_answer_seconds')?.[0]?.count)).toBe(1);
    expect(after.get('zcode_hub_backend_request_seconds')).toBeDefined();
    // The parser keeps no labels on histogram samples; the raw exposition has them.
    expect(lastText).toMatch(/^zcode_hub_backend_request_seconds_count\{method="session\/send",outcome="ok"\} [1-9]/m);
    expect(value(after, 'zcode_hub_pending_interactions')).toBe(0);
  });

  it('needs a credential, and a view token may read it', async () => {
    const res = await fetch(`${hub.url}/metrics`);
    expect(res.status).toBe(401);
    const viewer = await hub.token('view', 'grafana');
    expect((await scrape(viewer)).has('zcode_hub_clients')).toBe(true);
  });
});
