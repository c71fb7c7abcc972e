import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { parseProviderFile, providerUsable, type SimProviderFile } from './schemas/provider-file.js';
import type { ModelEntry } from './models.js';
import type { SimulatorCore } from './simulator-core.js';

/** §9.3: the running app-server polls the personal file every 1,000 ms. */
export const PROVIDER_POLL_MS = 1_000;

/** Built-in capability rule standing in for zcode-builtin.json (§9.1): GLM-5.x models need a reasoning level. */
function builtinLevels(modelId: string): { levels: string[]; defaultLevel: string } | undefined {
  return /^glm-5/i.test(modelId) ? { levels: ['low', 'medium', 'high'], defaultLevel: 'high' } : undefined;
}

/** Pure: the models a valid personal file contributes (enabled + complete providers only, §9.2). */
export function personalLayer(file: SimProviderFile): {
  models: ModelEntry[];
  providerIds: string[];
  defaultSelection?: { providerId: string; modelId: string };
} {
  const models: ModelEntry[] = [];
  const providerIds: string[] = [];
  const { providerModelRules, manualProviderModelRules } = file.config.modelConfigRules;
  for (const rule of file.config.providerConfigRules.providerRules) {
    if (rule.enabled === false || !providerUsable(rule)) continue;
    providerIds.push(rule.providerId);
    const ids = rule.config.personalModelIds ?? [];
    const order = rule.config.modelOrder ?? [];
    const sorted = [...ids].sort(
      (a, b) => (order.indexOf(a) === -1 ? 1e9 : order.indexOf(a)) - (order.indexOf(b) === -1 ? 1e9 : order.indexOf(b)),
    );
    for (const modelId of sorted) {
      const smart = providerModelRules.find((r) => r.providerId === rule.providerId && r.modelId === modelId)?.config;
      const manual = manualProviderModelRules.find((r) => r.providerId === rule.providerId && r.modelId === modelId)?.config;
      if (smart?.enabled === false || manual?.enabled === false) continue;
      const builtin = builtinLevels(modelId);
      const levels = manual?.optionSpecs.reasoningLevel.values ?? smart?.optionSpecs?.reasoningLevel?.values ?? builtin?.levels;
      models.push({
        providerId: rule.providerId,
        modelId,
        label: modelId,
        providerLabel: rule.providerName ?? rule.providerId,
        contextWindow: manual?.properties.contextWindow ?? smart?.properties?.contextWindow ?? 200_000,
        supportsImage: manual?.properties.inputFormat.supportsImage ?? smart?.properties?.inputFormat?.supportsImage ?? false,
        ...(levels
          ? { levels, defaultLevel: levels.includes(builtin?.defaultLevel ?? '') ? builtin?.defaultLevel : levels[levels.length - 1] }
          : {}),
      });
    }
  }
  const d = file.config.defaultModelSelection;
  return { models, providerIds, ...(d ? { defaultSelection: { providerId: d.providerId, modelId: d.modelId } } : {}) };
}

/**
 * Watches `ZCODE_PERSONAL_PROVIDER_CONFIG_FILE` (§9.3): strict and all-or-nothing (an invalid
 * file empties the personal layer and is logged), polled every second by SHA-256 of the
 * content, re-read at once by `provider/testModelConnectivity`.
 */
export function startProviderWatcher(sim: SimulatorCore, file: string | undefined): { stop: () => void } {
  if (!file) return { stop: () => undefined };
  let lastHash: string | undefined;
  const load = (force: boolean): void => {
    let content = '';
    try {
      content = fs.readFileSync(file, 'utf8');
    } catch {
      content = '';
    }
    const hash = createHash('sha256').update(content).digest('hex');
    if (!force && hash === lastHash) return;
    lastHash = hash;
    if (content.trim() === '') {
      sim.registry.setPersonal([], []);
      return;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(content);
    } catch (err) {
      sim.log.error({ file, err: String(err) }, 'personal provider file is not JSON; personal providers disabled');
      sim.registry.setPersonal([], []);
      return;
    }
    const v = parseProviderFile(doc);
    if (!v.ok) {
      sim.log.error({ file, issues: v.issues.slice(0, 5) }, 'personal provider file is invalid; personal providers disabled until fixed');
      sim.registry.setPersonal([], []);
      return;
    }
    const layer = personalLayer(v.file);
    sim.registry.setPersonal(layer.models, layer.providerIds, layer.defaultSelection);
    sim.log.info({ providers: layer.providerIds.length, models: layer.models.length }, 'personal providers loaded');
  };
  load(true);
  const timer = setInterval(() => load(false), PROVIDER_POLL_MS);
  timer.unref();
  sim.providerRefresh = () => load(true);
  return { stop: () => clearInterval(timer) };
}
