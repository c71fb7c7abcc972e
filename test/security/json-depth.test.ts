import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildTransport } from '../../src/backend/child-transport.js';
import type { IncomingMessage } from '../../src/backend/envelope.js';
import { ServerOutput } from '../../src/backend/server-output.js';
import { LineRing } from '../../src/backend/stderr-ring.js';
import { BACKEND_BOUNDS } from '../../src/backend/bounds.js';
import { LIMITS } from '../../src/limits.js';
import { captureLogger } from '../backend/helpers.js';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';
import { rawRequest } from './helpers/raw-http.js';

/**
 * Written as the attack: JSON nested 5,000 levels deep (~30 KB) overflowed the
 * stack in the broadcaster; the sender got -32603 and the session stayed `running` for everyone.
 * Depth is bounded at every entry (a client's frame, a REST body, a line of the child), and a
 * failure while broadcasting cannot jam a session.
 */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const promptFrame = (id: number, sessionId: string, meta: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"session/prompt","params":{"sessionId":"${sessionId}","prompt":[{"type":"text","text":"hello","_meta":${meta}}]}}`;

type Rpc = { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: { code?: string } } };

async function newSession(hub: HubHarness, c: AcpWsClient): Promise<string> {
  return (await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] })).sessionId;
}

async function stateOf(hub: HubHarness, sessionId: string): Promise<string> {
  return ((await (await hub.api(`/api/sessions/${sessionId}`)).json()) as { state: string }).state;
}

describe('[SEC-13] deeply nested JSON is refused at every entry', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('a client frame nested 5,000 deep is refused with a clear error; the session stays usable for everyone', async () => {
    const attacker = await hub.initializedClient();
    const watcher = await hub.initializedClient();
    const sessionId = await newSession(hub, attacker);
    await watcher.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    attacker.sendRaw(promptFrame(901, sessionId, nested(5_000)));
    const answer = (await attacker.waitFor((ms) => ms.find((m) => m.id === 901))) as Rpc;
    expect(answer.error?.code).toBe(-32600);
    expect(answer.error?.message).toMatch(new RegExp(`nested deeper than ${LIMITS.jsonMaxDepth} levels`));
    expect(await stateOf(hub, sessionId)).toBe('idle');
    // Nothing was stuck: a normal prompt runs to its end and the other client sees it.
    const ok = await attacker.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'hello again' }],
    });
    expect(ok.stopReason).toBe('end_turn');
    await watcher.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.state === 'idle',
    );
    expect(
      watcher
        .notifications<{ update: { sessionUpdate: string } }>('session/update')
        .some((u) => u.update.sessionUpdate === 'agent_message_chunk'),
    ).toBe(true);
  });

  it('nesting exactly at the limit is accepted, one level more is refused', async () => {
    const c = await hub.initializedClient();
    const sessionId = await newSession(hub, c);
    // The frame puts 4 levels around the block's `_meta` value: envelope, params, prompt array, block.
    c.sendRaw(promptFrame(902, sessionId, nested(LIMITS.jsonMaxDepth - 4)));
    const answer = (await c.waitFor((ms) => ms.find((m) => m.id === 902))) as Rpc;
    expect(answer.error).toBeUndefined();
    c.sendRaw(promptFrame(904, sessionId, nested(LIMITS.jsonMaxDepth - 3)));
    const refused = (await c.waitFor((ms) => ms.find((m) => m.id === 904))) as Rpc;
    expect(refused.error?.message).toMatch(/nested deeper than/);
  });

  it('a REST body nested 5,000 deep answers 400 naming the limit, not 500', async () => {
    const operate = await hub.token('operate');
    for (const [method, path] of [
      ['POST', '/api/interactions/int_x/answer'],
      ['PATCH', '/api/sessions/sess_x'],
      ['POST', '/acp'],
    ] as const) {
      const res = await rawRequest(hub.daemon.port, {
        method,
        path,
        headers: { host: `127.0.0.1:${hub.daemon.port}`, authorization: `Bearer ${operate}`, 'content-type': 'application/json' },
        body: nested(5_000),
      });
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({
        error: { code: 'HUB_ERR_BAD_REQUEST', message: expect.stringMatching(/nested deeper than/) },
      });
    }
  });
});

describe('[SEC-13] a failure while broadcasting cannot jam a session', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    // The entry bound raised out of the way, so the 5,000-deep prompt reaches the broadcaster.
    hub = await startHub({ limits: { jsonMaxDepth: 1_000_000 } });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('the prompt is answered, the session goes back to idle and the next prompt runs', async () => {
    const c = await hub.initializedClient();
    const sessionId = await newSession(hub, c);
    c.sendRaw(promptFrame(903, sessionId, nested(5_000)));
    await c.waitFor((ms) => ms.find((m) => m.id === 903));
    await until(async () => ((await stateOf(hub, sessionId)) === 'idle' ? true : undefined), 'session back to idle');
    const ok = await c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'still alive' }] });
    expect(ok.stopReason).toBe('end_turn');
  });
});

describe('[SEC-13] a line of the child nested too deep is not parsed into the hub', () => {
  it('a deep notification is dropped with a log line, a deep response becomes an error for its id, the child stays up', async () => {
    const { logger, find } = captureLogger();
    const depth = 5_000;
    const script = [
      `const deep = ${JSON.stringify(nested(depth))};`,
      `process.stdout.write('{"method":"session/event","params":' + deep + '}\\n');`,
      `process.stdout.write('{"id":7,"result":' + deep + '}\\n');`,
      `process.stdout.write('{"method":"ok","params":{"n":1}}\\n');`,
      `process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`,
    ].join('\n');
    const t = new ChildTransport(
      { command: process.execPath, args: ['-e', script], env: { PATH: process.env.PATH ?? '' } },
      {
        maxLineBytes: LIMITS.childStdoutLineBytes,
        stdinQueueBytes: LIMITS.childStdinQueueBytes,
        stopGraceMs: 500,
        stderrLinesPerSecond: 50,
        stderrRing: new LineRing(10),
        logger,
        maxJsonDepth: LIMITS.jsonMaxDepth,
      },
    );
    const got: IncomingMessage[] = [];
    t.onmessage = (m) => got.push(m);
    await t.start();
    try {
      await until(() => got.find((m) => m.kind === 'notification' && m.method === 'ok'), 'the line after the deep ones');
      expect(got.filter((m) => m.kind === 'notification' && m.method === 'session/event')).toEqual([]);
      const answer = got.find((m) => (m.kind === 'error' || m.kind === 'response') && m.id === 7);
      expect(answer).toMatchObject({ kind: 'error', id: 7, error: { message: expect.stringMatching(/nested deeper than/) } });
      expect(find(/nested deeper than/).length).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});

describe('[SEC-13] a simulator child writing 5,000-deep lines among its protocol lines', () => {
  it('every turn ends and the session is idle after it; each such line is dropped with a log line, within the junk budget', async () => {
    const { logger, find } = captureLogger();
    const started = Date.now();
    const hub = await startHub({ simArgs: ['--junk-lines'], logger });
    try {
      const c = await hub.initializedClient();
      const sessionId = await newSession(hub, c);
      for (const text of ['hello', 'and again', 'once more']) {
        const done = await c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
        expect(done.stopReason).toBe('end_turn');
      }
      expect(await stateOf(hub, sessionId)).toBe('idle');
      const dropped = find(/^backend line JSON nested deeper than 128 levels: dropped$/);
      expect(dropped.length).toBeGreaterThan(0);
      expect(dropped.length).toBeLessThanOrEqual(BACKEND_BOUNDS.junkWarningsPerSecond * (Math.ceil((Date.now() - started) / 1000) + 1));
      expect(hub.daemon.backend.status()).toMatchObject({ state: 'ready', restarts: 0 });
    } finally {
      await hub.close();
    }
  });
});

describe('[SEC-13] a child writing deep lines on end cannot flood the log', () => {
  it('each is dropped and counted; they are logged within the junk lines budget, the rest summed up', () => {
    const { logger, find } = captureLogger();
    const got: IncomingMessage[] = [];
    const out = new ServerOutput(
      { maxLineBytes: LIMITS.childStdoutLineBytes, stderrLinesPerSecond: 50, stderrRing: new LineRing(10), logger },
      { message: (m) => got.push(m), oversize: () => undefined },
    );
    const deep = `{"method":"session/event","params":${nested(5_000)}}\n`;
    out.stdout(Buffer.from(`${deep.repeat(200)}{"method":"ok","params":{}}\n`));
    out.flush();
    expect(out.junkLines).toBe(200);
    expect(got.map((m) => m.kind === 'notification' && m.method)).toEqual(['ok']);
    // One budget's worth a second (the 200 lines are read in one or two of them), then one line saying how many were not logged.
    const logged = find(/nested deeper than 128 levels: dropped/).length;
    expect(logged).toBeGreaterThan(0);
    expect(logged).toBeLessThanOrEqual(2 * BACKEND_BOUNDS.junkWarningsPerSecond);
    expect(find('backend junk-line warnings not logged (rate limit)').length).toBeGreaterThanOrEqual(1);
  });
});
