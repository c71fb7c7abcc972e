/**
 * `node --import tsx bench/summarise-profile.ts <file.cpuprofile> [topN] [fromS-toS]`: prints the
 * self-time summary (by area and by function) as Markdown, the form BENCHMARKS.md quotes, of the
 * whole profile or of the seconds `fromS-toS` from its start.
 * `… <file.cpuprofile> --timeline`: the busy percent of each second, to find a scenario's phases.
 */
import fs from 'node:fs';
import { busyTimeline, profileMarkdown, summariseProfile, type ProfileWindow } from './lib/cpuprofile.js';

function parseWindow(arg: string | undefined): ProfileWindow | undefined {
  const m = arg === undefined ? null : /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(arg);
  return m ? { fromMs: Number(m[1]) * 1000, toMs: Number(m[2]) * 1000 } : undefined;
}

const [file, top, range] = process.argv.slice(2);
if (!file || (range !== undefined && !parseWindow(range))) {
  process.stderr.write('usage: summarise-profile <file.cpuprofile> [topN] [fromS-toS] | <file.cpuprofile> --timeline\n');
  process.exitCode = 2;
} else if (top === '--timeline') {
  const line = busyTimeline(JSON.parse(fs.readFileSync(file, 'utf8')))
    .map((b, s) => `${s}s ${b}%`)
    .join(', ');
  process.stdout.write(`${line}\n`);
} else {
  const summary = summariseProfile(JSON.parse(fs.readFileSync(file, 'utf8')), top ? Number(top) : 25, parseWindow(range));
  process.stdout.write(`${profileMarkdown(summary)}\n`);
}
