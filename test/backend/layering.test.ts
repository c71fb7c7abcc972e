import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.resolve(import.meta.dirname, '..', '..', 'src', 'backend');

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]!);
}

/** The protocol half of the link: bytes → messages → correlation → answers (HUB-DESIGN §2). */
const PROTOCOL_FILES = ['ndjson.ts', 'envelope.ts', 'rpc-peer.ts', 'reverse-router.ts', 'interaction-dedupe.ts', 'backoff.ts', 'rate-limit.ts', 'transport.ts', 'stderr-ring.ts', 'bounds.ts', 'spawn-env.ts'];
/** The only files that may touch processes. */
const PROCESS_FILES = new Set(['child-transport.ts', 'pidfile.ts']);

describe('src/backend layering', () => {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it('only the child transport and the pidfile import node:child_process', () => {
    const offenders = files.filter((f) => !PROCESS_FILES.has(f) && importsOf(f).some((s) => /^(node:)?child_process$/.test(s)));
    expect(offenders).toEqual([]);
  });

  it('protocol files import neither processes, the filesystem nor the network', () => {
    for (const f of PROTOCOL_FILES) expect(files).toContain(f);
    const offenders = PROTOCOL_FILES.flatMap((f) => importsOf(f).filter((s) => /^(node:)?(child_process|fs|net|http|https)$/.test(s)).map((s) => `${f} imports ${s}`));
    expect(offenders).toEqual([]);
  });

  it('the link never reaches into the gateway, HTTP, ws or fastify, nor into the simulator beyond its launcher', () => {
    const offenders = files.flatMap((f) =>
      importsOf(f)
        .filter((s) => /^(fastify|@fastify\/|ws$)|\/gateway\/|\/http\/|\/simulator\/(?!launcher\.js$)/.test(s))
        .map((s) => `${f} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
