import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plainCheck } from '../../src/acp/plain-check.js';
import { EVENT_PAYLOAD_SCHEMAS, parseSessionEvent, sessionEventEnvelopeSchema } from '../../src/acp/zcode-event-schema.js';

/** Field values of every JSON kind, and the edges of the checks the predicate understands. */
const POOL: unknown[] = [undefined, null, '', 'x', 'desktop-continuous', 0, -1, 1.5, 2 ** 60, true, false, {}, [], { a: 1 }];

/** A small deterministic PRNG, so a failure names a value that can be replayed. */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function samples(schema: z.ZodType, count: number, seed: number): Array<Record<string, unknown>> {
  const keys = Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape);
  const next = rng(seed);
  const out: Array<Record<string, unknown>> = [];
  for (let k = 0; k < count; k++) {
    const v: Record<string, unknown> = {};
    for (const key of keys) {
      const value = POOL[Math.floor(next() * POOL.length)];
      if (value !== undefined) v[key] = value;
    }
    if (next() < 0.3) v['extra'] = { kept: true };
    out.push(v);
  }
  return out;
}

/** Each field at a value its own schema accepts (found in the pool), so the well-formed case is reached too. */
function wellFormed(schema: z.ZodObject): Record<string, unknown> {
  const v: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const ok = POOL.find((x) => x !== undefined && (field as z.ZodType).safeParse(x).success);
    if (ok !== undefined) v[key] = ok;
  }
  return v;
}

const SCHEMAS: Array<[string, z.ZodType]> = [['envelope', sessionEventEnvelopeSchema], ...Object.entries(EVENT_PAYLOAD_SCHEMAS)];

describe('plain checks of loose schemas (the streamed events read without zod)', () => {
  it('accepts only what zod accepts and hands back unchanged', () => {
    let withCheck = 0;
    for (const [name, schema] of SCHEMAS) {
      const check = plainCheck(schema);
      if (!check) continue;
      withCheck++;
      let accepted = 0;
      const base = wellFormed(schema as z.ZodObject);
      // The well-formed value with one field changed to each value of the pool, then random mixes.
      const oneOff = Object.keys(base).flatMap((key) => POOL.map((value) => ({ ...base, [key]: value })));
      const values = [base, ...oneOff, ...samples(schema, 400, name.length)];
      for (const v of values) {
        if (!check(v)) continue;
        accepted++;
        const r = schema.safeParse(v);
        expect(r.success, `${name} ${JSON.stringify(v)}`).toBe(true);
        expect(r.data, `${name} ${JSON.stringify(v)}`).toEqual(v);
      }
      expect(accepted, `${name}: the well-formed case is taken`).toBeGreaterThan(0);
    }
    // The envelope and the streaming payload are the hot ones; most payloads are flat.
    expect(plainCheck(sessionEventEnvelopeSchema)).toBeDefined();
    expect(plainCheck(EVENT_PAYLOAD_SCHEMAS['model.streaming'])).toBeDefined();
    expect(withCheck).toBeGreaterThan(10);
  });

  it('refuses non-objects, and gives no check to a schema it does not understand', () => {
    const check = plainCheck(z.looseObject({ a: z.string().optional() }));
    for (const v of [null, [], 'x', 1, undefined]) expect(check?.(v)).toBe(false);
    expect(check?.({ b: 1 })).toBe(true);
    expect(plainCheck(z.looseObject({ a: z.string().default('') }))).toBeUndefined();
    expect(plainCheck(z.looseObject({ a: z.union([z.string(), z.number()]) }))).toBeUndefined();
    expect(plainCheck(z.looseObject({ a: z.string().max(3) }))).toBeUndefined();
    expect(plainCheck(z.looseObject({ a: z.looseObject({}) }))).toBeUndefined();
    // A stripping or strict object changes or refuses unknown keys: not "unchanged".
    expect(plainCheck(z.object({ a: z.string() }))).toBeUndefined();
    expect(plainCheck(z.strictObject({ a: z.string() }))).toBeUndefined();
  });

  it('keeps the strictest number bound', () => {
    const check = plainCheck(z.looseObject({ n: z.number().int().nonnegative().gt(0) }));
    expect([0, 1, 1.5, -1].map((n) => check?.({ n }))).toEqual([false, true, false, false]);
  });

  it('parses a streamed event to what the schemas read, with or without the plain path', () => {
    const params = {
      eventId: 'evt_1',
      sessionId: 'ses_1',
      seq: 3,
      timestamp: 1,
      type: 'model.streaming',
      payload: { kind: 'text_delta', delta: 'hi', done: false, assistantMessageId: 'msg_1', partId: 'prt_1', simSentAt: 1.5 },
      deliveryKind: 'web-remote-replayable',
    };
    const parsed = parseSessionEvent(params);
    expect(parsed).toEqual({ kind: 'event', event: params, dropped: [] });
    // A field zod must repair (a null delta) still goes through zod: dropped and reported.
    const drifted = parseSessionEvent({ ...params, payload: { ...params.payload, delta: null } });
    expect(drifted).toMatchObject({ kind: 'event', dropped: ['payload.delta (null)'] });
    expect(drifted.kind === 'event' && 'delta' in drifted.event.payload).toBe(false);
  });
});
