/**
 * The personal provider file as the app-server itself checks it (APP-SERVER.md §9.2, §9.3),
 * written for the simulator from the wire notes — deliberately NOT the hub's own schema
 * (src/settings/provider-schema.ts). The hub validates what it writes with its copy; the
 * simulator judges the file with this one, so a bug in the hub's schema shows up in tests as
 * a file the "CLI" refuses, instead of being agreed with by the same code.
 *
 * Strict at every level and all-or-nothing: one violation anywhere rejects the whole file.
 */
import { z } from 'zod';

/** Every key of a personal provider config and of a smart model rule is optional and may be null. */
const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();
const nonEmpty = z.string().min(1);
const ids = opt(z.array(nonEmpty));

const access = z.discriminatedUnion('type', [
  z.strictObject({ type: z.enum(['api-key', 'zhipu-coding-plan-api-key']), apiKey: opt(z.string()), apiKeyManagementUrl: opt(z.url()) }),
  z.strictObject({
    type: z.literal('zhipu-account'),
    accountType: opt(z.enum(['zai', 'bigmodel'])),
    mode: opt(z.enum(['start-plan', 'individual-coding-plan', 'team-coding-plan', 'off-peak', 'highspeed'])),
    entitled: opt(z.boolean()),
  }),
]);
const apiType = z.enum(['anthropic-messages', 'openai-chat-completions', 'openai-responses']);

const providerRule = z.strictObject({
  providerId: nonEmpty,
  templateId: opt(nonEmpty),
  providerName: opt(nonEmpty),
  enabled: z.boolean().optional(),
  config: z.strictObject({
    group: opt(z.literal('standard-personal')),
    logo: opt(z.strictObject({ type: z.literal('builtin'), key: nonEmpty })),
    access: opt(access),
    // While a provider is being edited its URL may be incomplete: any string is accepted here.
    api: opt(z.strictObject({ type: opt(apiType), baseUrl: opt(z.string()), headers: opt(z.record(z.string(), z.string())) })),
    personalModelIds: ids,
    modelOrder: ids,
    visibility: opt(z.enum(['visible', 'hidden'])),
  }),
});

const levels = z
  .array(z.string().refine((s) => s.trim() !== ''))
  .min(1)
  .refine((a) => new Set(a).size === a.length, 'duplicate reasoning level');
const formats = {
  supportsText: opt(z.boolean()),
  supportsImage: opt(z.boolean()),
  supportsVideo: opt(z.boolean()),
  supportsAudio: opt(z.boolean()),
  supportsPdf: opt(z.boolean()),
};

const smartModelRule = z.strictObject({
  providerId: nonEmpty,
  modelId: nonEmpty,
  config: z.strictObject({
    enabled: opt(z.boolean()),
    properties: opt(
      z.strictObject({
        requiresMfjsToolSchema: opt(z.boolean()),
        contextWindow: opt(z.number().int().positive()),
        inputFormat: opt(z.strictObject(formats)),
        outputFormat: opt(z.strictObject({ supportsText: opt(z.boolean()) })),
        supportsToolCall: opt(z.boolean()),
        supportsJsonSchemaOutput: opt(z.boolean()),
        supportsNativeWebSearch: opt(z.boolean()),
        supportsMidConversationSystem: opt(z.boolean()),
      }),
    ),
    optionSpecs: opt(
      z.strictObject({
        reasoningLevel: opt(z.strictObject({ values: opt(levels), map: opt(nonEmpty) })),
        maxOutputTokens: opt(z.strictObject({ max: opt(z.number().int().positive()), map: opt(nonEmpty) })),
      }),
    ),
  }),
});

/** A hand-written model: every leaf listed is required (§9.2 manual rules). */
const manualModelRule = z.strictObject({
  providerId: nonEmpty,
  modelId: nonEmpty,
  config: z.strictObject({
    enabled: opt(z.boolean()),
    properties: z.strictObject({
      contextWindow: z.number().int().positive(),
      supportsJsonSchemaOutput: z.boolean(),
      supportsNativeWebSearch: z.boolean(),
      supportsMidConversationSystem: z.boolean(),
      inputFormat: z.strictObject({ supportsImage: z.boolean(), supportsVideo: z.boolean(), supportsPdf: z.boolean() }),
    }),
    optionSpecs: z.strictObject({
      reasoningLevel: z.strictObject({ values: levels, map: nonEmpty }),
      maxOutputTokens: z.strictObject({ max: z.number().int().positive() }),
    }),
  }),
});

const providerFile = z
  .strictObject({
    schemaVersion: z.literal(1),
    config: z.strictObject({
      providerOrder: z.array(nonEmpty).optional(),
      providerConfigRules: z.strictObject({ providerRules: z.array(providerRule) }),
      modelConfigRules: z.strictObject({ providerModelRules: z.array(smartModelRule), manualProviderModelRules: z.array(manualModelRule) }),
      defaultModelSelection: z
        .strictObject({
          providerId: z.string().trim().min(1),
          modelId: z.string().trim().min(1),
          options: z.strictObject({ reasoningLevel: z.string().trim().min(1).optional() }).optional(),
        })
        .optional(),
    }),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    for (const rule of file.config.providerConfigRules.providerRules) {
      if (seen.has(rule.providerId)) ctx.addIssue({ code: 'custom', message: `duplicate providerId ${rule.providerId}` });
      seen.add(rule.providerId);
      // Only the built-in file may declare access for a fixed `account:` provider.
      if (rule.providerId.startsWith('account:') && rule.config.access !== undefined)
        ctx.addIssue({ code: 'custom', message: `access on ${rule.providerId}` });
    }
    const { providerModelRules, manualProviderModelRules } = file.config.modelConfigRules;
    for (const manual of manualProviderModelRules) {
      if (providerModelRules.some((r) => r.providerId === manual.providerId && r.modelId === manual.modelId)) {
        ctx.addIssue({ code: 'custom', message: `${manual.providerId}/${manual.modelId} is both a smart and a manual rule` });
      }
    }
  });

export type SimProviderFile = z.infer<typeof providerFile>;
export type SimProviderRule = SimProviderFile['config']['providerConfigRules']['providerRules'][number];

/** Parses a personal provider file the way the app-server does: the whole file or nothing. */
export function parseProviderFile(doc: unknown): { ok: true; file: SimProviderFile } | { ok: false; issues: string[] } {
  const r = providerFile.safeParse(doc);
  return r.success
    ? { ok: true, file: r.data }
    : { ok: false, issues: r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`) };
}

/** A provider the registry admits (§9.2): a group, usable access (a non-blank key) and a complete api. */
export function providerUsable(rule: SimProviderRule): boolean {
  const { group, access: a, api } = rule.config;
  if (group !== 'standard-personal' || !a || !api) return false;
  const accessOk =
    a.type === 'zhipu-account' ? Boolean(a.accountType && a.mode && typeof a.entitled === 'boolean') : Boolean(a.apiKey?.trim());
  return accessOk && Boolean(api.type) && Boolean(api.baseUrl?.trim()) && z.url().safeParse(api.baseUrl).success;
}
