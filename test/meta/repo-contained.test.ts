import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRepoFile, REPO_ROOT, treeFiles } from './tree-files.js';

const ROOTS = [
  'src',
  'test',
  'web',
  'bench',
  'docs',
  'scripts',
  'bin',
  'docker',
  '.ci',
  'README.md',
  'BENCHMARKS.md',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'vitest.config.ts',
  'vitest.e2e.config.ts',
];

/** Paths beside the checkout, or of the machine it was written on (design notes live in docs/). */
const OUTSIDE = /(?:\.\.\/)+shared\b|\/work\/(?:shared|main|wt|coord)\b/;

describe('nothing in the repository points outside it', () => {
  const files = treeFiles(ROOTS).filter((f) => f !== 'test/meta/repo-contained.test.ts');

  it('no "../shared", /work/… or home-directory paths', () => {
    const hits = files.flatMap((f) =>
      readRepoFile(f)
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('no pointer a person with a clone cannot open: tracker issues, design notes or seed documents', () => {
    // The code says why; the docs/ files are cited by their own names (docs/README.md).
    const POINTER = /\b[Ii]ssues? \d+\b|\bHUB-DESIGN\b|\bZCODE-PROTOCOL\b|\bTEST-PLAN\b|\bseeds? \d{3}\b/;
    const hits = files.flatMap((f) =>
      readRepoFile(f)
        .split('\n')
        .flatMap((line, i) => (POINTER.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('every relative link in a markdown file leads to a file inside the repository', () => {
    const broken: string[] = [];
    for (const f of files.filter((x) => x.endsWith('.md'))) {
      for (const m of readRepoFile(f).matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
        const abs = path.resolve(REPO_ROOT, path.dirname(f), target);
        if (!abs.startsWith(REPO_ROOT + path.sep) || !fs.existsSync(abs)) broken.push(`${f}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
