import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../requirements.js';
import { extractCitations, resolves, sectionsOf } from './doc-citations.js';
import { readRepoFile, treeFiles } from './tree-files.js';

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
  'vitest.config.ts',
  'vitest.e2e.config.ts',
];

describe('section citations resolve inside the repository (docs/README.md maps the names)', () => {
  const files = treeFiles(ROOTS).filter((f) => !f.startsWith('test/meta/doc-citations'));
  const citations = files.flatMap((f) => extractCitations(f, readRepoFile(f)));

  it('finds the citations (the extractor is not blind)', () => {
    expect(citations.length).toBeGreaterThan(400);
  });

  it('every "ARCHITECTURE.md §n" / "APP-SERVER.md §n" / bare "§n" names a section that docs/ has', () => {
    const broken = citations
      .filter((c) => !resolves(c))
      .map((c) => `${c.file}:${c.line} §${c.section} (${c.candidates.join(' or ')}): ${c.text}`);
    expect(broken).toEqual([]);
  });

  it('every "STYLE.md habit n" names a habit that docs/STYLE.md numbers', () => {
    const habits = new Set([...readRepoFile('docs/STYLE.md').matchAll(/^(\d+)\. \*\*/gm)].map((m) => m[1]));
    expect(habits.size).toBeGreaterThan(10);
    const unknown: string[] = [];
    for (const f of files) {
      for (const m of readRepoFile(f).matchAll(/STYLE\.md habit (\d+)/g)) if (!habits.has(m[1])) unknown.push(`${f}: ${m[0]}`);
    }
    expect(unknown).toEqual([]);
  });

  it('every "requirement <id>" names an id of test/requirements.ts', () => {
    const unknown: string[] = [];
    for (const f of files) {
      for (const m of readRepoFile(f).matchAll(/requirements? ((?:[A-Z]+-)+\d+[A-Z0-9]*)/g))
        if (!(m[1]! in REQUIREMENTS)) unknown.push(`${f}: ${m[0]}`);
    }
    expect(unknown).toEqual([]);
  });
});

describe('the citation checker itself', () => {
  it('flags a section the document does not have, and accepts one it has', () => {
    const [bad, good] = extractCitations('src/x.ts', '// ARCHITECTURE.md §42.1 and ARCHITECTURE.md §4.5');
    expect(resolves(bad!)).toBe(false);
    expect(resolves(good!)).toBe(true);
  });

  it('resolves a bare § against the documents named just above it, else the app-server notes', () => {
    const text = [
      '/**',
      ' * The race (ARCHITECTURE.md §4.5).',
      ' * Rules (§4.4).',
      ' */',
      ...Array(20).fill(''),
      '// framing (§1.2)',
      '// nothing here (§4.4.4)',
    ].join('\n');
    const [, prompts, framing, missing] = extractCitations('src/x.ts', text);
    expect(prompts!.candidates).toEqual(['ARCHITECTURE']);
    expect(resolves(prompts!)).toBe(true);
    expect(framing!.candidates).toEqual(['APP-SERVER']);
    expect(resolves(framing!)).toBe(true);
    expect(resolves(missing!)).toBe(false);
  });

  it('ignores sections of RFCs', () => {
    expect(extractCitations('src/x.ts', 'If-Match (RFC 9110 §13.1.1)')).toEqual([]);
  });

  it('reads numbered headings', () => {
    expect([...sectionsOf('# T\n## 4. Domain\n### 4.5 Race\n#### 11.19 Both\n## Not numbered\n')]).toEqual(['4', '4.5', '11.19']);
  });
});
