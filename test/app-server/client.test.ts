/**
 * The typed app-server client over the real backend link and the real simulator child: typed
 * results, checked v4 ACKs with the cold-session retry, and every failure an AppServerError
 * that is already the catalog error a client is told.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppServerClient } from '../../src/app-server/client.js';
import { AppServerError } from '../../src/app-server/errors.js';
import { createBackend } from '../../src/backend/index.js';
import { HubError } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { testConfig } from '../domain/helpers.js';
import { until } from '../helpers/until.js';

describe('AppServerClient over the simulator', () => {
  let root: string;
  let workspace: string;
  let link: ReturnType<typeof createBackend>;
  let app: AppServerClient;
  const methods: string[] = [];

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-client-'));
    const config = testConfig(root, {}, ['--unsupported-command', 'deleteSession']);
    workspace = config.workspace;
    link = createBackend(config, createLogger({ level: 'silent' }), { env: { ...process.env, HOME: root } });
    // A recording pass-through of the real link: which wire methods the client chose.
    app = new AppServerClient({ request: (method, params, options) => (methods.push(method), link.request(method, params, options)) });
    await link.start();
    await until(() => (link.status().state === 'ready' ? true : undefined), 'backend ready');
  });

  afterAll(async () => {
    await link.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates, lists and renames a session with typed results', async () => {
    const snap = await app.createSession({ cwd: workspace, mode: 'build' });
    expect(snap.session.sessionId).toMatch(/\S/);
    expect(snap.runtime.eventSeq).toBeGreaterThanOrEqual(0);
    const ack = await app.v4Command(snap.session.sessionId, 'renameSession', { title: 'typed' });
    expect(ack.status).toBe('accepted');
    const listed = await app.listSessions({ cwd: workspace });
    expect(listed.find((s) => s.sessionId === snap.session.sessionId)?.title).toBe('typed');
    expect(methods).toEqual(['session/create', 'v4/command', 'session/list']);
  });

  it('a refused ACK rejects with an ack fault mapped by its reason', async () => {
    const err = await app.v4Command('no-such-session', 'renameSession', { title: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppServerError);
    const e = err as AppServerError;
    expect(e.fault.kind).toBe('ack');
    expect(e.ackReason).toBe('proto.sessionNotFound');
    expect(e.code).toBe('HUB_ERR_SESSION_NOT_FOUND');
    expect(e.toBody().error.details).toMatchObject({ reason: 'sessionNotFound', status: 'rejected' });
  });

  it('a cold session is resumed once and the command retried with the same commandId', async () => {
    const snap = await app.createSession({ cwd: workspace });
    const id = snap.session.sessionId;
    await app.closeSession(id);
    let resumed = 0;
    const ack = await app.v4Command(
      id,
      'renameSession',
      { title: 'warm again' },
      { onColdSession: () => (resumed++, app.resumeSession({ sessionId: id })) },
    );
    expect(resumed).toBe(1);
    expect(ack.status).toBe('accepted');
    const commands = methods.slice(-3);
    expect(commands).toEqual(['v4/command', 'session/resume', 'v4/command']);
  });

  it('a command the app-server does not implement is an ack fault, not a crash', async () => {
    const snap = await app.createSession({ cwd: workspace });
    const err = (await app.v4Command(snap.session.sessionId, 'deleteSession', {}).catch((e: unknown) => e)) as AppServerError;
    expect(err.fault).toMatchObject({ kind: 'ack', ack: { status: 'failed', reasonCode: 'fault.command.notImplemented' } });
  });

  it("the child's JSON-RPC errors are rpc faults carrying its code, mapped to the catalog", async () => {
    const err = (await app.resumeSession({ sessionId: 'ses_missing' }, { noResumeRetry: true }).catch((e: unknown) => e)) as AppServerError;
    expect(err).toBeInstanceOf(HubError);
    expect(err.fault.kind).toBe('rpc');
    expect(err.isRpc(-32004)).toBe(true);
    expect(err.code).toBe('HUB_ERR_SESSION_NOT_FOUND');
  });

  it('a result that does not match its schema is a 502 with a result fault', async () => {
    // `session/messages` answers an object; read as a snapshot it has no `session`.
    const wrong = new AppServerClient({ request: (_m, p, o) => link.request('session/messages', p, o) });
    const snap = await app.createSession({ cwd: workspace });
    const err = (await wrong.resumeSession({ sessionId: snap.session.sessionId }).catch((e: unknown) => e)) as AppServerError;
    expect(err.fault.kind).toBe('result');
    expect(err.httpStatus).toBe(502);
    expect(err.toBody().error.details).toMatchObject({ reason: 'bad_result', method: 'session/resume' });
  });
});
