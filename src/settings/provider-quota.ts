/**
 * Account quota for zcode-acp-remote's quota card (`GET /api/quota`, docs/CLIENT-PROTOCOL.md).
 * The app reads `{glm: {kind, level?, items?}, opencode: {kind, windows?}}`. GLM Coding Plan
 * providers (access `zhipu-coding-plan-api-key`) have a quota API on the same origin their
 * model traffic goes to (`/api/monitor/usage/quota/limit`, bearer = the provider's key); the
 * hub asks it for each such provider of the personal provider file, in `providerOrder`.
 * Opencode Go has no credentials in the hub, so it is always `not_configured`.
 *
 * The key goes only to the origin the provider's own `baseUrl` names (where it already goes
 * with every model call) and never into a log line or an answer.
 */
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { PersonalProviderFile } from './provider-schema.js';

/** Path of the GLM quota endpoint, on the provider's origin. */
export const GLM_QUOTA_PATH = '/api/monitor/usage/quota/limit';
/** Origin used when a coding-plan provider names no `baseUrl`. */
const DEFAULT_GLM_ORIGIN = 'https://open.bigmodel.cn';

export type QuotaKind = 'success' | 'auth_error' | 'rate_limited' | 'unavailable' | 'not_configured';

/** One bar of the card (the app's `QuotaItem`). */
export interface QuotaItem {
  key: string;
  label: string;
  usedPercent: number;
  usedCount?: number;
  totalCount?: number;
  /** Epoch ms. */
  nextResetTime?: number;
  detail?: Array<{ modelCode: string; usage: number }>;
}

export interface ProviderQuota {
  providerId: string;
  providerName?: string;
  kind: QuotaKind;
  level?: string;
  items?: QuotaItem[];
}

export interface QuotaReport {
  /** The first GLM Coding Plan provider's section (what the app's card shows). */
  glm: { kind: QuotaKind; level?: string; items?: QuotaItem[] };
  opencode: { kind: 'not_configured' };
  /** Every coding-plan provider asked, in provider order. */
  providers: ProviderQuota[];
}

export interface QuotaLimits {
  quotaCacheMs: number;
  quotaUpstreamTimeoutMs: number;
  quotaUpstreamMaxBytes: number;
  quotaProvidersMax: number;
}

/** The body as text, or undefined once it passes `max` bytes (the answer is then `unavailable`). */
async function boundedText(res: Response, max: number): Promise<string | undefined> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const num = z
  .preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().finite())
  .optional()
  .catch(undefined);
const limitSchema = z.looseObject({
  type: z.string().catch(''),
  number: num,
  usage: num,
  remaining: num,
  currentValue: num,
  percentage: num,
  nextResetTime: num,
  usageDetails: z
    .array(z.looseObject({ modelCode: z.string(), usage: z.number() }))
    .optional()
    .catch(undefined),
});
const envelopeSchema = z.looseObject({
  success: z.boolean().optional().catch(undefined),
  code: z.union([z.number(), z.string()]).optional().catch(undefined),
  msg: z.string().optional().catch(undefined),
  data: z
    .looseObject({ level: z.string().optional().catch(undefined), limits: z.array(z.unknown()).optional().catch(undefined) })
    .nullish()
    .catch(undefined),
});

const AUTH_WORDS = /auth|token|unauthori[sz]ed|鉴权|授权|未登录/i;
const RATE_WORDS = /rate\s*limit|too many|too frequent|限流|频繁|稍后再试/i;

const clampPct = (n: number): number => Math.max(0, Math.min(100, Math.round(n)));

/** One upstream limit → one bar, or undefined when no percentage can be told. */
function toItem(raw: unknown): QuotaItem | undefined {
  const parsed = limitSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const l = parsed.data;
  const total =
    l.remaining !== undefined && l.currentValue !== undefined && l.remaining + l.currentValue > 0 ? l.remaining + l.currentValue : l.usage;
  let used: number | undefined;
  if (total !== undefined && total > 0) {
    if (l.remaining !== undefined && l.remaining >= 0 && l.remaining <= total) used = 100 - clampPct((l.remaining / total) * 100);
    else if (l.currentValue !== undefined && l.currentValue >= 0 && l.currentValue <= total)
      used = clampPct((l.currentValue / total) * 100);
  }
  // Older answers carry only `percentage`, the share used.
  if (used === undefined && l.percentage !== undefined) used = clampPct(l.percentage);
  if (used === undefined) return undefined;
  const tokens = l.type === 'TOKENS_LIMIT';
  const mcp = l.type === 'MCP_LIMIT' || l.type === 'TIME_LIMIT';
  // GLM numbers token windows by span: 5 = the five-hour window, 7 = the week.
  const [key, label] = tokens
    ? l.number === 5
      ? ['token_5h', '5h']
      : l.number === 7
        ? ['token_week', 'Week']
        : [`token_${l.number ?? ''}`.replace(/_$/, ''), l.number === undefined ? 'Token' : String(l.number)]
    : mcp
      ? ['mcp', 'MCP']
      : [(l.type || 'quota').toLowerCase(), l.type || 'Quota'];
  return {
    key,
    label,
    usedPercent: used,
    ...(l.currentValue === undefined ? {} : { usedCount: l.currentValue }),
    ...(l.usage === undefined ? {} : { totalCount: l.usage }),
    ...(l.nextResetTime === undefined ? {} : { nextResetTime: l.nextResetTime }),
    ...(l.usageDetails && l.usageDetails.length > 0
      ? { detail: l.usageDetails.map((d) => ({ modelCode: d.modelCode, usage: d.usage })) }
      : {}),
  };
}

const RANK: Readonly<Record<string, number>> = { token_5h: 0, token_week: 1, mcp: 3 };
const rank = (key: string): number => RANK[key] ?? (key.startsWith('token') ? 2 : 4);

/** The upstream answer (status + body text) → one provider's kind and bars. */
export function parseGlmQuota(status: number, body: string): Pick<ProviderQuota, 'kind' | 'level' | 'items'> {
  if (status === 429) return { kind: 'rate_limited' };
  if (status === 401 || status === 403) return { kind: 'auth_error' };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { kind: RATE_WORDS.test(body) ? 'rate_limited' : 'unavailable' };
  }
  const env = envelopeSchema.safeParse(json);
  if (!env.success) return { kind: 'unavailable' };
  const e = env.data;
  if (e.success !== true) {
    if (e.code === 401 || e.code === 1001 || (e.msg !== undefined && AUTH_WORDS.test(e.msg))) return { kind: 'auth_error' };
    if (e.msg !== undefined && RATE_WORDS.test(e.msg)) return { kind: 'rate_limited' };
    return { kind: 'unavailable' };
  }
  const items = (e.data?.limits ?? []).map(toItem).filter((i): i is QuotaItem => i !== undefined);
  if (items.length === 0) return { kind: 'unavailable' };
  items.sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
  return { kind: 'success', level: e.data?.level ?? '', items };
}

interface CodingPlanProvider {
  providerId: string;
  providerName?: string;
  apiKey: string;
  origin: string;
}

/** Enabled GLM Coding Plan providers with a key, in provider order. */
export function codingPlanProviders(doc: PersonalProviderFile | null): CodingPlanProvider[] {
  if (!doc) return [];
  const order = doc.config.providerOrder ?? [];
  const rules = [...doc.config.providerConfigRules.providerRules].sort((a, b) => {
    const ia = order.indexOf(a.providerId);
    const ib = order.indexOf(b.providerId);
    return (ia === -1 ? Number.MAX_SAFE_INTEGER : ia) - (ib === -1 ? Number.MAX_SAFE_INTEGER : ib);
  });
  const out: CodingPlanProvider[] = [];
  for (const r of rules) {
    const access = r.config.access;
    if (r.enabled === false || access?.type !== 'zhipu-coding-plan-api-key' || !access.apiKey?.trim()) continue;
    let origin = DEFAULT_GLM_ORIGIN;
    const base = r.config.api?.baseUrl?.trim();
    if (base) {
      try {
        const u = new URL(base);
        if (u.protocol === 'https:' || u.protocol === 'http:') origin = u.origin;
      } catch {
        // An unparsable baseUrl (a draft being edited) falls back to the default origin.
      }
    }
    out.push({
      providerId: r.providerId,
      ...(r.providerName ? { providerName: r.providerName } : {}),
      apiKey: access.apiKey.trim(),
      origin,
    });
  }
  return out;
}

/** Asks every coding-plan provider's quota API; answers are cached `quotaCacheMs` per file version. */
export class QuotaService {
  private cached: { etag: string; at: number; report: Promise<QuotaReport> } | undefined;

  constructor(
    private readonly deps: {
      read: () => Promise<{ etag: string; doc: PersonalProviderFile | null }>;
      limits: QuotaLimits;
      logger?: Logger;
      fetch?: typeof fetch;
    },
  ) {}

  /** The card's data; never throws for an upstream failure (that is a provider's `kind`). */
  async report(): Promise<QuotaReport> {
    const { etag, doc } = await this.deps.read();
    const now = Date.now();
    const c = this.cached;
    if (c && c.etag === etag && now - c.at < this.deps.limits.quotaCacheMs) return c.report;
    const report = this.build(doc);
    this.cached = { etag, at: now, report };
    return report;
  }

  private async build(doc: PersonalProviderFile | null): Promise<QuotaReport> {
    const providers = codingPlanProviders(doc).slice(0, this.deps.limits.quotaProvidersMax);
    const sections = await Promise.all(providers.map((p) => this.ask(p)));
    const first = sections[0];
    const glm = first
      ? { kind: first.kind, ...(first.level === undefined ? {} : { level: first.level }), ...(first.items ? { items: first.items } : {}) }
      : { kind: 'not_configured' as const };
    return { glm, opencode: { kind: 'not_configured' }, providers: sections };
  }

  private async ask(p: CodingPlanProvider): Promise<ProviderQuota> {
    const who = { providerId: p.providerId, ...(p.providerName ? { providerName: p.providerName } : {}) };
    try {
      const res = await (this.deps.fetch ?? fetch)(`${p.origin}${GLM_QUOTA_PATH}`, {
        headers: { accept: 'application/json', authorization: `Bearer ${p.apiKey}` },
        redirect: 'error',
        signal: AbortSignal.timeout(this.deps.limits.quotaUpstreamTimeoutMs),
      });
      const body = await boundedText(res, this.deps.limits.quotaUpstreamMaxBytes);
      if (body === undefined) return { ...who, kind: 'unavailable' };
      return { ...who, ...parseGlmQuota(res.status, body) };
    } catch (err) {
      this.deps.logger?.info(
        { providerId: p.providerId, origin: p.origin, err: { name: (err as Error).name } },
        'quota upstream unreachable',
      );
      return { ...who, kind: 'unavailable' };
    }
  }
}
