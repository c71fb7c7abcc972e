import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpWsClient, HubRequest } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Several real clients on one session over real sockets (ARCHITECTURE.md §4.3–§4.5): the same
 * updates in the same order, the permission race with withdrawal, re-send on attach, queued
 * prompts. The simulator is the real child; no sleeps — every wait is for an event.
 */

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

interface UpdateParams {
  sessionId: string;
  update: { sessionUpdate: string; [k: string]: unknown };
  _meta: { zcode: { seq: number; epoch: string } };
}

async function openSession(c: AcpWsClient): Promise<string> {
  return (await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] })).sessionId;
}

function load(c: AcpWsClient, sessionId: string, meta?: Record<string, unknown>): Promise<Record<string, unknown>> {
  return c.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [], ...(meta ? { _meta: { zcode: meta } } : {}) });
}

function seqs(c: AcpWsClient, sessionId: string, from = 0): number[] {
  return c
    .journaled<UpdateParams>()
    .filter((u) => u.sessionId === sessionId && u._meta.zcode.seq > from)
    .map((u) => u._meta.zcode.seq);
}

/** Every seq a client was given for a session: its updates and the seqs of its own echoed prompts. */
function allSeqs(c: AcpWsClient, sessionId: string, from = 0): number[] {
  return c.messages
    .filter((m) => m.method === 'session/update' || m.method === '_zcode/own_update')
    .map((m) => m.params as UpdateParams)
    .filter((u) => u.sessionId === sessionId && (u._meta?.zcode?.seq ?? 0) > from)
    .map((u) => u._meta.zcode.seq);
}

const selected = (optionId: string) => ({ outcome: { outcome: 'selected', optionId } });

describe('three clients on one session', () => {
  it('[FAN-01] all see the same updates in the same order, seq strictly increasing without gaps', async () => {
    const [a, b, c] = (await Promise.all([1, 2, 3].map((i) => hub.initializedClient({ name: `client-${i}` })))) as [
      AcpWsClient,
      AcpWsClient,
      AcpWsClient,
    ];
    const sessionId = await openSession(a);
    await load(b, sessionId);
    await load(c, sessionId);
    const start =
      a
        .journaled<UpdateParams>()
        .filter((u) => u.sessionId === sessionId)
        .at(-1)?._meta.zcode.seq ?? 0;
    const res = await a.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'hello everyone' }],
    });
    expect(res.stopReason).toBe('end_turn');
    const last = Math.max(...seqs(a, sessionId, start));
    await Promise.all([b, c].map((x) => x.waitFor(() => (seqs(x, sessionId, start).includes(last) ? true : undefined))));
    const sb = seqs(b, sessionId, start);
    expect(sb.length).toBeGreaterThan(0);
    expect(sb).toEqual(Array.from({ length: sb.length }, (_, i) => start + 1 + i));
    expect(seqs(c, sessionId, start)).toEqual(sb);
    const frames = (x: AcpWsClient) =>
      x
        .journaled<UpdateParams>()
        .filter((u) => u.sessionId === sessionId && u._meta.zcode.seq > start)
        .map((u) => JSON.stringify(u));
    expect(frames(c)).toEqual(frames(b));
    // The prompter gets everything except the echo of its own prompt (§4.4), in the same order;
    // for its echo it gets only the seq (`_zcode/own_update`), so its seq stream has no gap either.
    const echoSeqs = new Set(
      b
        .journaled<UpdateParams>()
        .filter((u) => u.sessionId === sessionId && u._meta.zcode.seq > start && u.update.sessionUpdate === 'user_message_chunk')
        .map((u) => u._meta.zcode.seq),
    );
    expect(seqs(a, sessionId, start)).toEqual(sb.filter((s) => !echoSeqs.has(s)));
    expect(a.notifications<UpdateParams>('_zcode/own_update').map((u) => u._meta.zcode.seq)).toEqual([...echoSeqs]);
    expect(allSeqs(a, sessionId, start)).toEqual(sb);
    // The prompt is echoed to the others as a user_message_chunk (§4.4).
    expect(b.journaled<UpdateParams>().some((u) => u.update.sessionUpdate === 'user_message_chunk')).toBe(true);
  });

  it('[APR-05] one answers the permission, the other two see their dialog withdrawn ($/cancel_request); a dismiss is not a deny', async () => {
    const [a, b, c] = (await Promise.all([1, 2, 3].map((i) => hub.initializedClient({ name: `racer-${i}` })))) as [
      AcpWsClient,
      AcpWsClient,
      AcpWsClient,
    ];
    const sessionId = await openSession(a);
    await load(b, sessionId);
    await load(c, sessionId);
    const turn = a.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'please ask permission' }],
    });
    const reqs = await Promise.all(
      [a, b, c].map((x) => x.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId)),
    );
    const [ra, rb, rc] = reqs as [HubRequest, HubRequest, HubRequest];
    // c dismisses: its copy goes away, the interaction stays pending for a and b.
    c.answer(rc.id, { outcome: { outcome: 'cancelled' } });
    const inbox = await b.request<{ interactions: Array<{ state: string; sessionId: string }> }>('_zcode/interactions/list', { sessionId });
    expect(inbox.interactions.filter((i) => i.state === 'pending')).toHaveLength(1);
    // b wins.
    const allow = (rb.params.options as Array<{ optionId: string; kind: string }>).find((o) => o.kind === 'allow_once');
    b.answer(rb.id, selected(allow?.optionId ?? ''));
    const withdrawn = await a.waitForNotification<{ requestId: number | string }>('$/cancel_request', (p) => p.requestId === ra.id);
    expect(withdrawn.requestId).toBe(ra.id);
    const resolved = await Promise.all(
      [a, b, c].map((x) =>
        x.waitForNotification<{ sessionId: string; resolvedBy?: { name: string; client?: string } }>(
          '_zcode/interaction_resolved',
          (p) => p.sessionId === sessionId,
        ),
      ),
    );
    // The verified author (the admin token), its clientInfo.name only as `client` (docs/CLIENT-PROTOCOL.md "Authors").
    for (const r of resolved) expect(r.resolvedBy).toMatchObject({ name: 'admin', person: 'admin', client: 'racer-2' });
    // A late answer from the loser changes nothing.
    a.answer(ra.id, selected('deny'));
    expect((await turn).stopReason).toBe('end_turn');
    expect(
      a
        .journaled<UpdateParams>()
        .some((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed'),
    ).toBe(true);
  });

  it('[APR-04] a pending permission survives every client leaving and is re-sent once to the one who attaches', async () => {
    const a = await hub.initializedClient({ name: 'leaver' });
    const sessionId = await openSession(a);
    const turn = a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'permission to run' }] }).catch(() => undefined);
    await a.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    await a.close(1000);
    void turn;
    const back = await hub.initializedClient({ name: 'returner' });
    await load(back, sessionId);
    const again = await back.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    // Still pending (never auto-denied), and sent once to this connection.
    const inbox = await back.request<{ interactions: Array<{ state: string }> }>('_zcode/interactions/list', { sessionId });
    expect(inbox.interactions.map((i) => i.state)).toEqual(['pending']);
    await load(back, sessionId);
    expect(back.requests('session/request_permission').filter((r) => r.params.sessionId === sessionId)).toHaveLength(1);
    const allow = (again.params.options as Array<{ optionId: string; kind: string }>).find((o) => o.kind === 'allow_once');
    back.answer(again.id, selected(allow?.optionId ?? ''));
    await back.waitForNotification('_zcode/interaction_resolved', (p) => p.sessionId === sessionId);
  });

  it('[PRM-01] two clients prompt a busy session: the second is queued and each response arrives at its own turn end', async () => {
    const a = await hub.initializedClient({ name: 'first' });
    const b = await hub.initializedClient({ name: 'second' });
    const sessionId = await openSession(a);
    await load(b, sessionId);
    const order: string[] = [];
    const first = a
      .request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'first prompt, slow please' }] })
      .then((r) => (order.push('first'), r));
    await a.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.state === 'running',
    );
    const second = b
      .request<{ stopReason: string; _meta?: { zcode?: { queuedBehind?: number } } }>('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'second prompt' }],
      })
      .then((r) => (order.push('second'), r));
    await a.waitForNotification<{ sessionId: string; queue: unknown[] }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.queue.length === 1,
    );
    const [r1, r2] = await Promise.all([first, second]);
    expect(r1.stopReason).toBe('end_turn');
    expect(r2.stopReason).toBe('end_turn');
    expect(order).toEqual(['first', 'second']);
    const echoed = (x: AcpWsClient) =>
      x
        .journaled<UpdateParams>()
        .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'user_message_chunk')
        .map((u) => JSON.stringify(u.update));
    expect(echoed(a).some((t) => t.includes('second prompt'))).toBe(true);
    expect(echoed(b).some((t) => t.includes('first prompt'))).toBe(true);
  });

  it('[APR-03] session/cancel with a pending interaction resolves it cancelled for everyone', async () => {
    const a = await hub.initializedClient({ name: 'canceller' });
    const b = await hub.initializedClient({ name: 'watcher' });
    const sessionId = await openSession(a);
    await load(b, sessionId);
    const turn = a.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'need permission' }] });
    await b.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    a.notify('session/cancel', { sessionId });
    const resolved = await b.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/interaction_resolved',
      (p) => p.sessionId === sessionId,
    );
    expect(resolved.state).toBe('cancelled');
    await b.waitForNotification('$/cancel_request');
    expect((await turn).stopReason).toBe('cancelled');
  });

  it('[APR-07] a question goes as an elicitation form to a form client and as permission options to the other', async () => {
    const form = await hub.initializedClient({ name: 'form', elicitationForm: true });
    const plain = await hub.initializedClient({ name: 'plain' });
    const sessionId = await openSession(form);
    await load(plain, sessionId);
    const turn = form.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'ask me a question' }],
    });
    const elicit = await form.waitForRequest('elicitation/create');
    const perm = await plain.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    expect(form.requests('session/request_permission').filter((r) => r.params.sessionId === sessionId)).toHaveLength(0);
    expect(perm.params.options).toBeDefined();
    const schema = (elicit.params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema;
    const keys = Object.keys(schema?.properties ?? {});
    expect(keys.length).toBeGreaterThan(0);
    const content: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema?.properties ?? {})) {
      const prop = v as {
        type?: string;
        enum?: string[];
        oneOf?: Array<{ const: string }>;
        items?: { enum?: string[]; anyOf?: Array<{ const: string }> };
      };
      if (prop.type === 'array') content[k] = [prop.items?.enum?.[0] ?? prop.items?.anyOf?.[0]?.const ?? 'lint'];
      else content[k] = prop.enum?.[0] ?? prop.oneOf?.[0]?.const ?? 'npm';
    }
    form.answer(elicit.id, { action: 'accept', content });
    await plain.waitForNotification('$/cancel_request');
    expect((await turn).stopReason).toBe('end_turn');
  });
});

describe('fan-out at a scaled-down load', () => {
  it('[FAN-01] [FAN-03] 20 clients receive every update once, in order; each update is serialized once', async () => {
    const token = await hub.token('operate', 'fan');
    const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => hub.initializedClient({ name: `fan-${i}`, token })));
    const [owner] = clients as [AcpWsClient];
    const sessionId = await openSession(owner);
    await Promise.all(clients.slice(1).map((c) => load(c, sessionId)));
    const start = Math.max(0, ...clients.map((c) => Math.max(0, ...seqs(c, sessionId))));
    const before = hub.daemon.hub.stats.serializations;
    await owner.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'a plain answer for all' }] });
    const watcher = clients[1] as AcpWsClient;
    const ownerLast = Math.max(...seqs(owner, sessionId, start));
    await watcher.waitFor(() => (seqs(watcher, sessionId, start).includes(ownerLast) ? true : undefined));
    const expected = seqs(watcher, sessionId, start);
    expect(expected).toEqual(Array.from({ length: expected.length }, (_, i) => start + 1 + i));
    const last = Math.max(...expected);
    await Promise.all(clients.map((c) => c.waitFor(() => (seqs(c, sessionId, start).includes(last) ? true : undefined))));
    for (const c of clients.slice(1)) expect(seqs(c, sessionId, start)).toEqual(expected);
    const serialized = hub.daemon.hub.stats.serializations - before;
    // One serialization per update (plus a few per-session notifications), never one per client.
    expect(serialized).toBeLessThan(expected.length * 3);
    expect(expected.length * clients.length).toBeGreaterThan(serialized * 5);
  });
});
