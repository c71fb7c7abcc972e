/**
 * What differs between the recorded run and the replayed one, learned from the hub's own
 * requests: the hub makes fresh ids (`inputId`, `commandId`) and works in another workspace,
 * and the recorded child echoed the old ones (turn events carry the prompt's `inputId`, §4.8;
 * snapshots carry the workspace path, §3.1). Every string the hub sent differently at the same
 * place of a matched request is replaced in what the replayer writes.
 */

/** Strings shorter than this are never substituted (a mode or a level is not an id). */
const MIN_CHARS = 6;

/** Recorded value → live value. */
export class Substitutions {
  private readonly map = new Map<string, string>();
  /** Path-like keys, longest first, replaced inside longer strings too (`/old/ws/file.ts`). */
  private paths: string[] = [];

  /** Learns from a recorded request's params and the live request matched to it. */
  learn(recorded: unknown, live: unknown): void {
    if (typeof recorded === 'string' && typeof live === 'string') {
      if (recorded !== live && recorded.length >= MIN_CHARS && !this.map.has(recorded)) {
        this.map.set(recorded, live);
        if (recorded.includes('/') || recorded.includes('\\')) this.paths = [...this.paths, recorded].sort((a, b) => b.length - a.length);
      }
      return;
    }
    if (Array.isArray(recorded) && Array.isArray(live)) {
      for (const [i, r] of recorded.entries()) this.learn(r, live[i]);
      return;
    }
    if (isObject(recorded) && isObject(live)) for (const [k, r] of Object.entries(recorded)) this.learn(r, live[k]);
  }

  /** A copy of `value` with every learned string replaced. */
  apply(value: unknown): unknown {
    if (typeof value === 'string') return this.string(value);
    if (Array.isArray(value)) return value.map((v) => this.apply(v));
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.apply(v)]));
    return value;
  }

  /** How alike a recorded request's params (after substitution) are to live params: equal leaves count up, different ones down. */
  likeness(recorded: unknown, live: unknown): number {
    const r = this.apply(recorded);
    if (typeof r !== 'object' || r === null || typeof live !== 'object' || live === null) return r === live ? 1 : -1;
    let score = 0;
    const keys = new Set([...Object.keys(r), ...Object.keys(live)]);
    for (const k of keys) score += this.likeness((r as Record<string, unknown>)[k], (live as Record<string, unknown>)[k]);
    return score;
  }

  private string(s: string): string {
    const exact = this.map.get(s);
    if (exact !== undefined) return exact;
    let out = s;
    for (const p of this.paths) if (out.includes(p)) out = out.split(p).join(this.map.get(p)!);
    return out;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
