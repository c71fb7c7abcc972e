/**
 * Checks imports against the table in layers.ts. Pure over file contents, so the test can
 * also prove that a forbidden import is caught.
 */
import path from 'node:path';
import {
  BACKEND_FILES,
  FILE_UNITS,
  LAYER_ORDER,
  LAYERS,
  type LayerRule,
  UNITS,
  type UnitRule,
  WEB_MAY_IMPORT_SRC,
  WEB_SHARED_MODULES,
} from './layers.js';

export interface ImportRef {
  spec: string;
  typeOnly: boolean;
}

/** Every import/export-from/dynamic import/side-effect import of a TypeScript source. */
export function importsOf(text: string): ImportRef[] {
  const out: ImportRef[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)(\s+type)?\b([^'";]*?)\bfrom\s+['"]([^'"]+)['"]/g))
    out.push({ spec: m[4]!, typeOnly: Boolean(m[2]) });
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) out.push({ spec: m[1]!, typeOnly: false });
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

/** The unit of a path relative to src/ (`domain/hub.ts` → `domain`). */
export function unitOf(rel: string): string {
  const file = rel.replace(/\.js$/, '.ts');
  return FILE_UNITS[file] ?? (file.includes('/') ? file.split('/')[0]! : file);
}

/** Violations of the table by one file under src/ (`rel` relative to src/) with content `text`. */
export function srcViolations(rel: string, text: string): string[] {
  const from = unitOf(rel);
  const rule = UNITS[from];
  if (!rule) return [`src/${rel}: unit "${from}" is not in test/meta/layers.ts — add it with its allowed imports`];
  const ban = (LAYERS[rule.layer] as LayerRule).forbiddenPackages;
  const out: string[] = [];
  for (const { spec } of importsOf(text)) {
    if (spec.startsWith('.')) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec)).replace(/\.js$/, '.ts');
      if (target.startsWith('..')) {
        out.push(`src/${rel} imports ${spec}, outside src/`);
        continue;
      }
      const to = unitOf(target);
      if (to === from || rule.imports.includes('*') || rule.imports.includes(to) || rule.alsoFiles?.includes(target)) continue;
      out.push(`src/${rel} (${from}) imports src/${target} (${to}): not an allowed arrow`);
    } else if (ban?.patterns.some((re) => re.test(spec))) {
      out.push(`src/${rel} (${from}) imports ${spec}: ${ban.why}`);
    }
  }
  if (from === 'backend') {
    const name = rel.slice('backend/'.length);
    for (const { spec } of importsOf(text)) {
      if (/^(node:)?child_process$/.test(spec) && !BACKEND_FILES.process.includes(name))
        out.push(`src/${rel} imports ${spec}: only ${BACKEND_FILES.process.join(', ')} spawn processes`);
      if (BACKEND_FILES.protocol.includes(name) && BACKEND_FILES.protocolForbidden.test(spec))
        out.push(`src/${rel} imports ${spec}: a protocol file touches no processes, files or network`);
    }
  }
  return out;
}

/** Violations by one web app file (`rel` relative to the repo root). */
export function webViolations(rel: string, text: string): string[] {
  return importsOf(text)
    .filter(({ spec, typeOnly }) => {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
      if (!target.startsWith('src/')) return false;
      return !(WEB_MAY_IMPORT_SRC === 'type-only' && typeOnly) && !WEB_SHARED_MODULES.includes(target.replace(/\.js$/, '.ts'));
    })
    .map(
      ({ spec }) => `${rel} imports ${spec}: the web app may take only types from src/ (import type), or values from WEB_SHARED_MODULES`,
    );
}

/** Arrows of the table itself that point up a layer (`cli`'s `*` aside): the table must be layered. */
export function upwardArrows(units: Record<string, UnitRule> = UNITS): string[] {
  const rank = (unit: string) => LAYER_ORDER.indexOf(units[unit]!.layer);
  const out: string[] = [];
  for (const [from, rule] of Object.entries(units)) {
    const targets = [...rule.imports.filter((u) => u !== '*'), ...(rule.alsoFiles ?? []).map(unitOf)];
    for (const to of targets) {
      if (!units[to]) out.push(`${from} → ${to}: no such unit`);
      else if (rank(to) > rank(from)) out.push(`${from} (${rule.layer}) → ${to} (${units[to].layer}): points up a layer`);
    }
  }
  return out;
}

/**
 * The layer table of docs/ARCHITECTURE.md §2, as layer → units: rows `| \`layer\` | \`unit\`, … | … | bans |`
 * between the `<!-- layers -->` and `<!-- /layers -->` markers.
 */
export function docLayerTable(markdown: string): { layer: string; units: string[]; bans: string }[] {
  const start = markdown.indexOf('<!-- layers -->');
  const end = markdown.indexOf('<!-- /layers -->');
  if (start < 0 || end < start) return [];
  return markdown
    .slice(start, end)
    .split('\n')
    .filter((line) => /^\| `/.test(line))
    .map((line) => {
      const cells = line.split('|').map((c) => c.trim());
      return {
        layer: cells[1]!.replace(/`/g, ''),
        units: [...cells[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
        bans: cells[4] ?? '',
      };
    });
}
