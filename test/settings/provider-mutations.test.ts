import { describe, expect, it } from 'vitest';
import { createProvider, deleteModelRule, deleteProvider, updateProvider, upsertModelRule } from '../../src/settings/provider-mutations.js';
import { emptyDraft, toDraft } from '../../src/settings/provider-draft.js';
import { validateProviderDocument } from '../../src/settings/provider-schema.js';

const manual = {
  properties: {
    contextWindow: 1000,
    supportsJsonSchemaOutput: false,
    supportsNativeWebSearch: false,
    supportsMidConversationSystem: false,
    inputFormat: { supportsImage: false, supportsVideo: false, supportsPdf: false },
  },
  optionSpecs: { reasoningLevel: { values: ['low'], map: '{"effort": reasoningLevel}' }, maxOutputTokens: { max: 100 } },
};

function seeded() {
  let d = emptyDraft();
  d = { ...d, config: { ...d.config, providerOrder: [], defaultModelSelection: { providerId: 'a', modelId: 'm' } } };
  d = createProvider(d, {
    providerId: 'a',
    apiType: 'openai-responses',
    baseUrl: 'https://a.example',
    models: ['m'],
    apiKey: 'sk-aaaaaaaaaaaa',
  });
  d = createProvider(d, { providerId: 'b', apiType: 'openai-responses', baseUrl: 'https://b.example' });
  return upsertModelRule(d, 'a', 'm', { kind: 'smart', config: { enabled: true } });
}

describe('pure provider edits', () => {
  it('never mutate their input and produce valid documents', () => {
    const before = seeded();
    const snapshot = JSON.stringify(before);
    const after = updateProvider(before, 'a', { name: 'renamed', apiKey: null });
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(validateProviderDocument(after).ok).toBe(true);
    expect(after.config.providerConfigRules.providerRules[0]).toMatchObject({
      providerName: 'renamed',
      config: { access: { type: 'api-key', apiKey: null } },
    });
  });

  it('create appends to providerOrder when the file keeps one', () => {
    expect(seeded().config.providerOrder).toEqual(['a', 'b']);
  });

  it('delete removes the model rules, the order entry and a default selection pointing at the provider', () => {
    const d = deleteProvider(seeded(), 'a');
    expect(d.config.providerConfigRules.providerRules.map((r) => r.providerId)).toEqual(['b']);
    expect(d.config.modelConfigRules.providerModelRules).toEqual([]);
    expect(d.config.providerOrder).toEqual(['b']);
    expect(d.config.defaultModelSelection).toBeUndefined();
    expect(() => deleteProvider(d, 'a')).toThrow(/No provider/);
  });

  it('a model is smart or manual, never both: switching kinds moves it across lists', () => {
    const d = upsertModelRule(seeded(), 'a', 'm', { kind: 'manual', config: manual });
    expect(d.config.modelConfigRules.providerModelRules).toEqual([]);
    expect(d.config.modelConfigRules.manualProviderModelRules).toHaveLength(1);
    expect(validateProviderDocument(d).ok).toBe(true);
    expect(deleteModelRule(d, 'a', 'm').config.modelConfigRules.manualProviderModelRules).toEqual([]);
    expect(() => upsertModelRule(d, 'zzz', 'm', { kind: 'smart', config: {} })).toThrow(/No provider/);
  });

  it('providerId cannot be changed by an update', () => {
    expect(() => updateProvider(seeded(), 'a', { providerId: 'other' })).toThrow(/cannot be changed/);
  });

  it('the lenient draft reads a schema-invalid file and refuses a non-document', () => {
    expect(
      toDraft({
        schemaVersion: 9,
        config: {
          providerConfigRules: { providerRules: [{ providerId: 'x', odd: 1 }] },
          modelConfigRules: { providerModelRules: [], manualProviderModelRules: [] },
        },
      }),
    ).not.toBeNull();
    expect(toDraft([1, 2])).toBeNull();
  });
});
