import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// HUB-DESIGN §2: the protocol layer imports neither fastify, ws nor node:child_process.
const FORBIDDEN = [/^fastify/, /^@fastify\//, /^ws$/, /^(node:)?child_process$/, /\/(gateway|http|backend|domain)\//];

describe('src/acp layering', () => {
  it('imports nothing from the transport or domain layers', () => {
    const dir = join(import.meta.dirname, '../../src/acp');
    const offenders: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(dir, file), 'utf8');
      for (const [, spec] of source.matchAll(/from\s+'([^']+)'/g)) {
        if (spec !== undefined && FORBIDDEN.some((re) => re.test(spec))) offenders.push(`${file}: ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
