import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idKey, parseEnvelope, RpcIdSchema } from '../../src/backend/envelope.js';

describe('envelope classification (APP-SERVER.md §1.3, CHD-03)', () => {
  it('classifies the four message classes', () => {
    expect(parseEnvelope('{"id":"server-1","method":"interaction/browserList","params":{}}')).toEqual({
      ok: true,
      message: { kind: 'request', id: 'server-1', method: 'interaction/browserList', params: {} },
    });
    expect(parseEnvelope('{"method":"session/event","params":{"seq":1}}')).toEqual({
      ok: true,
      message: { kind: 'notification', method: 'session/event', params: { seq: 1 } },
    });
    expect(parseEnvelope('{"id":3,"result":{}}')).toEqual({ ok: true, message: { kind: 'response', id: 3, result: {} } });
    expect(parseEnvelope('{"id":3,"result":null}')).toEqual({ ok: true, message: { kind: 'response', id: 3, result: null } });
    expect(parseEnvelope('{"id":4,"error":{"code":-32004,"message":"Session is not active: s"}}')).toEqual({
      ok: true,
      message: { kind: 'error', id: 4, error: { code: -32004, message: 'Session is not active: s' } },
    });
  });

  it('skips non-JSON and JSON that is no envelope', () => {
    expect(parseEnvelope('hello world')).toMatchObject({ ok: false, reason: 'not-json' });
    for (const junk of [
      '42',
      'null',
      '"text"',
      '[{"id":1,"result":{}}]',
      '{"hello":"world"}',
      '{"id":1.5,"result":{}}',
      '{"id":null,"result":{}}',
      '{"id":1,"result":{},"error":{"code":1,"message":"x"}}',
      '{"method":"  "}',
      '{"id":1,"error":{"code":"x","message":"m"}}',
    ]) {
      expect(parseEnvelope(junk), junk).toMatchObject({ ok: false, reason: 'not-envelope' });
    }
  });

  it("refuses a request or notification with a bad method or id, in the schemas' words", () => {
    // The well-formed case is checked without the schemas (the hot path); everything it refuses
    // must still be refused, and worded by them.
    for (const [line, detail] of [
      ['{"method":"  ","params":{}}', 'method: must not be blank'],
      ['{"method":7}', 'method'],
      ['{"method":null,"id":1}', 'method'],
      ['{"id":1.5,"method":"m"}', 'id'],
      ['{"id":9007199254740993,"method":"m"}', 'id'],
      ['{"id":null,"method":"m"}', 'id'],
      ['{"id":{},"method":"m","params":[]}', 'id'],
    ] as const) {
      const out = parseEnvelope(line);
      expect(out, line).toMatchObject({ ok: false, reason: 'not-envelope' });
      expect(out.ok ? '' : out.detail, line).toContain(detail);
    }
    expect(parseEnvelope('{"id":-0,"method":"m"}')).toEqual({
      ok: true,
      message: { kind: 'request', id: -0, method: 'm', params: undefined },
    });
    expect(parseEnvelope('{"method":" m ","x":1}')).toEqual({
      ok: true,
      message: { kind: 'notification', method: ' m ', params: undefined },
    });
  });

  it('classifies every mix of method, id and params exactly as the request and notification schemas do', () => {
    // The schemas of APP-SERVER.md §1.3 as written in envelope.ts; the plain check in front of
    // them must accept exactly what they accept, and hand on the same values.
    const nonBlank = z.string().refine((s) => s.trim().length > 0);
    const request = z.object({ id: RpcIdSchema, method: nonBlank, params: z.unknown().optional() });
    const notification = z.object({ method: nonBlank, params: z.unknown().optional() });
    const ABSENT = Symbol('absent');
    const methods = [ABSENT, 'session/event', ' m ', '', '  ', '\t\n', 0, null, true, {}, []];
    const ids = [ABSENT, 0, -0, 7, -3, 1.5, 2 ** 53, 2 ** 53 - 1, '', '5', null, true, {}, []];
    const params = [ABSENT, undefined, null, {}, [], 'p', 3];
    let accepted = 0;
    for (const method of methods)
      for (const id of ids)
        for (const p of params) {
          if (method === ABSENT) continue;
          const o: Record<string, unknown> = { method };
          if (id !== ABSENT) o['id'] = id;
          if (p !== ABSENT && p !== undefined) o['params'] = p;
          const line = JSON.stringify(o);
          // JSON has no -0 on the wire; the line is what the child writes.
          const value = JSON.parse(line) as Record<string, unknown>;
          const schema = Object.hasOwn(value, 'id') ? request : notification;
          const expected = schema.safeParse(value);
          const out = parseEnvelope(line);
          expect(out.ok, line).toBe(expected.success);
          if (!out.ok || !expected.success) continue;
          accepted++;
          const data = expected.data as { id?: unknown; method: string; params?: unknown };
          expect(out.message, line).toEqual(
            Object.hasOwn(value, 'id')
              ? { kind: 'request', id: data.id, method: data.method, params: data.params }
              : { kind: 'notification', method: data.method, params: data.params },
          );
        }
    expect(accepted).toBeGreaterThan(50);
  });

  it('keeps string and integer ids apart', () => {
    expect(idKey(5)).not.toBe(idKey('5'));
  });
});
