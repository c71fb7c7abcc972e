/**
 * File → REST view. The only place a key is looked at on the way out, and it yields at most
 * `hasKey` and the last four characters (ARCHITECTURE.md §6, CFG-05). Works on the lenient draft so
 * an invalid file can still be shown (and repaired) field by field.
 */
import { asObject, asString, asStringArray, type JsonObject, type ProviderDraft } from './provider-draft.js';
import { accessTypeSchema, KEY_HINT_MIN_LENGTH, type ModelRuleView, type ProviderView } from './provider-resource.js';
import { isProviderComplete, providerApiTypeSchema, providerRuleSchema } from './provider-schema.js';

/** Last four characters of a key long enough that four reveal little; otherwise nothing. */
export function keyHint(apiKey: string): string | null {
  return apiKey.length >= KEY_HINT_MIN_LENGTH ? apiKey.slice(-4) : null;
}

/** Maps one provider rule (possibly invalid) to its REST view. */
export function toProviderView(rule: JsonObject): ProviderView {
  const providerId = asString(rule.providerId) ?? '';
  const config = asObject(rule.config);
  const access = asObject(config.access);
  const api = asObject(config.api);
  const accessType = accessTypeSchema.safeParse(access.type);
  const apiType = providerApiTypeSchema.safeParse(api.type);
  const key = accessType.success && accessType.data !== 'zhipu-account' ? asString(access.apiKey) : null;
  const hasKey = key !== null && key.trim().length > 0;
  const strict = providerRuleSchema.safeParse(rule);
  const personal = asStringArray(config.personalModelIds);
  const order = asStringArray(config.modelOrder);
  // Display order first (modelOrder), then any offered model it does not list.
  const models = [...order.filter((m) => personal.includes(m)), ...personal.filter((m) => !order.includes(m))];
  const view: ProviderView = {
    providerId,
    name: asString(rule.providerName) ?? providerId,
    enabled: rule.enabled !== false,
    apiType: apiType.success ? apiType.data : null,
    baseUrl: asString(api.baseUrl),
    hasKey,
    keyHint: hasKey && key !== null ? keyHint(key) : null,
    models,
    accessType: accessType.success ? accessType.data : null,
    complete: strict.success && isProviderComplete(strict.data),
  };
  if (rule.templateId !== undefined) view.templateId = asString(rule.templateId);
  return view;
}

/** Every provider of the draft, in file order. */
export function toProviderViews(draft: ProviderDraft): ProviderView[] {
  return draft.config.providerConfigRules.providerRules.map(toProviderView);
}

/** Smart and manual model rules, flattened with their kind. Model rules hold no secrets. */
export function toModelRuleViews(draft: ProviderDraft, providerId?: string): ModelRuleView[] {
  const out: ModelRuleView[] = [];
  const push = (kind: 'smart' | 'manual', rules: JsonObject[]) => {
    for (const rule of rules) {
      const pid = asString(rule.providerId);
      const modelId = asString(rule.modelId);
      if (pid === null || modelId === null) continue;
      if (providerId !== undefined && pid !== providerId) continue;
      out.push({ providerId: pid, modelId, kind, config: asObject(rule.config) });
    }
  };
  push('smart', draft.config.modelConfigRules.providerModelRules);
  push('manual', draft.config.modelConfigRules.manualProviderModelRules);
  return out;
}

/** `providerOrder` when the file declares one. */
export function providerOrderOf(draft: ProviderDraft): string[] | null {
  return Array.isArray(draft.config.providerOrder) ? asStringArray(draft.config.providerOrder) : null;
}
