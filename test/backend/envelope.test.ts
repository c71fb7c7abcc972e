import { describe, expect, it } from 'vitest';
import { idKey, parseEnvelope } from '../../src/backend/envelope.js';

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

  it('keeps string and integer ids apart', () => {
    expect(idKey(5)).not.toBe(idKey('5'));
  });
});
