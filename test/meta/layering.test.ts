import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '..', '..', 'src');

/** Imports each layer must not make (HUB-DESIGN §2, STYLE.md habit 2). */
const RULES: Array<{ layer: string; forbidden: RegExp[]; why: string }> = [
  {
    layer: 'domain',
    forbidden: [/^fastify/, /^@fastify\//, /^ws$/, /^node:child_process$/, /^child_process$/, /\/backend\//, /\/gateway\//, /\/http\//],
    why: 'the domain knows sessions and interactions, not sockets, HTTP or processes',
  },
  {
    layer: 'acp',
    forbidden: [/^fastify/, /^@fastify\//, /^ws$/, /^node:child_process$/, /\/backend\//, /\/gateway\//, /\/http\//, /\/domain\/hub/],
    why: 'translation is pure protocol code',
  },
  {
    layer: 'settings',
    forbidden: [/^fastify/, /^@fastify\//, /^ws$/, /^node:child_process$/, /\/gateway\//, /\/http\//],
    why: 'settings stores are domain code; their routes live in src/http/routes',
  },
  {
    layer: 'simulator',
    forbidden: [/^fastify/, /^@fastify\//, /^ws$/, /\/gateway\//, /\/http\//, /\/domain\//, /\/backend\//],
    why: 'the simulator is a separate program that only shares wire schemas',
  },
];

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]!);
}

describe('layering', () => {
  for (const rule of RULES) {
    it(`src/${rule.layer} does not reach across layers (${rule.why})`, () => {
      const dir = path.join(src, rule.layer);
      const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')) : [];
      const violations: string[] = [];
      for (const f of files) {
        for (const spec of importsOf(path.join(dir, f))) {
          if (rule.forbidden.some((re) => re.test(spec))) violations.push(`src/${rule.layer}/${f} imports ${spec}`);
        }
      }
      expect(violations).toEqual([]);
    });
  }
});
