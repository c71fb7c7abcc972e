/** Finding and dating sessions in the list (search box, "5 min ago"). Pure. */
import type { SessionSummary } from './session-list.js';

/** True when every word of `query` is in the session's title or workspace path (case-insensitive). */
export function matchesQuery(s: SessionSummary, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = `${s.title ?? ''} ${s.cwd}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** When the session last did something (ms): its last update or the end of its last turn. */
export function lastActivity(s: SessionSummary): number | undefined {
  const t = s.updatedAt ? Date.parse(s.updatedAt) : NaN;
  const best = Math.max(Number.isNaN(t) ? 0 : t, s.finishedAt ?? 0);
  return best > 0 ? best : undefined;
}

/** A short age: `now` under a minute, then minutes, hours, days; `{n, unit}` for i18n. */
export function ageOf(then: number, now: number): { n: number; unit: 'now' | 'min' | 'h' | 'd' } {
  const s = Math.max(0, (now - then) / 1000);
  if (s < 60) return { n: 0, unit: 'now' };
  if (s < 3600) return { n: Math.floor(s / 60), unit: 'min' };
  if (s < 86_400) return { n: Math.floor(s / 3600), unit: 'h' };
  return { n: Math.floor(s / 86_400), unit: 'd' };
}
