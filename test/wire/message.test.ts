/**
 * One definition, two readings (src/wire/message.ts): the strict reading refuses what the CLI
 * refuses, the lenient one keeps unknown keys and tolerates each field's documented drift.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseLenient } from '../../src/acp/lenient-parse.js';
import { permissionOptions } from '../../src/simulator/scenarios/tools.js';
import { permissionOption, requestPermissionParams, userInputResult } from '../../src/wire/interactions.js';
import { drift, message, unread } from '../../src/wire/message.js';

const request = {
  requestId: 'perm-1',
  sessionId: 'ses-1',
  toolCallId: 'call-1',
  toolName: 'Bash',
  reason: 'run a command',
  riskLevel: 'low',
  input: { command: 'ls' },
  options: permissionOptions('Bash', { command: 'ls' }),
};

describe('a wire message read strictly and leniently', () => {
  it('reads a well-formed message the same both ways', () => {
    expect(requestPermissionParams.strict.parse(request)).toEqual(request);
    expect(requestPermissionParams.lenient.parse(request)).toEqual(request);
  });

  it('an unknown field: strict refuses it, lenient keeps it', () => {
    const extra = { ...request, uiHint: 'compact' };
    const strict = requestPermissionParams.strict.safeParse(extra);
    expect(strict.success).toBe(false);
    expect(strict.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['uiHint'] });
    expect(requestPermissionParams.lenient.parse(extra)).toMatchObject({ uiHint: 'compact' });
  });

  it('an unknown field inside a nested message: refused strictly, kept leniently', () => {
    const [first, ...rest] = request.options;
    const extra = { ...request, options: [{ ...first, icon: 'check' }, ...rest] };
    expect(requestPermissionParams.strict.safeParse(extra).success).toBe(false);
    expect(requestPermissionParams.lenient.parse(extra).options[0]).toMatchObject({ icon: 'check' });
  });

  it('a drifted type: strict refuses, lenient takes the wider type', () => {
    const drifted = { ...request, riskLevel: 'severe' };
    expect(requestPermissionParams.strict.safeParse(drifted).success).toBe(false);
    expect(requestPermissionParams.lenient.parse(drifted).riskLevel).toBe('severe');
  });

  it('a field an older CLI omits: strict refuses, lenient fills the documented default', () => {
    const { reason: _r, riskLevel: _k, ...older } = request;
    expect(requestPermissionParams.strict.safeParse(older).success).toBe(false);
    expect(requestPermissionParams.lenient.parse(older)).toMatchObject({ reason: '', riskLevel: 'medium' });
  });

  it('a field the hub does not read: checked strictly, passed through leniently', () => {
    const withOrigin = { ...request, origin: { kind: 'subagent', parentSessionId: 'ses-0', agentId: 7 } };
    expect(requestPermissionParams.strict.safeParse(withOrigin).success).toBe(false);
    expect(requestPermissionParams.lenient.parse(withOrigin).origin).toEqual(withOrigin.origin);
  });

  it('a bad optional field under parseLenient: dropped and reported, the rest kept', () => {
    const option = { ...request.options[0], description: 5 };
    expect(permissionOption.strict.safeParse(option).success).toBe(false);
    const r = parseLenient(permissionOption.lenient, option);
    expect(r).toMatchObject({ success: true, dropped: ['description (number)'] });
    expect(r.success && r.data.optionId).toBe('allow_once');
  });

  it('what both readings require, both refuse', () => {
    const { toolCallId: _t, ...missing } = request;
    expect(requestPermissionParams.strict.safeParse(missing).success).toBe(false);
    expect(requestPermissionParams.lenient.safeParse(missing).success).toBe(false);
    expect(userInputResult.strict.safeParse({ action: 'maybe' }).success).toBe(false);
    expect(userInputResult.lenient.safeParse({ action: 'maybe' }).success).toBe(false);
  });

  it('derives both readings of a small definition by the rules of message.ts', () => {
    const m = message({
      id: z.string(),
      level: drift(z.enum(['a', 'b']), z.string().default('a')),
      note: unread(z.string().optional()),
    });
    expect(m.strict.safeParse({ id: 'x', level: 'a', note: 1 }).success).toBe(false);
    expect(m.lenient.parse({ id: 'x', note: 1, more: true })).toEqual({ id: 'x', level: 'a', note: 1, more: true });
    const listed = [{ id: 'x', level: 'b', extra: 1 }];
    expect(m.list().strict.safeParse(listed).success).toBe(false);
    expect(m.list().lenient.parse(listed)).toEqual(listed);
    expect(m.list(1).lenient.safeParse([]).success).toBe(false);
  });
});
