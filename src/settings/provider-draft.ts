/**
 * A lenient reading of the provider file: just enough structure to find rules by id, with
 * every unknown key kept. Edits are applied to this draft and the *result* is then validated
 * strictly (§9.2), which is what lets a write repair a file that is invalid on disk (delete the
 * offending provider, restore a key…) while a partial edit can never make things worse: if
 * the result does not validate, nothing is written.
 */
import { z } from 'zod';
import { emptyProviderDocument } from './provider-schema.js';

const jsonObject = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof jsonObject>;

export const providerDraftSchema = z.looseObject({
  schemaVersion: z.unknown(),
  config: z.looseObject({
    providerOrder: z.unknown().optional(),
    providerConfigRules: z.looseObject({ providerRules: z.array(jsonObject) }),
    modelConfigRules: z.looseObject({
      providerModelRules: z.array(jsonObject),
      manualProviderModelRules: z.array(jsonObject),
    }),
    defaultModelSelection: z.unknown().optional(),
  }),
});

export type ProviderDraft = z.infer<typeof providerDraftSchema>;

/** Parses raw JSON into a draft, or null when even the skeleton is missing. */
export function toDraft(raw: unknown): ProviderDraft | null {
  const parsed = providerDraftSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** The draft of a missing file: an empty valid document (§9.3 "missing file: treated as empty"). */
export function emptyDraft(): ProviderDraft {
  const parsed = providerDraftSchema.parse(emptyProviderDocument());
  return parsed;
}

/** Reads a key of an unknown value when it is an object. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject)[key] : undefined;
}

/** Copy of an unknown value as an object (non-objects become `{}`), so edits never mutate the input. */
export function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as JsonObject) } : {};
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function asStringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
