/**
 * Renders docs/LIMITS.md from src/limits.ts: every key of `LIMITS` with its default and the
 * JSDoc line above it. `npm run docs:limits` writes the file; test/meta/limits-doc.test.ts fails
 * when the file and the source disagree, so the reference cannot drift.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../src/limits.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const LIMITS_DOC = path.join(root, 'docs', 'LIMITS.md');
const LIMITS_SOURCE = path.join(root, 'src', 'limits.ts');

/** The JSDoc text above each key; a key without its own comment shares the one above it. */
function describeKeys(source: string): Map<string, string> {
  const out = new Map<string, string>();
  let last = '';
  for (const m of source.matchAll(/(?:\/\*\*([\s\S]*?)\*\/\s*)?\n\s*([a-zA-Z]\w*):/g)) {
    if (m[1] !== undefined)
      last = m[1]
        .replace(/\s*\n\s*\*\s?/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    out.set(m[2]!, last);
  }
  return out;
}

function human(key: string, value: number): string {
  const MiB = 1024 * 1024;
  if (/Bytes$/.test(key)) {
    if (value >= MiB && value % MiB === 0) return `${value / MiB} MiB`;
    if (value >= 1024 && value % 1024 === 0) return `${value / 1024} KiB`;
    return `${value} B`;
  }
  if (/Ms$/.test(key)) {
    if (value === 0) return '0 (off)';
    const s = value / 1000;
    if (s >= 86_400 && s % 86_400 === 0) return `${s / 86_400} d`;
    if (s >= 60 && s % 60 === 0) return `${s / 60} min`;
    return `${s} s`;
  }
  return value.toLocaleString('en-US');
}

/** The whole of docs/LIMITS.md. */
export function renderLimitsDoc(): string {
  const source = fs.readFileSync(LIMITS_SOURCE, 'utf8');
  const docs = describeKeys(source.slice(source.indexOf('export const LIMITS')));
  const rows = (Object.keys(LIMITS) as Array<keyof typeof LIMITS>).map((key) => {
    const text = (docs.get(key) ?? '').replace(/\|/g, '\\|');
    return `| \`${key}\` | ${human(key, LIMITS[key])} | ${text} |`;
  });
  return [
    '# Limits',
    '',
    '<!-- Generated from src/limits.ts by `npm run docs:limits`; do not edit by hand. -->',
    '',
    'Every bound the hub enforces has a name and a default in `src/limits.ts` (ARCHITECTURE.md §8).',
    'Each can be overridden in the config file under `"limits"` (same names, bytes and',
    'milliseconds), and each has a test that crosses it.',
    '',
    '| name | default | what it bounds |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(LIMITS_DOC, renderLimitsDoc());
  process.stdout.write(`wrote ${path.relative(root, LIMITS_DOC)}\n`);
}
