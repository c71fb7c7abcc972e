/**
 * One definition of an app-server wire message, read two ways (docs/APP-SERVER.md §5.6):
 *
 * - `strict`, the simulator's reading: what the real CLI accepts — unknown keys refused, every
 *   field at its contract type. A hub bug that sends a wrong shape fails a test instead of
 *   being agreed with.
 * - `lenient`, the hub's reading of what the child sends: unknown keys kept (the server
 *   forwards internal payloads with keys its own schemas do not list), and each field's
 *   documented drift tolerated — a wider type, a default for a field older CLIs omit.
 *
 * A field is written once: a zod type read the same both ways, `drift(strict, lenient)` when
 * the hub tolerates more than the contract allows, `unread(strict)` for a field the hub passes
 * through untyped, `legacy(lenient)` for an old spelling only the hub still reads, or a nested
 * message (`.field()`, `.optional()`, `.list()`), whose own readings are used on each side. Both readings are derived here, so
 * they cannot disagree about which fields a message has.
 */
import { z } from 'zod';

/** A field whose hub reading tolerates drift the contract does not allow. */
export interface Drift<S extends z.ZodType, L extends z.ZodType> {
  readonly strict: S;
  readonly lenient: L;
}

/** A field read differently: `strict` as the CLI checks it, `lenient` as the hub tolerates it. */
export function drift<S extends z.ZodType, L extends z.ZodType>(strict: S, lenient: L): Drift<S, L> {
  return { strict, lenient };
}

/** A field the contract types narrowly and the hub reads as any optional string. */
export function asString<S extends z.ZodType>(strict: S): Drift<S, z.ZodOptional<z.ZodString>> {
  return drift(strict, z.string().optional());
}

/** A field the contract types narrowly and the hub reads as any optional number. */
export function asNumber<S extends z.ZodType>(strict: S): Drift<S, z.ZodOptional<z.ZodNumber>> {
  return drift(strict, z.number().optional());
}

/**
 * A field of the contract the hub does not read: checked by the strict reading, passed through
 * untyped by the lenient one, so its drift never costs the hub a message.
 */
export function unread<S extends z.ZodType>(strict: S): Drift<S, z.ZodOptional<z.ZodUnknown>> {
  return { strict, lenient: z.unknown().optional() };
}

/**
 * A field the contract no longer has but older CLIs still send (an old spelling): read by the
 * lenient reading only; the strict one refuses it like any unknown key.
 */
export interface Legacy<L extends z.ZodType> {
  readonly legacy: L;
}

/** A legacy field; see `Legacy`. */
export function legacy<L extends z.ZodType>(lenient: L): Legacy<L> {
  return { legacy: lenient };
}

type Field = z.ZodType | Drift<z.ZodType, z.ZodType> | Legacy<z.ZodType>;
type Fields = Record<string, Field>;

type StrictOf<F> = F extends Drift<infer S, z.ZodType> ? S : F extends z.ZodType ? F : never;
type LenientOf<F> = F extends Drift<z.ZodType, infer L> ? L : F extends Legacy<infer L> ? L : F extends z.ZodType ? F : never;
type StrictShape<D extends Fields> = { -readonly [K in keyof D as D[K] extends Legacy<z.ZodType> ? never : K]: StrictOf<D[K]> };
type LenientShape<D extends Fields> = { -readonly [K in keyof D]: LenientOf<D[K]> };

/** A wire message: its two readings, and how to embed it in another message. */
export interface Message<D extends Fields> {
  readonly strict: z.ZodObject<StrictShape<D>, z.core.$strict>;
  readonly lenient: z.ZodObject<LenientShape<D>, z.core.$loose>;
  /** This message as a required field of another. */
  field(): Drift<Message<D>['strict'], Message<D>['lenient']>;
  /** This message as an optional field of another. */
  optional(): Drift<z.ZodOptional<Message<D>['strict']>, z.ZodOptional<Message<D>['lenient']>>;
  /** An array of this message as a field of another (`min`: fewest entries, on both readings). */
  list(min?: number): Drift<z.ZodArray<Message<D>['strict']>, z.ZodArray<Message<D>['lenient']>>;
}

/** Defines a message by its fields; see the module comment. */
export function message<const D extends Fields>(fields: D): Message<D> {
  const strictShape: Record<string, z.ZodType> = {};
  const lenientShape: Record<string, z.ZodType> = {};
  for (const [key, f] of Object.entries(fields)) {
    if (f instanceof z.ZodType) {
      strictShape[key] = f;
      lenientShape[key] = f;
    } else if ('legacy' in f) {
      lenientShape[key] = f.legacy;
    } else {
      strictShape[key] = f.strict;
      lenientShape[key] = f.lenient;
    }
  }
  const strict = z.strictObject(strictShape) as unknown as Message<D>['strict'];
  const lenient = z.looseObject(lenientShape) as unknown as Message<D>['lenient'];
  return {
    strict,
    lenient,
    field: () => drift(strict, lenient),
    optional: () => drift(strict.optional(), lenient.optional()),
    list: (min = 0) => drift(z.array(strict).min(min), z.array(lenient).min(min)),
  };
}

/** What a message is as the CLI sends it (and the simulator builds it): its strict reading's type. */
export type Sent<M extends { readonly strict: z.ZodType }> = z.infer<M['strict']>;
