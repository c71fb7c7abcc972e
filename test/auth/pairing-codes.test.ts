import { describe, expect, it } from 'vitest';
import { PairingCodes } from '../../src/auth/pairing-codes.js';
import { registerSecret } from '../security/helpers/log-capture.js';

describe('pairing codes (ARCHITECTURE.md §7)', () => {
  it('are single use and scoped', () => {
    const codes = new PairingCodes({ ttlMs: 60_000, max: 4 });
    const { code } = codes.create('view');
    registerSecret(code);
    expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(codes.redeem(code)?.scope).toBe('view');
    expect(codes.redeem(code)).toBeUndefined();
  });

  it('accept the typed forms of the same code (case, dash, spaces)', () => {
    const codes = new PairingCodes({ ttlMs: 60_000, max: 4 });
    const { code } = codes.create('operate');
    registerSecret(code);
    expect(codes.redeem(` ${code.toLowerCase().replace('-', ' ')} `)?.scope).toBe('operate');
  });

  it('expire', () => {
    let now = 1_000_000;
    const codes = new PairingCodes({ ttlMs: 5_000, max: 4, now: () => now });
    const { code } = codes.create('operate');
    registerSecret(code);
    now += 5_000;
    expect(codes.redeem(code)).toBeUndefined();
    expect(codes.size).toBe(0);
  });

  it('are bounded: past max the oldest code is dropped', () => {
    const codes = new PairingCodes({ ttlMs: 60_000, max: 2 });
    const first = codes.create('view').code;
    const second = codes.create('view').code;
    const third = codes.create('view').code;
    for (const c of [first, second, third]) registerSecret(c);
    expect(codes.size).toBe(2);
    expect(codes.redeem(first)).toBeUndefined();
    expect(codes.redeem(third)).toBeDefined();
  });
});
