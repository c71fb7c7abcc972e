import { connectionAuthor } from '../../src/domain/people/author.js';
import { AppServerClient } from '../../src/app-server/client.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBackend } from '../../src/backend/index.js';
import { buildConfig, ConfigError } from '../../src/config/load.js';
import { HubError } from '../../src/errors.js';
import { HubCore } from '../../src/domain/hub-core.js';
import { sessionMarks } from '../../src/daemon/domain-parts.js';
import { workspaceParts } from '../../src/daemon/http-parts.js';
import { InteractionFlow } from '../../src/domain/interactions/interaction-flow.js';
import type { LIMITS } from '../../src/limits.js';
import { createLogger } from '../../src/logger.js';
import { RecorderClient, testConfig } from './helpers.js';

// The flow is driven directly through its InteractionHandler, as the backend link calls it.
// The backend link is the real one, never started (nothing is spawned): only its status is read.

const SESSION = 'sess_unit';
const DENY = { decision: 'deny', reason: 'no' };
const ALLOW = { decision: 'allow', reason: 'Approved once' };

function permissionParams(requestId: string) {
  return {
    requestId,
    sessionId: SESSION,
    toolCallId: `call_${requestId}`,
    toolName: 'Bash',
    reason: 'Run command',
    riskLevel: 'medium',
    input: { command: 'npm test' },
    options: [
      { optionId: 'allow_once', kind: 'allow_once', name: 'Allow once', response: ALLOW },
      { optionId: 'deny', kind: 'deny', name: 'Deny', response: DENY },
    ],
  };
}

let root: string;
let core: HubCore;
let flow: InteractionFlow;
const epoch = 1;

function setup(limits: Partial<Record<keyof typeof LIMITS, number>> = {}): void {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-int-'));
  const config = testConfig(root, limits);
  const logger = createLogger({ level: 'silent' });
  const backend = createBackend(config, logger, { env: { ...process.env, HOME: root } });
  core = new HubCore({
    backend,
    appServer: new AppServerClient(backend),
    config,
    logger,
    roots: workspaceParts(config).roots,
    marks: sessionMarks(config),
  });
  flow = new InteractionFlow(core);
}

function attach(...clients: RecorderClient[]): void {
  const s = core.ensureSession(SESSION, root);
  for (const client of clients)
    s.attachments.set(client.clientId, { client, sessionId: SESSION, replaying: false, buffer: [], attachedAt: 0 });
}

function ask(requestId: string): Promise<unknown> {
  return flow.handle({
    method: 'interaction/requestPermission',
    params: permissionParams(requestId),
    requestId,
    sessionId: SESSION,
    epoch,
  });
}

beforeEach(() => setup());
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('interaction race', () => {
  it('[APR-01] first answer wins when five clients answer in the same tick; losers are withdrawn', async () => {
    const clients = Array.from({ length: 5 }, () => new RecorderClient());
    attach(...clients);
    const childAnswers: unknown[] = [];
    const answered = ask('r1').then((r) => childAnswers.push(r));
    for (const c of clients) expect(c.openRequests('session/request_permission')).toHaveLength(1);
    // Interleaved: client 3 allows, everyone else denies, all before any microtask runs.
    clients.forEach((c, i) => c.openRequests()[0]?.reply({ outcome: { outcome: 'selected', optionId: i === 2 ? 'allow_once' : 'deny' } }));
    await answered;
    await new Promise((r) => setImmediate(r));
    expect(childAnswers).toHaveLength(1);
    const resolved = clients.map((c) => c.notes('_zcode/interaction_resolved'));
    for (const r of resolved) expect(r).toEqual([resolved[0]?.[0]]);
    const winner = resolved[0]?.[0] as { resolvedBy: { clientId: string }; state: string };
    expect(winner.state).toBe('resolved');
    const winnerIndex = clients.findIndex((c) => c.clientId === winner.resolvedBy.clientId);
    expect(childAnswers[0]).toEqual(winnerIndex === 2 ? ALLOW : DENY);
    // Replies were already in flight, so nothing left to withdraw; a late one changes nothing.
    expect(core.interactions.get('r1')?.view.state).toBe('resolved');
  });

  it('[APR-01] losers that have not answered get $/cancel_request (cancelRequest)', async () => {
    const [a, b, c] = [new RecorderClient(), new RecorderClient(), new RecorderClient()];
    attach(a, b, c);
    const answer = ask('r2');
    b.openRequests()[0]?.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(await answer).toEqual(ALLOW);
    expect(a.cancelled).toHaveLength(1);
    expect(c.cancelled).toHaveLength(1);
    expect(b.cancelled).toHaveLength(0);
  });

  it('[APR-05] dismiss is not deny: the interaction stays pending for the others', async () => {
    const [a, b] = [new RecorderClient(), new RecorderClient()];
    attach(a, b);
    const answer = ask('r3');
    a.openRequests()[0]?.reply({ outcome: { outcome: 'cancelled' } });
    await new Promise((r) => setImmediate(r));
    expect(core.interactions.get('r3')?.view.state).toBe('pending');
    expect(b.notes('_zcode/interaction_resolved')).toHaveLength(0);
    b.openRequests()[0]?.reply({ outcome: { outcome: 'selected', optionId: 'deny' } });
    expect(await answer).toEqual(DENY);
  });

  it('[APR-02] an option not offered is refused with zero writes; REST unknown id / late / view are typed', async () => {
    const a = new RecorderClient();
    attach(a);
    let written = 0;
    const answer = ask('r4').then((r) => {
      written += 1;
      return r;
    });
    a.openRequests()[0]?.reply({ outcome: { outcome: 'selected', optionId: 'not-offered' } });
    await new Promise((r) => setImmediate(r));
    expect(written).toBe(0);
    expect(core.interactions.get('r4')?.view.state).toBe('pending');
    const op = { identity: { tokenId: 't', name: 'phone', person: 'phone', scope: 'operate' as const } };
    expect(() => flow.answer('r4', { optionId: 'nope' }, op)).toThrow(HubError);
    expect(() => flow.answer('missing', { optionId: 'deny' }, op)).toThrow(expect.objectContaining({ code: 'HUB_ERR_NOT_FOUND' }));
    expect(() =>
      flow.answer('r4', { optionId: 'deny' }, { identity: { tokenId: 'v', name: 'viewer', person: 'viewer', scope: 'view' } }),
    ).toThrow(expect.objectContaining({ code: 'HUB_ERR_FORBIDDEN' }));
    expect(written).toBe(0);
    const view = flow.answer('r4', { optionId: 'deny' }, op);
    expect(view.state).toBe('resolved');
    expect(await answer).toEqual(DENY);
    try {
      flow.answer('r4', { optionId: 'allow_once' }, op);
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'HUB_ERR_ALREADY_RESOLVED', details: { resolvedBy: { name: 'phone' } } });
    }
    expect(written).toBe(1);
  });

  it('viewers get _zcode/interaction_opened instead of a request', async () => {
    const viewer = new RecorderClient({ scope: 'view' });
    attach(viewer);
    void ask('r5');
    expect(viewer.requests).toHaveLength(0);
    expect(viewer.notes('_zcode/interaction_opened')).toHaveLength(1);
  });

  it('[APR-03] cancel resolves every pending interaction of the session as cancelled with the deny shape', async () => {
    const a = new RecorderClient();
    attach(a);
    const answers = Promise.all([ask('c1'), ask('c2'), ask('c3')]);
    flow.cancelSession(core.session(SESSION), connectionAuthor(a));
    expect(await answers).toEqual([
      { ...DENY, reason: 'Cancelled by the user' },
      { ...DENY, reason: 'Cancelled by the user' },
      { ...DENY, reason: 'Cancelled by the user' },
    ]);
    expect((a.notes('_zcode/interaction_resolved') as Array<{ state: string }>).map((n) => n.state)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
  });

  it('[APR-06] a new backend epoch marks pending interactions lost; a late answer is refused', async () => {
    const a = new RecorderClient();
    attach(a);
    const answer = ask('l1');
    flow.markLost(epoch + 1);
    await answer;
    expect(core.interactions.get('l1')?.view.state).toBe('lost');
    expect(a.notes('_zcode/interaction_resolved')).toEqual([expect.objectContaining({ interactionId: 'l1', state: 'lost' })]);
    a.openRequests()[0]?.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(() =>
      flow.answer('l1', { optionId: 'allow_once' }, { identity: { tokenId: 't', name: 'x', person: 'x', scope: 'operate' } }),
    ).toThrow(expect.objectContaining({ code: 'HUB_ERR_ALREADY_RESOLVED' }));
  });

  it('crosses the pending cap: the extra request is declined at once and logged, the others stay pending', async () => {
    fs.rmSync(root, { recursive: true, force: true });
    setup({ pendingInteractionsPerSession: 2 });
    attach(new RecorderClient());
    void ask('p1');
    void ask('p2');
    expect(await ask('p3')).toEqual({ decision: 'deny', reason: 'Too many pending requests in this session' });
    expect(core.interactions.pendingCount(SESSION)).toBe(2);
  });

  it('[APR-04] held with nobody attached; re-sent once per connection', async () => {
    const answer = ask('h1');
    expect(core.interactions.get('h1')?.view.state).toBe('pending');
    const a = new RecorderClient();
    attach(a);
    flow.resendPending(core.session(SESSION), a);
    flow.resendPending(core.session(SESSION), a);
    expect(a.requests).toHaveLength(1);
    a.openRequests()[0]?.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(await answer).toEqual(ALLOW);
  });
});

describe('interaction policy timeout (ARCHITECTURE.md §4.5, LIMITS.interactionTimeoutMs)', () => {
  afterEach(() => vi.useRealTimers());

  /**
   * A core with `ms` as its interaction timeout (none given: the default) and fake timers. The
   * session-list notices go out at once, so every timer counted below is an interaction's (a pending
   * count that changes would otherwise arm the notices' batch, LIMITS.sessionStateBatchMs).
   */
  function withTimeout(ms?: number): void {
    fs.rmSync(root, { recursive: true, force: true });
    setup({ ...(ms === undefined ? {} : { interactionTimeoutMs: ms }), sessionStateBatchMs: 0 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  }

  it('expires a pending interaction: deny shape to the child, every copy withdrawn, expired to everyone, late answer refused', async () => {
    withTimeout(50);
    const [a, b] = [new RecorderClient(), new RecorderClient()];
    attach(a, b);
    const answer = ask('e1');
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(49);
    expect(core.interactions.get('e1')?.view.state).toBe('pending');
    vi.advanceTimersByTime(1);
    expect(await answer).toEqual({ ...DENY, reason: 'Nobody answered in time' });
    expect(core.interactions.get('e1')?.view.state).toBe('expired');
    for (const c of [a, b]) {
      expect(c.cancelled).toHaveLength(1);
      expect(c.notes('_zcode/interaction_resolved')).toEqual([{ sessionId: SESSION, interactionId: 'e1', state: 'expired' }]);
    }
    expect(() => flow.answer('e1', { optionId: 'allow_once' }, { identity: a.identity })).toThrow(
      expect.objectContaining({ code: 'HUB_ERR_ALREADY_RESOLVED', details: { reason: 'settled', state: 'expired' } }),
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it('one timer per interaction, cleared on answer, cancel and lost; nothing expires afterwards', async () => {
    withTimeout(50);
    const a = new RecorderClient();
    attach(a);
    const answered = ask('t1');
    void ask('t2');
    const lost = ask('t3');
    expect(vi.getTimerCount()).toBe(3);
    a.requests[0]?.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(await answered).toEqual(ALLOW);
    expect(vi.getTimerCount()).toBe(2);
    flow.cancelSession(core.session(SESSION), connectionAuthor(a));
    expect(vi.getTimerCount()).toBe(0);
    await lost;
    vi.advanceTimersByTime(1_000);
    expect((a.notes('_zcode/interaction_resolved') as Array<{ state: string }>).map((n) => n.state)).toEqual([
      'resolved',
      'cancelled',
      'cancelled',
    ]);
    // A record settled lost clears its timer too.
    const gone = ask('t4');
    expect(vi.getTimerCount()).toBe(1);
    flow.markLost(epoch + 1);
    await gone;
    expect(vi.getTimerCount()).toBe(0);
    expect(core.interactions.get('t4')?.view.state).toBe('lost');
  });

  it('crosses the settled-records limit: the oldest settlements are forgotten, an id asked again after settling stays pending', () => {
    setup({ settledInteractionsKept: 2 });
    attach(new RecorderClient());
    const settle = (id: string) => core.interactions.settle(id, 'cancelled', DENY, { outcome: 'cancelled' });
    void ask('r1');
    settle('r1');
    void ask('r1'); // the child asks again under the same requestId
    for (const id of ['r2', 'r3', 'r4']) {
      void ask(id);
      settle(id);
    }
    expect(core.interactions.get('r1')?.view.state).toBe('pending');
    expect(core.interactions.pending().map((r) => r.view.interactionId)).toEqual(['r1']);
    expect(core.interactions.pendingCount()).toBe(1);
    expect(core.interactions.pendingCount(SESSION)).toBe(1);
    expect(core.interactions.get('r2')).toBeUndefined();
    expect(core.interactions.get('r3')?.view.state).toBe('cancelled');
    expect(core.interactions.get('r4')?.view.state).toBe('cancelled');
  });

  it('the default (0) arms no timer at all: the interaction is held', () => {
    withTimeout();
    expect(core.config.limits.interactionTimeoutMs).toBe(0);
    // 0 is a valid setting ("off"); negative is not, and limits that default above 0 still refuse 0.
    expect(buildConfig({ limits: { interactionTimeoutMs: 0 } }).limits.interactionTimeoutMs).toBe(0);
    expect(() => buildConfig({ limits: { interactionTimeoutMs: -1 } })).toThrow(ConfigError);
    expect(() => buildConfig({ limits: { stopGraceMs: 0 } })).toThrow(ConfigError);
    void ask('n1');
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(24 * 3_600_000);
    expect(core.interactions.get('n1')?.view.state).toBe('pending');
  });
});
