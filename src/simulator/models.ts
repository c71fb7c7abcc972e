import { ProtocolError, RPC } from './protocol-error.js';
import type { ModelOption } from '../wire/settings.js';
import type { ModelSelection } from './schemas/common.js';

/** A `ModelOption` of `settings.model.available` (§3.6), as the strict reading of src/wire/settings.ts types it. */
export type { ModelOption };

/** What the registry knows about one selectable model. */
export interface ModelEntry {
  providerId: string;
  modelId: string;
  label: string;
  providerLabel: string;
  contextWindow: number;
  /** Reasoning levels, low → high; when present a reasoning level is required (§3.2). */
  levels?: string[];
  defaultLevel?: string;
  supportsImage?: boolean;
}

export const SIM_PROVIDER_ID = 'sim';

/** The built-in catalogue: `sim/sim-fast` (no reasoning) and `sim/sim-pro` (levels like GLM-5.x). */
export const BUILTIN_MODELS: readonly ModelEntry[] = [
  {
    providerId: SIM_PROVIDER_ID,
    modelId: 'sim-fast',
    label: 'Sim Fast',
    providerLabel: 'Simulator',
    contextWindow: 128_000,
    supportsImage: true,
  },
  {
    providerId: SIM_PROVIDER_ID,
    modelId: 'sim-pro',
    label: 'Sim Pro',
    providerLabel: 'Simulator',
    contextWindow: 200_000,
    levels: ['low', 'medium', 'high'],
    defaultLevel: 'medium',
    supportsImage: true,
  },
];

/** Converts a registry entry to its wire shape. */
export function toModelOption(m: ModelEntry): ModelOption {
  return {
    ref: { providerId: m.providerId, modelId: m.modelId },
    label: m.label,
    providerLabel: m.providerLabel,
    contextWindow: m.contextWindow,
    ...(m.levels
      ? {
          reasoning: { levels: m.levels.map((v) => ({ value: v, label: v })), ...(m.defaultLevel ? { defaultLevel: m.defaultLevel } : {}) },
        }
      : {}),
    properties: {
      inputFormat: {
        supportsText: true,
        supportsImage: m.supportsImage ?? false,
        supportsVideo: false,
        supportsAudio: false,
        supportsPdf: false,
      },
      outputFormat: { supportsText: true },
    },
  };
}

/**
 * The provider registry: built-in models plus the personal layer published by the provider
 * file watcher (§9). Lookups read the current layer, so a hot reload takes effect at once.
 */
export class ModelRegistry {
  private personal: ModelEntry[] = [];
  private personalDefault: ModelSelection | undefined;
  private personalProviderIds = new Set<string>();

  /** Replaces the personal layer (all-or-nothing, §9.3). */
  setPersonal(models: ModelEntry[], providerIds: Iterable<string>, defaultSelection?: ModelSelection): void {
    this.personal = models;
    this.personalProviderIds = new Set(providerIds);
    this.personalDefault = defaultSelection;
  }

  all(): ModelEntry[] {
    return [...BUILTIN_MODELS, ...this.personal];
  }

  /** `model.available` of create/resume: every model of the registry (§4.1). */
  available(): ModelOption[] {
    return this.all().map(toModelOption);
  }

  find(providerId: string, modelId: string): ModelEntry | undefined {
    return this.all().find((m) => m.providerId === providerId && m.modelId === modelId);
  }

  /** The selection a new session gets when create names none. */
  defaultSelection(): ModelSelection {
    const d = this.personalDefault;
    if (d && this.find(d.providerId, d.modelId)) return d;
    return { providerId: SIM_PROVIDER_ID, modelId: 'sim-fast' };
  }

  /**
   * Resolves a selection like the runtime does: unknown provider/model and missing or
   * unsupported reasoning levels are -32603 errors (§3.2, §4.14).
   */
  resolve(sel: ModelSelection, requireReasoning: boolean): ModelEntry {
    const providerKnown = sel.providerId === SIM_PROVIDER_ID || this.personalProviderIds.has(sel.providerId);
    if (!providerKnown)
      throw new ProtocolError(RPC.internal, `Provider Registry 中不存在 ${sel.providerId}`, {
        name: 'ProviderRegistryError',
        stack: '',
        code: 'provider_not_found',
      });
    const m = this.find(sel.providerId, sel.modelId);
    if (!m)
      throw new ProtocolError(RPC.internal, `Model ${sel.modelId} is not available from provider ${sel.providerId}`, {
        name: 'ProviderRegistryError',
        stack: '',
        code: 'model_not_found',
      });
    const level = sel.options?.reasoningLevel;
    if (m.levels) {
      if (level === undefined && requireReasoning) {
        throw new ProtocolError(RPC.internal, `Reasoning level is required for ${m.providerId}/${m.modelId}`, {
          name: 'ModelOptionError',
          stack: '',
          code: 'reasoning_level_required',
        });
      }
      if (level !== undefined && !m.levels.includes(level)) {
        throw new ProtocolError(RPC.internal, `Reasoning effort "${level}" is not supported by ${m.providerId}/${m.modelId}`, {
          name: 'ModelOptionError',
          stack: '',
          code: 'reasoning_level_unsupported',
        });
      }
    } else if (level !== undefined && requireReasoning) {
      throw new ProtocolError(RPC.internal, `Reasoning effort "${level}" is not supported by ${m.providerId}/${m.modelId}`, {
        name: 'ModelOptionError',
        stack: '',
        code: 'reasoning_level_unsupported',
      });
    }
    return m;
  }
}
