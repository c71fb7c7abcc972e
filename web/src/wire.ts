/**
 * Narrowing helpers for what arrives over the wire. Every frame is parsed to `unknown` and read
 * field by field through these (STYLE.md habit 3: never `JSON.parse(x) as T`); a zod runtime
 * in the phone bundle would cost more than the few fields the app actually reads.
 */
export type Rec = Record<string, unknown>;

/** The value as a plain object, or undefined. */
export function rec(v: unknown): Rec | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
}

/**
 * A payload whose shape the hub declares (src/zcode-ext/schemas.ts): its fields by the names of
 * that type (of any member, for a union), so a misspelt or renamed field is a compile error, while each value is still
 * checked where it is read.
 */
export type Fields<T> = { readonly [K in KeysOf<T>]?: unknown };
/** Every named key of every member of a union (a loose object's index signature names none). */
type KeysOf<T> = T extends unknown ? keyof { [K in keyof T as string extends K ? never : K]: T[K] } : never;

/** The value as the fields of `T`, or undefined when it is not an object. */
export function fields<T>(v: unknown): Fields<T> | undefined {
  return rec(v) as Fields<T> | undefined;
}

/** The value as a string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The value as a finite number, or undefined. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The value as a boolean, or undefined. */
export function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

/** The value as an array (empty when it is not one). */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** `obj._meta.zcode` of an ACP message, or an empty object. */
export function zmeta(obj: unknown): Rec {
  return rec(rec(rec(obj)?.['_meta'])?.['zcode']) ?? {};
}

/** A string id or a number id (JSON-RPC ids, epochs). */
export function idOf(v: unknown): string | number | undefined {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
}

/** Parses JSON text to `unknown` (undefined when it is not JSON). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
