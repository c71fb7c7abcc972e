import { describe, expect, it } from 'vitest';
import { parseProviderFile, providerUsable, type SimProviderRule } from '../../src/simulator/schemas/provider-file.js';
import { isProviderComplete, validateProviderDocument, type ProviderRule } from '../../src/settings/provider-schema.js';

/**
 * The simulator judges the personal provider file with its own schema (APP-SERVER.md §9.2),
 * not the hub's. Each case is checked against the simulator's copy; the last test checks that
 * the two independent copies agree on every case, so a drift in either shows up here.
 */
const rule = (over: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({
  providerId: 'p',
  providerName: 'P',
  ...over,
  config: {
    group: 'standard-personal',
    access: { type: 'api-key', apiKey: 'sk-1' },
    api: { type: 'anthropic-messages', baseUrl: 'https://api.example.com' },
    personalModelIds: ['m'],
    ...config,
  },
});
const file = (rules: unknown[], models: { smart?: unknown[]; manual?: unknown[] } = {}, extra: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  config: {
    providerConfigRules: { providerRules: rules },
    modelConfigRules: { providerModelRules: models.smart ?? [], manualProviderModelRules: models.manual ?? [] },
    ...extra,
  },
});
const manual = {
  properties: {
    contextWindow: 1000,
    supportsJsonSchemaOutput: true,
    supportsNativeWebSearch: false,
    supportsMidConversationSystem: true,
    inputFormat: { supportsImage: true, supportsVideo: false, supportsPdf: false },
  },
  optionSpecs: { reasoningLevel: { values: ['low', 'high'], map: '{"effort": reasoningLevel}' }, maxOutputTokens: { max: 8192 } },
};

const VALID: Array<[string, unknown]> = [
  ['the minimal file', file([rule()])],
  ['an empty file', file([])],
  [
    'nullable sparse keys and a provider order',
    file([rule({ templateId: null }, { logo: null, visibility: 'hidden', modelOrder: ['m'] })], {}, { providerOrder: ['p'] }),
  ],
  ['an incomplete URL while editing', file([rule({}, { api: { type: 'openai-responses', baseUrl: 'not a url' } })])],
  [
    'a smart rule and a manual rule on different models',
    file([rule()], {
      smart: [{ providerId: 'p', modelId: 'a', config: { enabled: false } }],
      manual: [{ providerId: 'p', modelId: 'b', config: manual }],
    }),
  ],
  [
    'a default selection',
    file([rule()], {}, { defaultModelSelection: { providerId: 'p', modelId: 'm', options: { reasoningLevel: 'high' } } }),
  ],
];
const INVALID: Array<[string, unknown]> = [
  ['no schemaVersion', { config: file([]).config }],
  ['schemaVersion 2', { ...file([]), schemaVersion: 2 }],
  ['an unknown top-level key', { ...file([]), extra: 1 }],
  ['an unknown key deep in a rule', file([rule({}, { api: { type: 'anthropic-messages', baseUrl: 'https://a.example', proxy: 'x' } })])],
  ['builtinModelIds in a personal rule', file([rule({}, { builtinModelIds: ['x'] })])],
  ['a duplicate providerId', file([rule(), rule()])],
  ['access on an account: provider, even null', file([rule({ providerId: 'account:z' }, { access: null })])],
  [
    'a model both smart and manual',
    file([rule()], { smart: [{ providerId: 'p', modelId: 'm', config: {} }], manual: [{ providerId: 'p', modelId: 'm', config: manual }] }),
  ],
  [
    'a manual rule missing a leaf',
    file([rule()], {
      manual: [
        { providerId: 'p', modelId: 'm', config: { ...manual, optionSpecs: { reasoningLevel: manual.optionSpecs.reasoningLevel } } },
      ],
    }),
  ],
  [
    'duplicate reasoning levels',
    file([rule()], { smart: [{ providerId: 'p', modelId: 'm', config: { optionSpecs: { reasoningLevel: { values: ['a', 'a'] } } } }] }),
  ],
  ['a wrong group', file([rule({}, { group: 'standard' })])],
];

describe('the simulator’s own provider-file schema (§9.2)', () => {
  it.each(VALID)('accepts %s', (_name, doc) => {
    expect(parseProviderFile(doc).ok).toBe(true);
  });

  it.each(INVALID)('rejects the whole file with %s', (_name, doc) => {
    const r = parseProviderFile(doc);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.length).toBeGreaterThan(0);
  });

  it('admits only complete providers: group, a non-blank key, a typed valid URL', () => {
    const usable = (config: Record<string, unknown>) => {
      const r = parseProviderFile(file([rule({}, config)]));
      return r.ok && providerUsable(r.file.config.providerConfigRules.providerRules[0] as SimProviderRule);
    };
    expect(usable({})).toBe(true);
    expect(usable({ access: { type: 'api-key', apiKey: '  ' } })).toBe(false);
    expect(usable({ api: { type: 'anthropic-messages', baseUrl: 'not a url' } })).toBe(false);
    expect(usable({ api: { baseUrl: 'https://a.example' } })).toBe(false);
    expect(usable({ group: null })).toBe(false);
    expect(usable({ access: { type: 'zhipu-account', accountType: 'zai', mode: 'start-plan', entitled: true } })).toBe(true);
  });

  it('agrees with the hub’s independent copy (src/settings/provider-schema.ts) on every case', () => {
    for (const [name, doc] of [...VALID, ...INVALID]) {
      const sim = parseProviderFile(doc);
      const hub = validateProviderDocument(doc);
      expect({ name, ok: sim.ok }).toEqual({ name, ok: hub.ok });
      if (sim.ok && hub.ok) {
        sim.file.config.providerConfigRules.providerRules.forEach((r, i) => {
          expect({ name, usable: providerUsable(r) }).toEqual({
            name,
            usable: isProviderComplete(hub.value.config.providerConfigRules.providerRules[i] as ProviderRule),
          });
        });
      }
    }
  });
});
