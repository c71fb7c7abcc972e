import path from 'node:path';
import { z } from 'zod';

/** The parts of V8's `.cpuprofile` (Chrome DevTools Profile) the summary reads. */
const profileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number().int(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number().int(), columnNumber: z.number().int() }),
      hitCount: z.number().int().optional(),
    }),
  ),
  startTime: z.number(),
  endTime: z.number(),
  samples: z.array(z.number().int()),
  timeDeltas: z.array(z.number()),
});

export interface SelfTimeRow {
  name: string;
  where: string;
  selfMs: number;
  percent: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Non-idle share of the profiled time. */
  busyPercent: number;
  top: SelfTimeRow[];
  /** Self time grouped by area (src/<dir>, a node_modules package, node internals, GC, idle). */
  areas: SelfTimeRow[];
}

function area(url: string, fn: string): string {
  if (fn === '(idle)') return '(idle)';
  if (fn === '(garbage collector)') return '(garbage collector)';
  if (fn === '(program)') return '(program)';
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  // The daemon runs from src/ (tsx) or dist/ (built): both map to the same area name.
  const m = /\/(?:src|dist)\/([^/]+)\//.exec(url);
  if (m) return `src/${m[1]}`;
  return path.basename(url);
}

function shortUrl(url: string, line: number): string {
  if (url === '') return '';
  const nm = url.lastIndexOf('/node_modules/');
  const src = Math.max(url.indexOf('/src/'), url.indexOf('/dist/'));
  const short = nm !== -1 ? url.slice(nm + '/node_modules/'.length) : src !== -1 ? url.slice(src + 1) : url.replace(/^file:\/\//, '');
  return `${short}:${line + 1}`;
}

/** A part of the profile, in milliseconds from its start. */
export interface ProfileWindow {
  fromMs: number;
  toMs: number;
}

/** Calls `fn(nodeId, µs, msFromStart)` for each sample (timeDeltas[i] is the time before sample i; the following delta is sample i's). */
function eachSample(p: z.infer<typeof profileSchema>, fn: (id: number, us: number, atMs: number) => void): void {
  let at = 0;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i] ?? 0;
    fn(p.samples[i]!, p.timeDeltas[i + 1] ?? 0, at / 1000);
  }
}

/** Busy (non-idle) share of each `stepMs` of the profile, in percent: finds a scenario's phases. */
export function busyTimeline(json: unknown, stepMs = 1_000): number[] {
  const p = profileSchema.parse(json);
  const idleIds = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const busy: number[] = [];
  eachSample(p, (id, us, atMs) => {
    const k = Math.floor(atMs / stepMs);
    while (busy.length <= k) busy.push(0);
    if (!idleIds.has(id)) busy[k]! += us / 1000;
  });
  return busy.map((ms) => Math.round((ms * 100) / stepMs));
}

/** Self time per function and per area, from the sample stream (time deltas, not hit counts), of `window` when given. */
export function summariseProfile(json: unknown, topN = 25, window?: ProfileWindow): ProfileSummary {
  const p = profileSchema.parse(json);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  eachSample(p, (id, us, atMs) => {
    if (window && (atMs < window.fromMs || atMs >= window.toMs)) return;
    self.set(id, (self.get(id) ?? 0) + us);
  });
  const fns = new Map<string, SelfTimeRow>();
  const areas = new Map<string, SelfTimeRow>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const name = functionName || '(anonymous)';
    total += us;
    if (name === '(idle)') idle += us;
    const key = `${name}@${url}:${lineNumber}`;
    const row = fns.get(key) ?? { name, where: shortUrl(url, lineNumber), selfMs: 0, percent: 0 };
    row.selfMs += us / 1000;
    fns.set(key, row);
    const a = area(url, name);
    const arow = areas.get(a) ?? { name: a, where: '', selfMs: 0, percent: 0 };
    arow.selfMs += us / 1000;
    areas.set(a, arow);
  }
  const busy = total - idle;
  const finish = (rows: Iterable<SelfTimeRow>, n: number) =>
    [...rows]
      .filter((r) => r.name !== '(idle)')
      .map((r) => ({
        ...r,
        selfMs: Number(r.selfMs.toFixed(1)),
        percent: busy > 0 ? Number(((r.selfMs * 1000 * 100) / busy).toFixed(1)) : 0,
      }))
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, n);
  return {
    totalMs: total / 1000,
    busyPercent: total > 0 ? Number(((busy * 100) / total).toFixed(1)) : 0,
    top: finish(fns.values(), topN),
    areas: finish(areas.values(), 15),
  };
}

/** The summary as Markdown tables (percent = share of non-idle samples). */
export function profileMarkdown(s: ProfileSummary): string {
  const lines = [
    `Profiled ${(s.totalMs / 1000).toFixed(1)} s, busy ${s.busyPercent}% of it.`,
    '',
    '| area | self ms | % of busy |',
    '| --- | --- | --- |',
  ];
  for (const a of s.areas) lines.push(`| ${a.name} | ${a.selfMs} | ${a.percent} |`);
  lines.push('', '| function | where | self ms | % of busy |', '| --- | --- | --- | --- |');
  for (const r of s.top) lines.push(`| ${r.name.replace(/\|/g, '\\|')} | ${r.where} | ${r.selfMs} | ${r.percent} |`);
  return lines.join('\n');
}
