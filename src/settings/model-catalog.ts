/**
 * What models the app-server offers right now. Since `workspace/readState` was removed, the
 * only source is a create/resume snapshot: `settings.model.available` lists **all** registry
 * models there (APP-SERVER.md §3.6, §4.1). So the catalog opens a `deferred` draft session
 * (not listed, not persisted until a first send), reads the list and closes it. Results are
 * cached briefly and dropped whenever the provider file changes.
 */
import { z } from 'zod';
import type { AppServer } from '../app-server/client.js';
import type { BackendPort } from '../ports/backend-port.js';

export const modelOptionSchema = z.looseObject({
  ref: z.looseObject({ providerId: z.string(), modelId: z.string() }),
  label: z.string(),
  providerLabel: z.string().optional(),
  description: z.string().optional(),
  contextWindow: z.number().optional(),
  maxOutputTokens: z.number().optional(),
  reasoning: z
    .looseObject({ levels: z.array(z.looseObject({ value: z.string(), label: z.string() })), defaultLevel: z.string().optional() })
    .optional(),
  disabledReason: z.string().optional(),
});
export type ModelOption = z.infer<typeof modelOptionSchema>;

export interface ModelCatalogOptions {
  appServer: Pick<AppServer, 'draftModels'>;
  /** Whose epoch invalidates the cache (a respawned child may have another registry). */
  backend: Pick<BackendPort, 'status'>;
  defaultWorkspace: string;
  /** How long a fetched list is reused; the file watcher of the CLI needs ~1 s anyway (§9.3). */
  ttlMs?: number;
}

export class ModelCatalog {
  private readonly app: ModelCatalogOptions['appServer'];
  private readonly backend: ModelCatalogOptions['backend'];
  private readonly defaultWorkspace: string;
  private readonly ttlMs: number;
  private cached: { at: number; epoch: number; models: ModelOption[] } | null = null;
  private inflight: Promise<ModelOption[]> | null = null;

  constructor(options: ModelCatalogOptions) {
    this.app = options.appServer;
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
    // A draft that is never sent to is not persisted anyway (§4.1 `deferred`); the client closes it.
    const available = (await this.app.draftModels(this.defaultWorkspace)) ?? [];
    return available.flatMap((entry) => {
      const option = modelOptionSchema.safeParse(entry);
      return option.success ? [option.data] : [];
    });
  }
}
