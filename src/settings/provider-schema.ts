/**
 * The personal provider file (`provider_config.json`) exactly as the app-server validates it
 * (APP-SERVER.md §9.2): strict at every level, all-or-nothing, `providerId` unique, no
 * `access` on `account:` providers, no model declared both smart and manual.
 *
 * Pure: no Node I/O, so the simulator can import it and reject a file exactly like the CLI.
 * Keep the export names stable — the simulator depends on them.
 *
 * Key order matters (§9.3): the CLI rewrites a file whose JSON differs from its canonical
 * encoding, and that encoding is the zod parse output, i.e. every object in *schema shape
 * order*. The shapes below are declared in the CLI's order so `canonicalizeProviderDocument`
 * can simply re-parse.
 */
import { z } from 'zod';

/** Current (and only) `schemaVersion` the CLI accepts (§9.2). */
export const PROVIDER_FILE_SCHEMA_VERSION = 1 as const;

// Every leaf of a "sparse" object is optional and nullable (§9.2 "every key optional and nullable").
const sparse = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const idSchema = z.string().min(1);
// Non-blank string, used only by the "complete" checks (§9.2: a usable provider needs a non-blank key/URL).
const nonBlank = z.string().refine((v) => v.trim().length > 0, { message: '必填配置不能为空' });

export const providerApiTypeSchema = z.enum(['anthropic-messages', 'openai-chat-completions', 'openai-responses']);
export const zhipuAccountModeSchema = z.enum(['start-plan', 'individual-coding-plan', 'team-coding-plan', 'off-peak', 'highspeed']);

const logoSchema = z.object({ type: z.literal('builtin'), key: z.string().min(1) }).strict();

const apiKeyAccessSchema = z
  .object({
    type: z.enum(['api-key', 'zhipu-coding-plan-api-key']),
    apiKey: sparse(z.string()),
    apiKeyManagementUrl: sparse(z.string().url()),
  })
  .strict();
const accountAccessSchema = z
  .object({
    type: z.literal('zhipu-account'),
    accountType: sparse(z.enum(['zai', 'bigmodel'])),
    mode: sparse(zhipuAccountModeSchema),
    entitled: sparse(z.boolean()),
  })
  .strict();
export const providerAccessSchema = z.discriminatedUnion('type', [apiKeyAccessSchema, accountAccessSchema]);

// Personal rules may hold an incomplete/invalid `baseUrl` while being edited (§9.2), so plain string here.
export const personalProviderApiSchema = z
  .object({
    type: sparse(providerApiTypeSchema),
    baseUrl: sparse(z.string()),
    headers: sparse(z.record(z.string(), z.string())),
  })
  .strict();

const modelIdsSchema = sparse(z.array(z.string().min(1)));

export const personalProviderConfigSchema = z
  .object({
    group: sparse(z.literal('standard-personal')),
    logo: sparse(logoSchema),
    access: sparse(providerAccessSchema),
    api: sparse(personalProviderApiSchema),
    personalModelIds: modelIdsSchema,
    modelOrder: modelIdsSchema,
    visibility: sparse(z.enum(['visible', 'hidden'])),
    // `builtinModelIds` is deliberately absent: not allowed in personal rules (§9.2); strict rejects it.
  })
  .strict();

export const ACCOUNT_ACCESS_MESSAGE = '固定 Account Provider 的 Access 只能由 ZCode Built-in Config 声明';
export const CROSS_LIST_MESSAGE = '同一 Provider/Model 不能同时声明智能和手动配置';

export const providerRuleSchema = z
  .object({
    providerId: idSchema,
    templateId: sparse(idSchema),
    providerName: sparse(idSchema),
    enabled: z.boolean().optional(),
    config: personalProviderConfigSchema,
  })
  .strict()
  .superRefine((rule, ctx) => {
    // The CLI tests `!== undefined`, so an explicit `access: null` is refused too (§9.2).
    if (rule.providerId.startsWith('account:') && rule.config.access !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['config', 'access'], message: ACCOUNT_ACCESS_MESSAGE });
    }
  });

// Option-map expressions (`map`) are compiled by the CLI; we only require a non-empty string (see README of §9.2 gaps).
const optionMapSchema = z.string().min(1);
const reasoningValuesSchema = z
  .array(z.string().refine((v) => v.trim().length > 0, 'reasoningLevel.values 必须是非空字符串'))
  .min(1, 'reasoningLevel.values 不能为空')
  .refine((values) => new Set(values).size === values.length, 'reasoningLevel.values 不能重复');

export const modelConfigSchema = z
  .object({
    enabled: sparse(z.boolean()),
    properties: sparse(
      z
        .object({
          requiresMfjsToolSchema: sparse(z.boolean()),
          contextWindow: sparse(z.number().int().positive()),
          inputFormat: sparse(
            z
              .object({
                supportsText: sparse(z.boolean()),
                supportsImage: sparse(z.boolean()),
                supportsVideo: sparse(z.boolean()),
                supportsAudio: sparse(z.boolean()),
                supportsPdf: sparse(z.boolean()),
              })
              .strict(),
          ),
          outputFormat: sparse(z.object({ supportsText: sparse(z.boolean()) }).strict()),
          supportsToolCall: sparse(z.boolean()),
          supportsJsonSchemaOutput: sparse(z.boolean()),
          supportsNativeWebSearch: sparse(z.boolean()),
          supportsMidConversationSystem: sparse(z.boolean()),
        })
        .strict(),
    ),
    optionSpecs: sparse(
      z
        .object({
          reasoningLevel: sparse(z.object({ values: sparse(reasoningValuesSchema), map: sparse(optionMapSchema) }).strict()),
          maxOutputTokens: sparse(z.object({ max: sparse(z.number().int().positive()), map: sparse(optionMapSchema) }).strict()),
        })
        .strict(),
    ),
  })
  .strict();

// A complete hand-written model definition: every listed leaf required (§9.2 ManualModelRule).
export const manualModelConfigSchema = z
  .object({
    enabled: sparse(z.boolean()),
    properties: z
      .object({
        contextWindow: z.number().int().positive(),
        supportsJsonSchemaOutput: z.boolean(),
        supportsNativeWebSearch: z.boolean(),
        supportsMidConversationSystem: z.boolean(),
        inputFormat: z.object({ supportsImage: z.boolean(), supportsVideo: z.boolean(), supportsPdf: z.boolean() }).strict(),
      })
      .strict(),
    optionSpecs: z
      .object({
        reasoningLevel: z.object({ values: reasoningValuesSchema, map: optionMapSchema }).strict(),
        maxOutputTokens: z.object({ max: z.number().int().positive() }).strict(),
      })
      .strict(),
  })
  .strict();

// The CLI derives this shape from the template rule by omit+extend, so `providerId` comes last (§9.3 canonical order).
export const modelRuleSchema = z.object({ modelId: idSchema, config: modelConfigSchema, providerId: idSchema }).strict();
export const manualModelRuleSchema = z.object({ modelId: idSchema, config: manualModelConfigSchema, providerId: idSchema }).strict();

export const modelSelectionSchema = z
  .object({
    providerId: z.string().trim().min(1),
    modelId: z.string().trim().min(1),
    options: z
      .object({ reasoningLevel: z.string().trim().min(1).optional() })
      .strict()
      .optional(),
  })
  .strict();

function checkUniqueProviderIds(rules: readonly { providerId: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  rules.forEach((rule, index) => {
    if (seen.has(rule.providerId)) {
      ctx.addIssue({ code: 'custom', path: ['providerRules', index, 'providerId'], message: `重复 providerId: ${rule.providerId}` });
    }
    seen.add(rule.providerId);
  });
}

export const providerConfigRulesSchema = z
  .object({ providerRules: z.array(providerRuleSchema) })
  .strict()
  .superRefine((rules, ctx) => checkUniqueProviderIds(rules.providerRules, ctx));

export const modelConfigRulesSchema = z
  .object({ providerModelRules: z.array(modelRuleSchema), manualProviderModelRules: z.array(manualModelRuleSchema) })
  .strict()
  .superRefine((rules, ctx) => {
    // Identity as a JSON tuple so a model id containing a separator cannot collide.
    const smart = new Set(rules.providerModelRules.map((r) => JSON.stringify([r.providerId, r.modelId])));
    rules.manualProviderModelRules.forEach((rule, index) => {
      if (smart.has(JSON.stringify([rule.providerId, rule.modelId]))) {
        ctx.addIssue({ code: 'custom', path: ['manualProviderModelRules', index], message: CROSS_LIST_MESSAGE });
      }
    });
  });

/** The whole personal provider file (§9.2), strict at every level. */
export const personalProviderFileSchema = z
  .object({
    schemaVersion: z.literal(PROVIDER_FILE_SCHEMA_VERSION),
    config: z
      .object({
        providerOrder: z.array(z.string().min(1)).optional(),
        providerConfigRules: providerConfigRulesSchema,
        modelConfigRules: modelConfigRulesSchema,
        defaultModelSelection: modelSelectionSchema.optional(),
      })
      .strict(),
  })
  .strict();

export type PersonalProviderFile = z.infer<typeof personalProviderFileSchema>;
export type ProviderRule = z.infer<typeof providerRuleSchema>;
export type PersonalProviderConfig = z.infer<typeof personalProviderConfigSchema>;
export type ProviderAccess = z.infer<typeof providerAccessSchema>;
export type ProviderApiType = z.infer<typeof providerApiTypeSchema>;
export type ModelRule = z.infer<typeof modelRuleSchema>;
export type ManualModelRule = z.infer<typeof manualModelRuleSchema>;
export type ModelConfig = z.infer<typeof modelConfigSchema>;
export type ManualModelConfig = z.infer<typeof manualModelConfigSchema>;
export type ModelSelection = z.infer<typeof modelSelectionSchema>;

export interface ProviderIssue {
  /** Dotted path into the document, e.g. `config.providerConfigRules.providerRules.1.providerId`; `""` = root. */
  path: string;
  message: string;
}

export type ProviderValidation = { ok: true; value: PersonalProviderFile } | { ok: false; issues: ProviderIssue[] };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The CLI's version gate runs before the schema and has its own messages (§9.2 `schemaVersion`). */
function checkSchemaVersion(doc: unknown): ProviderIssue | null {
  if (!isRecord(doc) || !('schemaVersion' in doc)) return { path: 'schemaVersion', message: 'Provider Config 缺少 schemaVersion' };
  const v = doc.schemaVersion;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    return { path: 'schemaVersion', message: 'Provider Config schemaVersion 必须是非负整数' };
  }
  if (v > PROVIDER_FILE_SCHEMA_VERSION) {
    return { path: 'schemaVersion', message: `Provider Config schemaVersion ${v} 高于当前支持的 ${PROVIDER_FILE_SCHEMA_VERSION}` };
  }
  if (v < PROVIDER_FILE_SCHEMA_VERSION) {
    return { path: 'schemaVersion', message: `缺少 Provider Config schemaVersion ${v} 到 ${v + 1} 的迁移器` };
  }
  return null;
}

/** Converts zod issues into `{path, message}` with dotted paths. */
export function toProviderIssues(error: z.ZodError): ProviderIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** Validates a parsed JSON document like the app-server: all-or-nothing, every issue reported (§9.2, §9.3). */
export function validateProviderDocument(doc: unknown): ProviderValidation {
  const versionIssue = checkSchemaVersion(doc);
  if (versionIssue) return { ok: false, issues: [versionIssue] };
  const parsed = personalProviderFileSchema.safeParse(doc);
  if (!parsed.success) return { ok: false, issues: toProviderIssues(parsed.error) };
  return { ok: true, value: parsed.data };
}

/**
 * Canonical form of a valid document (§9.3): keys in the CLI's order. Throws on an invalid
 * document — callers validate first. Re-parsing yields shape order because zod builds its
 * output by walking the schema shape.
 */
export function canonicalizeProviderDocument(doc: unknown): PersonalProviderFile {
  const result = validateProviderDocument(doc);
  if (!result.ok) throw new Error(`invalid provider document: ${result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return result.value;
}

/** The canonical bytes the CLI writes: 2-space indent (§9.3). No trailing newline, like `JSON.stringify(x, null, 2)`. */
export function encodeProviderDocument(doc: unknown): string {
  return JSON.stringify(canonicalizeProviderDocument(doc), null, 2);
}

const completeAccessSchema = z.discriminatedUnion('type', [
  apiKeyAccessSchema.extend({ apiKey: nonBlank }),
  z
    .object({
      type: z.literal('zhipu-account'),
      accountType: z.enum(['zai', 'bigmodel']),
      mode: zhipuAccountModeSchema,
      entitled: z.boolean(),
    })
    .strict(),
]);
const completeApiSchema = z
  .object({ type: providerApiTypeSchema, baseUrl: nonBlank.pipe(z.string().url()), headers: sparse(z.record(z.string(), z.string())) })
  .strict();

/**
 * Whether the app-server will admit this provider (§9.2 "complete"): a `group`, complete
 * `access` (api-key types need a non-blank key) and complete `api` (type + valid non-blank URL).
 * An incomplete provider is excluded without affecting the others.
 */
export function isProviderComplete(rule: ProviderRule): boolean {
  const c = rule.config;
  return c.group === 'standard-personal' && completeAccessSchema.safeParse(c.access).success && completeApiSchema.safeParse(c.api).success;
}

/** An empty, valid personal file (what a missing file means, §9.3). */
export function emptyProviderDocument(): PersonalProviderFile {
  return {
    schemaVersion: PROVIDER_FILE_SCHEMA_VERSION,
    config: { providerConfigRules: { providerRules: [] }, modelConfigRules: { providerModelRules: [], manualProviderModelRules: [] } },
  };
}
