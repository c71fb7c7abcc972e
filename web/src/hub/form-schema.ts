/**
 * Reads an elicitation `requestedSchema` (ACP ElicitationSchema: flat object of string /
 * number / integer / boolean / multi-select properties) into the fields a sheet renders, and
 * turns what the user entered back into `content`. The hub's question form (APP-SERVER.md §14.6:
 * `q_<i>` choice + `q_<i>_other` free text, `__skip__`) and its plan
 * feedback form are both ordinary instances of this.
 */
import { arr, bool, num, rec, str } from '../wire.js';

export interface ChoiceOption {
  value: string;
  label: string;
  description?: string;
}
export type FormField =
  | { type: 'choice'; key: string; title: string; description?: string; options: ChoiceOption[]; multi: boolean; required: boolean }
  | { type: 'text'; key: string; title: string; description?: string; required: boolean }
  | { type: 'number'; key: string; title: string; description?: string; integer: boolean; required: boolean }
  | { type: 'boolean'; key: string; title: string; description?: string; required: boolean };

export type FormValue = string | string[] | boolean;

function choices(prop: Record<string, unknown>): ChoiceOption[] {
  const titled = arr(prop['oneOf']).length ? arr(prop['oneOf']) : arr(prop['anyOf']);
  if (titled.length) {
    return titled.flatMap((o) => {
      const r = rec(o);
      const value = str(r?.['const']);
      return value === undefined ? [] : [{ value, label: str(r?.['title']) ?? value, description: str(r?.['description']) }];
    });
  }
  return arr(prop['enum']).flatMap((v) => (typeof v === 'string' ? [{ value: v, label: v }] : []));
}

/** The fields of a requested schema, in property order. Unknown property types are skipped. */
export function fieldsOf(schema: unknown): FormField[] {
  const s = rec(schema);
  const props = rec(s?.['properties']) ?? {};
  const required = new Set(arr(s?.['required']).filter((k): k is string => typeof k === 'string'));
  const out: FormField[] = [];
  for (const [key, raw] of Object.entries(props)) {
    const prop = rec(raw);
    if (!prop) continue;
    const title = str(prop['title']) ?? key;
    const description = str(prop['description']);
    const base = { key, title, ...(description ? { description } : {}), required: required.has(key) };
    switch (prop['type']) {
      case 'string': {
        const opts = choices(prop);
        out.push(opts.length ? { ...base, type: 'choice', options: opts, multi: false } : { ...base, type: 'text' });
        break;
      }
      case 'array': {
        const opts = choices(rec(prop['items']) ?? {});
        if (opts.length) out.push({ ...base, type: 'choice', options: opts, multi: true });
        break;
      }
      case 'number':
      case 'integer':
        out.push({ ...base, type: 'number', integer: prop['type'] === 'integer' });
        break;
      case 'boolean':
        out.push({ ...base, type: 'boolean' });
        break;
      default:
        break;
    }
  }
  return out;
}

/** Initial values from the schema's `default`s. */
export function defaultsOf(schema: unknown): Record<string, FormValue> {
  const props = rec(rec(schema)?.['properties']) ?? {};
  const out: Record<string, FormValue> = {};
  for (const [key, raw] of Object.entries(props)) {
    const d = rec(raw)?.['default'];
    if (typeof d === 'string' || typeof d === 'boolean') out[key] = d;
    else if (Array.isArray(d)) out[key] = d.filter((x): x is string => typeof x === 'string');
    else if (typeof d === 'number') out[key] = String(d);
  }
  return out;
}

/** `content` of an accept: blanks are left out (a blank question is a skipped question, §6.3). */
export function contentOf(fields: FormField[], values: Record<string, FormValue>): Record<string, string | string[] | number | boolean> {
  const out: Record<string, string | string[] | number | boolean> = {};
  for (const f of fields) {
    const v = values[f.key];
    if (v === undefined) continue;
    switch (f.type) {
      case 'choice':
        if (f.multi && Array.isArray(v) && v.length) out[f.key] = v;
        else if (!f.multi && typeof v === 'string' && v !== '') out[f.key] = v;
        break;
      case 'text':
        if (typeof v === 'string' && v.trim() !== '') out[f.key] = v;
        break;
      case 'number': {
        const n = typeof v === 'string' ? Number(v) : NaN;
        if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(n)) out[f.key] = f.integer ? Math.trunc(n) : n;
        break;
      }
      case 'boolean':
        if (typeof v === 'boolean') out[f.key] = v;
        break;
    }
  }
  return out;
}

/** Required fields still empty (the submit button stays disabled until none are). */
export function missingRequired(fields: FormField[], values: Record<string, FormValue>): string[] {
  const content = contentOf(fields, values);
  return fields.filter((f) => f.required && !(f.key in content)).map((f) => f.key);
}

/** True for a boolean field's value (helper for checkbox rendering). */
export function isChecked(v: FormValue | undefined): boolean {
  return bool(v) ?? false;
}

/** A number value for display. */
export function numberText(v: FormValue | undefined): string {
  return typeof v === 'string' ? v : String(num(v) ?? '');
}
