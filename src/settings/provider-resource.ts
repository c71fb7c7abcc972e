/**
 * The REST shape of a provider (ARCHITECTURE.md §6): what the settings API reads and writes,
 * independent of the file layout. Keys never leave the hub: a read carries `hasKey` and at
 * most the last four characters (`keyHint`); `apiKey` is write-only.
 *
 * The write schemas accept the read-only fields (`hasKey`, `keyHint`, `accessType`,
 * `complete`) and ignore them, so a client can PUT back exactly what it GOT (CFG-05) while any
 * other unknown key is still a 400 (CFG-03).
 */
import { z } from 'zod';
import { manualModelConfigSchema, modelConfigSchema, providerApiTypeSchema, type ProviderIssue } from './provider-schema.js';

/** Shortest key for which the last four characters are shown; shorter keys would be mostly revealed. */
export const KEY_HINT_MIN_LENGTH = 12;
const MAX_MODELS = 512;

const modelIdsSchema = z
  .array(z.string().min(1).max(256))
  .max(MAX_MODELS)
  .refine((ids) => new Set(ids).size === ids.length, 'model ids must be unique');

// No control characters: a key with a newline would corrupt the headers the CLI builds from it.
const apiKeySchema = z
  .string()
  .min(1)
  .max(4096)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point of this check
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'apiKey must not contain control characters');

// The agent calls the provider over HTTP; `file:`, `javascript:` and the like parse as URLs but are no provider.
const baseUrlSchema = z
  .string()
  .url()
  .max(2048)
  .refine((v) => /^https?:\/\//i.test(v), 'baseUrl must be an http:// or https:// URL');

export const accessTypeSchema = z.enum(['api-key', 'zhipu-coding-plan-api-key', 'zhipu-account']);

export const providerViewSchema = z.object({
  providerId: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  apiType: providerApiTypeSchema.nullable(),
  baseUrl: z.string().nullable(),
  hasKey: z.boolean(),
  keyHint: z.string().nullable(),
  models: z.array(z.string()),
  templateId: z.string().nullable().optional(),
  accessType: accessTypeSchema.nullable(),
  /** Whether the app-server will admit it (§9.2 "complete"). */
  complete: z.boolean(),
});
export type ProviderView = z.infer<typeof providerViewSchema>;

const readOnlyEcho = {
  hasKey: z.boolean().optional(),
  keyHint: z.string().nullable().optional(),
  accessType: accessTypeSchema.nullable().optional(),
  complete: z.boolean().optional(),
};

/**
 * A provider id the hub creates is a name: a letter or digit, then letters, digits, `.`, `_`,
 * `-` or `:` (ZCode's own ids look like `account:zai`), 64 characters at most (a longer one
 * could not be addressed: fastify answers 414 to a URL parameter over 100 characters). It is never
 * used in a file path, but `../../etc` or an id with spaces is no name anyone meant. Only new
 * ids are held to it: a provider the desktop app wrote under another id stays readable and
 * editable through its URL, and a PUT or PATCH echoing that id back is compared, not refused.
 */
export const PROVIDER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
export const PROVIDER_ID_RULE = 'providerId must be 1-64 letters, digits, ".", "_", "-" or ":", starting with a letter or digit';

export const providerIdSchema = z.string().regex(PROVIDER_ID_PATTERN, PROVIDER_ID_RULE).describe(PROVIDER_ID_RULE);

/** The id in a PUT or PATCH body: only compared with the URL's (provider-mutations.ts), so any id a file holds. */
const echoedProviderIdSchema = z
  .string()
  .min(1)
  .max(128)
  .refine((v) => v.trim() === v, 'providerId must not start or end with whitespace');

export const providerCreateSchema = z
  .object({
    providerId: providerIdSchema,
    name: z.string().min(1).max(256).optional(),
    enabled: z.boolean().optional(),
    apiType: providerApiTypeSchema,
    baseUrl: baseUrlSchema,
    models: modelIdsSchema.optional(),
    templateId: z.string().min(1).max(128).nullable().optional(),
    apiKey: apiKeySchema.optional(),
    ...readOnlyEcho,
  })
  .strict();
export type ProviderCreate = z.infer<typeof providerCreateSchema>;

/** PATCH: every field optional; `apiKey` omitted = keep, `null` = remove the key. */
export const providerPatchSchema = z
  .object({
    providerId: echoedProviderIdSchema.optional(),
    name: z.string().min(1).max(256).optional(),
    enabled: z.boolean().optional(),
    apiType: providerApiTypeSchema.optional(),
    baseUrl: baseUrlSchema.optional(),
    models: modelIdsSchema.optional(),
    templateId: z.string().min(1).max(128).nullable().optional(),
    apiKey: apiKeySchema.nullable().optional(),
    ...readOnlyEcho,
  })
  .strict();
export type ProviderPatch = z.infer<typeof providerPatchSchema>;

/** PUT: the full resource as read (nullable api fields allowed, since GET may return them null). */
export const providerPutSchema = z
  .object({
    providerId: echoedProviderIdSchema.optional(),
    name: z.string().min(1).max(256),
    enabled: z.boolean(),
    apiType: providerApiTypeSchema.nullable(),
    baseUrl: baseUrlSchema.nullable(),
    models: modelIdsSchema,
    templateId: z.string().min(1).max(128).nullable().optional(),
    apiKey: apiKeySchema.nullable().optional(),
    ...readOnlyEcho,
  })
  .strict();
export type ProviderPut = z.infer<typeof providerPutSchema>;

/** A model rule as written through the API: smart (sparse overrides) or manual (complete definition), §9.2. */
export const modelRuleWriteSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('smart'), config: modelConfigSchema }).strict(),
  z.object({ kind: z.literal('manual'), config: manualModelConfigSchema }).strict(),
]);
export type ModelRuleWrite = z.infer<typeof modelRuleWriteSchema>;

export const modelRuleViewSchema = z.object({
  providerId: z.string(),
  modelId: z.string(),
  kind: z.enum(['smart', 'manual']),
  config: z.record(z.string(), z.unknown()),
});
export type ModelRuleView = z.infer<typeof modelRuleViewSchema>;

export const providerIssueSchema = z.object({ path: z.string(), message: z.string() });

export const providerFileHealthSchema = z.object({
  /** `missing` = no file yet (valid, empty); `invalid` = the app-server ignores the whole file. */
  status: z.enum(['valid', 'missing', 'invalid']),
  issues: z.array(providerIssueSchema),
});
export type ProviderFileHealth = { status: 'valid' | 'missing' | 'invalid'; issues: ProviderIssue[] };

export const providerListSchema = z.object({
  providers: z.array(providerViewSchema),
  modelRules: z.array(modelRuleViewSchema),
  providerOrder: z.array(z.string()).nullable(),
  health: providerFileHealthSchema,
  etag: z.string(),
});
export type ProviderList = z.infer<typeof providerListSchema>;
