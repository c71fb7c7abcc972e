import { describe, expect, it } from 'vitest';
import { ackError, ackSucceeded, isExpectedError, shortReason, toHubError, workflowFailureError } from '../../src/backend-errors.js';
import { HUB_ERRORS, HubError, type HubErrorCode } from '../../src/errors.js';
import { BackendFailure, BackendRpcError, type BackendFailureKind } from '../../src/ports/backend-port.js';

/**
 * The one mapping of app-server failures into the catalog. Before it there were three that
 * disagreed: the child's -32010 was 409 through the settings routes but 502 through the domain,
 * "overloaded" 429 over ACP but 503 over REST, -32602 400 or 502 depending on the caller.
 */
describe('toHubError: local failures of the link', () => {
  it.each<[BackendFailureKind, HubErrorCode, number]>([
    ['timeout', 'HUB_ERR_BACKEND_TIMEOUT', 504],
    ['gone', 'HUB_ERR_BACKEND_UNAVAILABLE', 503],
    ['closed', 'HUB_ERR_BACKEND_UNAVAILABLE', 503],
    ['not_running', 'HUB_ERR_BACKEND_UNAVAILABLE', 503],
    ['overloaded', 'HUB_ERR_BACKEND_UNAVAILABLE', 503],
  ])('%s → %s (%i), keeps the link message, reason in details', (kind, code, http) => {
    const e = toHubError(new BackendFailure(kind, 'session/send', 'x'));
    expect(e.code).toBe(code);
    expect(e.httpStatus).toBe(http);
    expect(e.message).toBe('x');
    expect(e.details).toEqual({ reason: kind, method: 'session/send' });
  });
});

describe('toHubError: JSON-RPC errors of the child (APP-SERVER.md §10)', () => {
  it.each<[number, string, HubErrorCode, number]>([
    [-32602, 'Invalid params — (root): Unrecognized key: "x"', 'HUB_ERR_BAD_REQUEST', 400],
    [-32601, 'Method not found: v4/command', 'HUB_ERR_NOT_SUPPORTED', 501],
    [-32004, 'Session not found: sess_1', 'HUB_ERR_SESSION_NOT_FOUND', 404],
    [-32004, 'Session is not active: sess_1', 'HUB_ERR_SESSION_NOT_FOUND', 404],
    [-32004, 'Cannot resolve assistant message for turnIndex=9', 'HUB_ERR_NOT_FOUND', 404],
    [-32010, 'A prompt is already running for this session', 'HUB_ERR_SESSION_BUSY', 409],
    [-32010, 'Cannot fork while a prompt is running', 'HUB_ERR_SESSION_BUSY', 409],
    [-32009, 'Session state revision mismatch', 'HUB_ERR_CONFLICT', 409],
    [-32603, 'fault.workflowRunNodeResult.notFound: n1', 'HUB_ERR_NOT_FOUND', 404],
    [-32603, 'capability not supported by this session runtime: workflows (session s)', 'HUB_ERR_UNPROCESSABLE', 422],
    [-32603, 'Reasoning level is required for GLM-5.3', 'HUB_ERR_BACKEND', 502],
    [-32031, 'Background task cancellation is not supported by this session runtime', 'HUB_ERR_BACKEND', 502],
  ])('%i %s → %s (%i)', (rpc, message, code, http) => {
    const e = toHubError(new BackendRpcError('m', rpc, message));
    expect(e.code).toBe(code);
    expect(e.httpStatus).toBe(http);
    expect(e.message).toBe(message);
    expect(e.details).toMatchObject({ rpcCode: rpc, method: 'm' });
    expect(e.toRpc().data.code).toBe(code);
  });

  it('redacts the message it shows', () => {
    const e = toHubError(new BackendRpcError('provider/testModelConnectivity', -32603, 'bad key sk-secret-123'), (t) =>
      t.replace(/sk-[\w-]+/g, '[redacted]'),
    );
    expect(e.message).toBe('bad key [redacted]');
  });
});

describe('toHubError: everything else', () => {
  it('keeps a HubError as it is', () => {
    const e = new HubError('HUB_ERR_FORBIDDEN');
    expect(toHubError(e)).toBe(e);
  });

  it('turns an unexpected error into an internal error that says nothing about it', () => {
    const e = toHubError(new TypeError('Cannot read properties of undefined (reading "x") at /srv/hub/src/domain/hub.ts:12'));
    expect(e.code).toBe('HUB_ERR_INTERNAL');
    expect(e.message).toBe(HUB_ERRORS.HUB_ERR_INTERNAL.message);
    expect(isExpectedError(new TypeError('x'))).toBe(false);
    expect(isExpectedError(new BackendFailure('gone', 'm', 'x'))).toBe(true);
  });
});

describe('v4 ACKs and workflow results (§7.2, §8)', () => {
  it('success is accepted, noop or duplicate', () => {
    expect(['accepted', 'noop', 'duplicate', 'rejected', 'stale', 'failed'].map((status) => ackSucceeded({ status }))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('maps a failed ACK by its short reason', () => {
    expect(shortReason('fault.command.savedWorkflowStartRejected.compile_failed')).toBe('compile_failed');
    const e = ackError('startSavedWorkflow', {
      status: 'failed',
      reasonCode: 'fault.command.savedWorkflowStartRejected.compile_failed',
      message: 'SyntaxError',
    });
    expect([e.code, e.httpStatus, e.message]).toEqual(['HUB_ERR_UNPROCESSABLE', 422, 'startSavedWorkflow failed: SyntaxError']);
    expect(e.details).toEqual({
      reason: 'compile_failed',
      reasonCode: 'fault.command.savedWorkflowStartRejected.compile_failed',
      status: 'failed',
    });
    expect(ackError('sendText', { status: 'rejected', reasonCode: 'proto.sessionNotFound' }).code).toBe('HUB_ERR_SESSION_NOT_FOUND');
    expect(ackError('stop', { status: 'stale' }).details).toMatchObject({ reason: 'stale', reasonCode: 'status.stale' });
  });

  it('maps a workflows/* failure by its reason', () => {
    expect(workflowFailureError('workflows/move', { reason: 'target_exists', path: '/w/a.js' }, 'a').toBody()).toEqual({
      error: {
        code: 'HUB_ERR_CONFLICT',
        message: 'Workflow "a" could not be copied into the project: a workflow of that name is already there and is never overwritten.',
        details: { reason: 'target_exists', path: '/w/a.js' },
      },
    });
    const unknown = workflowFailureError('workflows/get', { reason: 'something_new', detail: 'disk on fire' }, 'b');
    expect(unknown.code).toBe('HUB_ERR_BACKEND');
    expect(unknown.message).toBe('Workflow "b" could not be read: the agent refused it (something_new) (disk on fire).');
  });

  it('words every workflows/* reason the agent documents as a sentence, never the bare code', () => {
    const reasons = [
      'invalid_name',
      'not_found',
      'parse_error',
      'read_error',
      'write_error',
      'target_exists',
      'run_not_found',
      'script_missing',
      'compile_failed',
    ];
    for (const reason of reasons) {
      const message = workflowFailureError('workflows/save', { reason }, 'x').message;
      expect(message, reason).toMatch(/^The run could not be saved as workflow "x": [a-z].*\.$/);
      expect(message, reason).not.toContain(reason);
    }
  });
});
