/**
 * What models the app-server offers right now. Since `workspace/readState` was removed, the
 * only source is a create/resume snapshot: `settings.model.available` lists **all** registry
 * models there (ZCODE-PROTOCOL.md §3.6, §4.1). So the catalog opens a `deferred` draft session
 * (not listed, not persisted until a first send), reads the list and closes it. Results are
 * cached briefly and dropped whenever the provider file changes.
 */
import { z } from 'zod';
import type { BackendPort } from '../ports/backend-port.js';
import { toHubError } from '../backend-errors.js';
import { workspaceRef } from './workflow-service.js';

export const modelOptionSchema = z.looseObject({
  ref: z.looseObject({ providerId: z.string(), modelId: z.string() }),
  label: z.string(),
  providerLabel: z.string().optional(),
  description: z.string().optional(),
  contextWindow: z.number().optional(),
  maxOutputTokens: z.number().optional(),
  reasoning: z.looseObject({ levels: z.array(z.looseObject({ value: z.string(), label: z.string() })), defaultLevel: z.string().optional() }).optional(),
  disabledReason: z.string().optional(),
});
export type ModelOption = z.infer<typeof modelOptionSchema>;

const createResultSchema = z.looseObject({
  session: z.looseObject({ sessionId: z.string() }),
  settings: z.looseObject({ model: z.looseObject({ available: z.array(z.unknown()) }) }),
});

export interface ModelCatalogOptions {
  backend: BackendPort;
  defaultWorkspace: string;
  /** How long a fetched list is reused; the file watcher of the CLI needs ~1 s anyway (§9.3). */
  ttlMs?: number;
}

export class ModelCatalog {
  private readonly backend: BackendPort;
  private readonly defaultWorkspace: string;
  private readonly ttlMs: number;
  private cached: { at: number; epoch: number; models: ModelOption[] } | null = null;
  private inflight: Promise<ModelOption[]> | null = null;

  constructor(options: ModelCatalogOptions) {
    this.backend = options.backend;
    this.defaultWorkspace = options.defaultWorkspace;
    this.ttlMs = options.ttlMs ?? 2_000;
  }

  /** Forget the cached list (after a provider write). */
  invalidate(): void {
    this.cached = null;
  }

  /** Models of the registry; entries that do not parse are skipped rather than failing the list. */
  async list(): Promise<ModelOption[]> {
    const epoch = this.backend.status().epoch;
    if (this.cached && this.cached.epoch === epoch && Date.now() - this.cached.at < this.ttlMs) return this.cached.models;
    // Concurrent callers share one draft session.
    this.inflight ??= this.fetch().finally(() => (this.inflight = null));
    const models = await this.inflight;
    this.cached = { at: Date.now(), epoch, models };
    return models;
  }

  private async fetch(): Promise<ModelOption[]> {
    let raw: unknown;
    try {
      raw = await this.backend.request('session/create', {
        workspace: workspaceRef(this.defaultWorkspace),
        persistence: 'deferred',
        titleGenerationEnabled: false,
      });
    } catch (error) {
      throw toHubError(error);
    }
    const parsed = createResultSchema.safeParse(raw);
    if (!parsed.success) return [];
    // Best effort: a draft that is never sent to is not persisted anyway (§4.1 `deferred`).
    void this.backend.request('session/close', { sessionId: parsed.data.session.sessionId }).catch(() => undefined);
    return parsed.data.settings.model.available.flatMap((entry) => {
      const option = modelOptionSchema.safeParse(entry);
      return option.success ? [option.data] : [];
    });
  }
}
