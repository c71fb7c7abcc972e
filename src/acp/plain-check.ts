/**
 * A loose object schema's well-formed case as a plain predicate, derived once from the schema
 * itself. Reading every streamed event through zod costs the hub a copy of the event, its
 * payload and a result object per field, for each of hundreds of events a second (BENCHMARKS.md,
 * eighth session): nearly all of them are already exactly what the schema reads. The predicate
 * is true only when zod would accept the value *and hand it back unchanged* (a loose object
 * keeps unknown keys; no default, preprocess or coercion applies), so the caller may use the
 * value as it is and leave everything else — the repairs, the error wording — to zod.
 *
 * Only flat fields are understood: string (with a minimum length), finite number (integer,
 * lower bound), boolean, string enum, unknown, and `.optional()` of those. A schema with any
 * other field or check gets no predicate (`undefined`): its values always go through zod.
 */
import type { z } from 'zod';

type Check = (v: unknown) => boolean;

/** Minimal view of zod's definitions (`schema._zod.def`), read once per schema. */
interface Def {
  type: string;
  checks?: ReadonlyArray<{ _zod: { def: CheckDef } }>;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  entries?: Record<string, unknown>;
  coerce?: boolean;
}
interface CheckDef {
  check: string;
  minimum?: number;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The predicate of a loose object schema of flat fields, or `undefined` when it has anything else. */
export function plainCheck(schema: z.ZodType): Check | undefined {
  const def = defOf(schema);
  if (def.type !== 'object' || !def.shape || !def.catchall || defOf(def.catchall).type !== 'unknown') return undefined;
  const fields: Array<[string, Check]> = [];
  for (const [key, field] of Object.entries(def.shape)) {
    const check = fieldCheck(field);
    if (!check) return undefined;
    fields.push([key, check]);
  }
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const o = v as Record<string, unknown>;
    for (const [key, check] of fields) if (!check(o[key])) return false;
    return true;
  };
}

function fieldCheck(schema: z.ZodType): Check | undefined {
  const def = defOf(schema);
  if (def.coerce) return undefined;
  switch (def.type) {
    case 'optional': {
      const inner = def.innerType && fieldCheck(def.innerType);
      return inner && ((v) => v === undefined || inner(v));
    }
    case 'unknown':
      return () => true;
    case 'boolean':
      return def.checks?.length ? undefined : (v) => typeof v === 'boolean';
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      if (!values.every((x) => typeof x === 'string') || def.checks?.length) return undefined;
      return (v) => typeof v === 'string' && values.includes(v);
    }
    case 'string':
      return stringCheck(def.checks ?? []);
    case 'number':
      return numberCheck(def.checks ?? []);
    default:
      return undefined;
  }
}

function stringCheck(checks: NonNullable<Def['checks']>): Check | undefined {
  let min = 0;
  for (const { _zod } of checks) {
    if (_zod.def.check !== 'min_length' || typeof _zod.def.minimum !== 'number') return undefined;
    min = Math.max(min, _zod.def.minimum);
  }
  return (v) => typeof v === 'string' && v.length >= min;
}

function numberCheck(checks: NonNullable<Def['checks']>): Check | undefined {
  let integer = false;
  let lower = Number.NEGATIVE_INFINITY;
  let inclusive = true;
  for (const { _zod } of checks) {
    const c = _zod.def;
    if (c.check === 'number_format' && c.format === 'safeint') integer = true;
    else if (c.check === 'greater_than' && typeof c.value === 'number') {
      // The strictest bound wins (at one value, an exclusive bound is the stricter).
      if (c.value > lower) [lower, inclusive] = [c.value, c.inclusive === true];
      else if (c.value === lower) inclusive &&= c.inclusive === true;
    } else return undefined;
  }
  return (v) =>
    typeof v === 'number' && Number.isFinite(v) && (!integer || Number.isSafeInteger(v)) && (inclusive ? v >= lower : v > lower);
}
