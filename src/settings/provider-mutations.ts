/**
 * Pure edits of the provider file draft. Each returns a new draft and never mutates its input;
 * unknown keys of the rules it touches are carried over (logo, visibility, headers,
 * apiKeyManagementUrl …), so the hub only changes what the request named. The caller validates
 * the result against the strict schema (§9.2) before anything reaches the disk.
 */
import { HubError } from '../errors.js';
import { asObject, asString, field, type JsonObject, type ProviderDraft } from './provider-draft.js';
import type { ModelRuleWrite } from './provider-resource.js';
import type { ProviderApiType } from './provider-schema.js';

/** The REST fields an edit may set (PATCH and PUT bodies both fit); undefined = keep. */
export interface ProviderFieldsPatch {
  providerId?: string | undefined;
  name?: string | undefined;
  enabled?: boolean | undefined;
  apiType?: ProviderApiType | null | undefined;
  baseUrl?: string | null | undefined;
  models?: readonly string[] | undefined;
  templateId?: string | null | undefined;
  /** Write-only: a string sets the key, null removes it, undefined keeps it. */
  apiKey?: string | null | undefined;
}

/** What a create needs (the POST body fits). */
export interface ProviderCreateInput {
  providerId: string;
  name?: string | undefined;
  enabled?: boolean | undefined;
  apiType: ProviderApiType;
  baseUrl: string;
  models?: readonly string[] | undefined;
  templateId?: string | null | undefined;
  apiKey?: string | undefined;
}

const API_KEY_ACCESS_TYPES = new Set(['api-key', 'zhipu-coding-plan-api-key']);

function rulesOf(draft: ProviderDraft): JsonObject[] {
  return draft.config.providerConfigRules.providerRules;
}

function withRules(draft: ProviderDraft, providerRules: JsonObject[]): ProviderDraft {
  return { ...draft, config: { ...draft.config, providerConfigRules: { ...draft.config.providerConfigRules, providerRules } } };
}

function indexOfProvider(draft: ProviderDraft, providerId: string): number {
  return rulesOf(draft).findIndex((rule) => rule.providerId === providerId);
}

function requireProvider(draft: ProviderDraft, providerId: string): number {
  const index = indexOfProvider(draft, providerId);
  if (index === -1) throw new HubError('HUB_ERR_NOT_FOUND', `No provider with id ${providerId}`, { providerId });
  return index;
}

/** Sets (string) or removes (null) the literal key, keeping the access type when it is a key type. */
function withApiKey(config: JsonObject, apiKey: string | null): JsonObject {
  const access = asObject(config.access);
  const type = asString(access.type);
  const next: JsonObject = type !== null && API_KEY_ACCESS_TYPES.has(type) ? access : { type: 'api-key' };
  return { ...config, access: { ...next, apiKey } };
}

/** Applies the REST fields to one rule; fields left undefined are kept as they are. */
function applyFields(rule: JsonObject, patch: ProviderFieldsPatch): JsonObject {
  let config = asObject(rule.config);
  const next: JsonObject = { ...rule };
  if (patch.name !== undefined) next.providerName = patch.name;
  if (patch.enabled !== undefined) next.enabled = patch.enabled;
  if (patch.templateId !== undefined) next.templateId = patch.templateId;
  if (patch.apiType !== undefined || patch.baseUrl !== undefined) {
    const api = asObject(config.api);
    if (patch.apiType !== undefined) api.type = patch.apiType;
    if (patch.baseUrl !== undefined) api.baseUrl = patch.baseUrl;
    config = { ...config, api };
  }
  if (patch.models !== undefined) config = { ...config, personalModelIds: [...patch.models], modelOrder: [...patch.models] };
  if (patch.apiKey !== undefined) config = withApiKey(config, patch.apiKey);
  next.config = config;
  return next;
}

/** Adds a provider; its id must be new (409 otherwise). */
export function createProvider(draft: ProviderDraft, input: ProviderCreateInput): ProviderDraft {
  if (indexOfProvider(draft, input.providerId) !== -1) {
    throw new HubError('HUB_ERR_CONFLICT', `A provider with id ${input.providerId} already exists`, { providerId: input.providerId });
  }
  const models = input.models ?? [];
  // Key order of a rule per §9.3: providerId, templateId?, providerName?, enabled?, config.
  const rule: JsonObject = { providerId: input.providerId };
  if (input.templateId !== undefined) rule.templateId = input.templateId;
  rule.providerName = input.name ?? input.providerId;
  rule.enabled = input.enabled ?? true;
  const config: JsonObject = { group: 'standard-personal' };
  if (input.apiKey !== undefined) config.access = { type: 'api-key', apiKey: input.apiKey };
  config.api = { type: input.apiType, baseUrl: input.baseUrl };
  config.personalModelIds = [...models];
  config.modelOrder = [...models];
  rule.config = config;
  let next = withRules(draft, [...rulesOf(draft), rule]);
  const order = draft.config.providerOrder;
  if (Array.isArray(order) && !order.includes(input.providerId)) {
    next = { ...next, config: { ...next.config, providerOrder: [...order, input.providerId] } };
  }
  return next;
}

/** Updates the named fields of a provider (PATCH and PUT); `apiKey` undefined keeps the key. */
export function updateProvider(draft: ProviderDraft, providerId: string, patch: ProviderFieldsPatch): ProviderDraft {
  if (patch.providerId !== undefined && patch.providerId !== providerId) {
    throw new HubError('HUB_ERR_BAD_REQUEST', 'providerId cannot be changed', {
      issues: [{ path: 'providerId', message: 'must equal the providerId of the URL' }],
    });
  }
  const index = requireProvider(draft, providerId);
  const rules = [...rulesOf(draft)];
  const current = rules[index];
  if (current === undefined) throw new HubError('HUB_ERR_NOT_FOUND', `No provider with id ${providerId}`);
  rules[index] = applyFields(current, patch);
  return withRules(draft, rules);
}

/** Enables or disables a provider (§9.2 `enabled:false` excludes it from the registry). */
export function setEnabled(draft: ProviderDraft, providerId: string, enabled: boolean): ProviderDraft {
  return updateProvider(draft, providerId, { enabled });
}

/**
 * Removes a provider together with what only makes sense with it: its model rules, its place
 * in `providerOrder`, and a `defaultModelSelection` pointing at it.
 */
export function deleteProvider(draft: ProviderDraft, providerId: string): ProviderDraft {
  requireProvider(draft, providerId);
  const models = draft.config.modelConfigRules;
  const keep = (rule: JsonObject) => rule.providerId !== providerId;
  const config: ProviderDraft['config'] = {
    ...draft.config,
    providerConfigRules: { ...draft.config.providerConfigRules, providerRules: rulesOf(draft).filter(keep) },
    modelConfigRules: {
      ...models,
      providerModelRules: models.providerModelRules.filter(keep),
      manualProviderModelRules: models.manualProviderModelRules.filter(keep),
    },
  };
  if (Array.isArray(config.providerOrder)) config.providerOrder = config.providerOrder.filter((id) => id !== providerId);
  if (field(config.defaultModelSelection, 'providerId') === providerId) delete config.defaultModelSelection;
  return { ...draft, config };
}

const sameModel = (providerId: string, modelId: string) => (rule: JsonObject) => rule.providerId === providerId && rule.modelId === modelId;

/**
 * Sets the smart or manual rule of one model. A model has at most one of the two (§9.2
 * cross-list rule), so writing one kind removes the other.
 */
export function upsertModelRule(draft: ProviderDraft, providerId: string, modelId: string, write: ModelRuleWrite): ProviderDraft {
  requireProvider(draft, providerId);
  const models = draft.config.modelConfigRules;
  const match = sameModel(providerId, modelId);
  // Canonical model rule order (§9.3, the CLI's schema shape): modelId, config, providerId.
  const rule: JsonObject = { modelId, config: write.config, providerId };
  const replaceOrAppend = (list: JsonObject[]) => {
    const i = list.findIndex(match);
    return i === -1 ? [...list, rule] : list.map((r, j) => (j === i ? rule : r));
  };
  const smart = write.kind === 'smart' ? replaceOrAppend(models.providerModelRules) : models.providerModelRules.filter((r) => !match(r));
  const manual =
    write.kind === 'manual' ? replaceOrAppend(models.manualProviderModelRules) : models.manualProviderModelRules.filter((r) => !match(r));
  return {
    ...draft,
    config: { ...draft.config, modelConfigRules: { ...models, providerModelRules: smart, manualProviderModelRules: manual } },
  };
}

/** Removes the smart and manual rules of one model (404 when there is none). */
export function deleteModelRule(draft: ProviderDraft, providerId: string, modelId: string): ProviderDraft {
  const models = draft.config.modelConfigRules;
  const match = sameModel(providerId, modelId);
  if (!models.providerModelRules.some(match) && !models.manualProviderModelRules.some(match)) {
    throw new HubError('HUB_ERR_NOT_FOUND', `No model rule for ${providerId}/${modelId}`, { providerId, modelId });
  }
  const keep = (r: JsonObject) => !match(r);
  return {
    ...draft,
    config: {
      ...draft.config,
      modelConfigRules: {
        ...models,
        providerModelRules: models.providerModelRules.filter(keep),
        manualProviderModelRules: models.manualProviderModelRules.filter(keep),
      },
    },
  };
}
