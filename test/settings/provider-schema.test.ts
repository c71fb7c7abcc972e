import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_ACCESS_MESSAGE,
  CROSS_LIST_MESSAGE,
  canonicalizeProviderDocument,
  encodeProviderDocument,
  isProviderComplete,
  providerRuleSchema,
  validateProviderDocument,
} from '../../src/settings/provider-schema.js';

const manualConfig = {
  properties: {
    contextWindow: 128000,
    supportsJsonSchemaOutput: true,
    supportsNativeWebSearch: false,
    supportsMidConversationSystem: true,
    inputFormat: { supportsImage: true, supportsVideo: false, supportsPdf: false },
  },
  optionSpecs: { reasoningLevel: { values: ['low', 'high'], map: '{"effort": reasoningLevel}' }, maxOutputTokens: { max: 8192 } },
};

/** The minimal valid file of APP-SERVER.md §9.2. */
function minimal(): Record<string, unknown> {
  return {
    schemaVersion: 1,
    config: {
      providerConfigRules: {
        providerRules: [
          {
            providerId: 'hub-provider',
            providerName: 'hub-provider',
            config: {
              group: 'standard-personal',
              access: { type: 'api-key', apiKey: 'sk-123456789012' },
              api: { type: 'anthropic-messages', baseUrl: 'https://api.example.com/api/anthropic' },
              personalModelIds: ['GLM-5.3-Flash', 'GLM-5.3'],
              modelOrder: ['GLM-5.3-Flash', 'GLM-5.3'],
            },
          },
        ],
      },
      modelConfigRules: { providerModelRules: [], manualProviderModelRules: [] },
    },
  };
}

function withRules(rules: unknown[], models?: { smart?: unknown[]; manual?: unknown[] }) {
  return {
    schemaVersion: 1,
    config: {
      providerConfigRules: { providerRules: rules },
      modelConfigRules: { providerModelRules: models?.smart ?? [], manualProviderModelRules: models?.manual ?? [] },
    },
  };
}

describe('personal provider file schema (§9.2)', () => {
  it('accepts the minimal file of §9.2', () => {
    expect(validateProviderDocument(minimal()).ok).toBe(true);
  });

  it('schemaVersion gate with the CLI messages', () => {
    const { schemaVersion: _drop, ...noVersion } = minimal();
    expect(validateProviderDocument(noVersion)).toEqual({
      ok: false,
      issues: [{ path: 'schemaVersion', message: 'Provider Config 缺少 schemaVersion' }],
    });
    expect(validateProviderDocument({ ...minimal(), schemaVersion: 2 })).toMatchObject({
      ok: false,
      issues: [{ message: 'Provider Config schemaVersion 2 高于当前支持的 1' }],
    });
    expect(validateProviderDocument({ ...minimal(), schemaVersion: -1 })).toMatchObject({
      ok: false,
      issues: [{ message: 'Provider Config schemaVersion 必须是非负整数' }],
    });
    expect(validateProviderDocument({ ...minimal(), schemaVersion: 1.5 })).toMatchObject({
      ok: false,
      issues: [{ message: 'Provider Config schemaVersion 必须是非负整数' }],
    });
    expect(validateProviderDocument({ ...minimal(), schemaVersion: 0 }).ok).toBe(false);
    expect(validateProviderDocument(null).ok).toBe(false);
  });

  it('is strict at every level (unknown keys anywhere reject the whole file)', () => {
    const paths: [string, (d: any) => void][] = [
      ['root', (d) => (d.extra = 1)],
      ['config', (d) => (d.config.extra = 1)],
      ['rule', (d) => (d.config.providerConfigRules.providerRules[0].extra = 1)],
      ['rule config', (d) => (d.config.providerConfigRules.providerRules[0].config.extra = 1)],
      ['access', (d) => (d.config.providerConfigRules.providerRules[0].config.access.extra = 1)],
      ['api', (d) => (d.config.providerConfigRules.providerRules[0].config.api.extra = 1)],
      ['builtinModelIds', (d) => (d.config.providerConfigRules.providerRules[0].config.builtinModelIds = ['x'])],
      ['group', (d) => (d.config.providerConfigRules.providerRules[0].config.group = 'zai-family')],
      ['api type', (d) => (d.config.providerConfigRules.providerRules[0].config.api.type = 'grpc')],
    ];
    for (const [what, mutate] of paths) {
      const doc = minimal();
      mutate(doc);
      expect(validateProviderDocument(doc).ok, what).toBe(false);
    }
  });

  it('allows an incomplete baseUrl in a personal rule (editing state) but not in a complete one', () => {
    const rule = {
      providerId: 'p',
      config: {
        group: 'standard-personal',
        access: { type: 'api-key', apiKey: 'k' },
        api: { type: 'openai-responses', baseUrl: 'not a url' },
      },
    };
    expect(validateProviderDocument(withRules([rule])).ok).toBe(true);
    expect(isProviderComplete(providerRuleSchema.parse(rule))).toBe(false);
  });

  it('providerId must be unique: "重复 providerId: …"', () => {
    const result = validateProviderDocument(
      withRules([
        { providerId: 'a', config: {} },
        { providerId: 'a', config: {} },
      ]),
    );
    expect(result).toEqual({
      ok: false,
      issues: [{ path: 'config.providerConfigRules.providerRules.1.providerId', message: '重复 providerId: a' }],
    });
  });

  it('account: providers may not declare access (even null)', () => {
    for (const access of [{ type: 'api-key', apiKey: 'k' }, null]) {
      const result = validateProviderDocument(withRules([{ providerId: 'account:zai', config: { access } }]));
      expect(result).toEqual({
        ok: false,
        issues: [{ path: 'config.providerConfigRules.providerRules.0.config.access', message: ACCOUNT_ACCESS_MESSAGE }],
      });
    }
    expect(validateProviderDocument(withRules([{ providerId: 'account:zai', config: { visibility: 'hidden' } }])).ok).toBe(true);
  });

  it('a model may not be both smart and manual', () => {
    const smart = [{ providerId: 'p', modelId: 'm', config: { enabled: true } }];
    const manual = [{ providerId: 'p', modelId: 'm', config: manualConfig }];
    expect(validateProviderDocument(withRules([], { smart, manual }))).toEqual({
      ok: false,
      issues: [{ path: 'config.modelConfigRules.manualProviderModelRules.0', message: CROSS_LIST_MESSAGE }],
    });
    expect(validateProviderDocument(withRules([], { smart, manual: [{ ...manual[0], modelId: 'other' }] })).ok).toBe(true);
  });

  it('manual rules need every listed leaf; smart rules are sparse', () => {
    const incomplete = { ...manualConfig, optionSpecs: { reasoningLevel: manualConfig.optionSpecs.reasoningLevel } };
    expect(validateProviderDocument(withRules([], { manual: [{ providerId: 'p', modelId: 'm', config: incomplete }] })).ok).toBe(false);
    expect(
      validateProviderDocument(
        withRules([], { smart: [{ providerId: 'p', modelId: 'm', config: { properties: { contextWindow: null } } }] }),
      ).ok,
    ).toBe(true);
    const dupLevels = { ...manualConfig, optionSpecs: { ...manualConfig.optionSpecs, reasoningLevel: { values: ['a', 'a'], map: 'x' } } };
    expect(validateProviderDocument(withRules([], { manual: [{ providerId: 'p', modelId: 'm', config: dupLevels }] })).ok).toBe(false);
  });

  it('canonical key order of §9.3 and 2-space indent', () => {
    const scrambled = {
      config: {
        defaultModelSelection: { modelId: 'GLM-5.3', providerId: 'hub-provider' },
        modelConfigRules: {
          manualProviderModelRules: [],
          providerModelRules: [{ config: { enabled: false }, providerId: 'hub-provider', modelId: 'GLM-5.3' }],
        },
        providerConfigRules: {
          providerRules: [
            {
              config: { api: { baseUrl: 'https://x.example', type: 'openai-chat-completions' }, group: 'standard-personal' },
              enabled: true,
              providerName: 'n',
              templateId: 't',
              providerId: 'hub-provider',
            },
          ],
        },
        providerOrder: ['hub-provider'],
      },
      schemaVersion: 1,
    };
    const canonical = canonicalizeProviderDocument(scrambled);
    expect(Object.keys(canonical)).toEqual(['schemaVersion', 'config']);
    expect(Object.keys(canonical.config)).toEqual(['providerOrder', 'providerConfigRules', 'modelConfigRules', 'defaultModelSelection']);
    expect(Object.keys(canonical.config.providerConfigRules.providerRules[0]!)).toEqual([
      'providerId',
      'templateId',
      'providerName',
      'enabled',
      'config',
    ]);
    expect(Object.keys(canonical.config.providerConfigRules.providerRules[0]!.config)).toEqual(['group', 'api']);
    expect(Object.keys(canonical.config.providerConfigRules.providerRules[0]!.config.api!)).toEqual(['type', 'baseUrl']);
    expect(Object.keys(canonical.config.modelConfigRules)).toEqual(['providerModelRules', 'manualProviderModelRules']);
    expect(Object.keys(canonical.config.modelConfigRules.providerModelRules[0]!)).toEqual(['modelId', 'config', 'providerId']);
    const text = encodeProviderDocument(scrambled);
    expect(text.split('\n')[1]).toBe('  "schemaVersion": 1,');
    expect(encodeProviderDocument(JSON.parse(text))).toBe(text); // idempotent
    expect(() => canonicalizeProviderDocument({})).toThrow();
  });

  it('isProviderComplete: group + non-blank key + typed valid URL', () => {
    const base = {
      providerId: 'p',
      config: {
        group: 'standard-personal',
        access: { type: 'api-key', apiKey: 'k' },
        api: { type: 'anthropic-messages', baseUrl: 'https://a.example' },
      },
    } as const;
    const check = (rule: unknown) => isProviderComplete(providerRuleSchema.parse(rule));
    expect(check(base)).toBe(true);
    expect(check({ ...base, config: { ...base.config, group: null } })).toBe(false);
    expect(check({ ...base, config: { ...base.config, access: { type: 'api-key', apiKey: '  ' } } })).toBe(false);
    expect(check({ ...base, config: { ...base.config, api: { baseUrl: 'https://a.example' } } })).toBe(false);
    expect(
      check({
        ...base,
        config: { ...base.config, access: { type: 'zhipu-account', accountType: 'zai', mode: 'start-plan', entitled: true } },
      }),
    ).toBe(true);
    expect(check({ ...base, config: { ...base.config, access: { type: 'zhipu-account', accountType: 'zai' } } })).toBe(false);
  });
});
