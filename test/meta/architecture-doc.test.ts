import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/main.js';
import { KEYWORDS } from '../../src/simulator/scenarios/select.js';
import { ZCODE_NOTIFICATION, ZCODE_REQUEST } from '../../src/zcode-ext/methods.js';
import { REPO_ROOT, readRepoFile, treeFiles } from './tree-files.js';

/**
 * docs/ARCHITECTURE.md names real things: the files it cites exist, its folder table covers
 * src/, its command list is the CLI's command table, and the simulator words are the real ones.
 * Renaming a file or adding a command without the doc fails here.
 */
const DOC = 'docs/ARCHITECTURE.md';
const doc = readRepoFile(DOC);

/** Every backticked `*.ts` / `*.tsx` name in the doc, without a line's trailing `:n`. */
function citedSourceFiles(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(/`([\w./-]+\.tsx?)`/g)].map((m) => m[1]!))];
}

/** Where a cited name may live: a path is tried as given and under src/, web/src/ and test/; a bare name anywhere. */
function resolvesInRepo(name: string, files: readonly string[]): boolean {
  if (name.includes('/')) {
    const clean = name.replace(/^\.\.\//, '');
    return ['', 'src/', 'web/src/', 'test/'].some((prefix) => fs.existsSync(path.join(REPO_ROOT, prefix + clean)));
  }
  return files.some((f) => f.endsWith(`/${name}`));
}

/** The section of `markdown` from heading `## n.` to the next `## `. */
function section(markdown: string, n: number): string {
  const start = markdown.indexOf(`\n## ${n}. `);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

describe('docs/ARCHITECTURE.md agrees with the tree', () => {
  const files = treeFiles(['src', 'web/src', 'test']);

  it('every source file it names exists', () => {
    const cited = citedSourceFiles(doc);
    expect(cited.length).toBeGreaterThan(60);
    expect(cited.filter((name) => !resolvesInRepo(name, files))).toEqual([]);
  });

  it('its folder table has a row for every folder under src/, and none for a folder that is gone', () => {
    const folders = fs
      .readdirSync(path.join(REPO_ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}/`)
      .sort();
    const rows = [...doc.matchAll(/^\| `(src\/[\w-]+\/)` \|/gm)].map((m) => m[1]!).sort();
    expect(rows).toEqual(folders);
  });

  it('§9 lists exactly the commands of the CLI command table (src/cli/main.ts)', () => {
    const listed = [...section(doc, 9).matchAll(/^zcode-hub \[?([a-z][a-z-]*)/gm)].map((m) => m[1]!);
    expect([...new Set(listed)]).toEqual([...COMMAND_NAMES]);
  });

  it('every `_zcode/*` method it names is one the hub has (src/zcode-ext/methods.ts)', () => {
    const known = new Set<string>([...Object.values(ZCODE_REQUEST), ...Object.values(ZCODE_NOTIFICATION)]);
    const named = [...new Set([...doc.matchAll(/`(_zcode\/[a-z_/]*[a-z_])/g)].map((m) => m[1]!))];
    expect(named.length).toBeGreaterThan(4);
    expect(named.filter((m) => !known.has(m))).toEqual([]);
  });

  it('§1 names every word the simulator picks a flow by', () => {
    const words = section(doc, 1).match(/picks a flow from[\s\S]*?\)/)?.[0] ?? '';
    expect([...words.matchAll(/`([a-z]+)`/g)].map((m) => m[1])).toEqual([...KEYWORDS]);
  });
});

describe('the checks themselves', () => {
  it('a renamed file or a missing command is caught', () => {
    const files = ['src/domain/prompts/prompt-flow.ts', 'web/src/hub/hub-client.ts'];
    expect(citedSourceFiles('`prompt-flow.ts` and `domain/prompts/prompt-queue.ts` and `x.json`')).toEqual([
      'prompt-flow.ts',
      'domain/prompts/prompt-queue.ts',
    ]);
    expect(resolvesInRepo('prompt-flow.ts', files)).toBe(true);
    expect(resolvesInRepo('prompt-flows.ts', files)).toBe(false);
    expect(resolvesInRepo('domain/no-such-file.ts', files)).toBe(false);
    expect(resolvesInRepo('domain/hub.ts', files)).toBe(true);
  });
});
