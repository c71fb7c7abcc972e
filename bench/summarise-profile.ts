/**
 * `node --import tsx bench/summarise-profile.ts <file.cpuprofile> [topN]`: prints the self-time
 * summary (by area and by function) as Markdown, the form BENCHMARKS.md quotes.
 */
import fs from 'node:fs';
import { profileMarkdown, summariseProfile } from './lib/cpuprofile.js';

const [file, top] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: summarise-profile <file.cpuprofile> [topN]\n');
  process.exitCode = 2;
} else {
  const summary = summariseProfile(JSON.parse(fs.readFileSync(file, 'utf8')), top ? Number(top) : 25);
  process.stdout.write(`${profileMarkdown(summary)}\n`);
}
