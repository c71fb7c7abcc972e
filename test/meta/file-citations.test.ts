import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, readRepoFile, treeFiles } from './tree-files.js';

/**
 * The files the docs and the code comments point a reader at exist: every `src/…`, `web/src/…`,
 * `test/…` and `docs/…` path in docs/*.md or in a comment of src/, web/src/ and test/, and every
 * `name.ts` / `name.tsx` they name. A renamed or deleted file leaves no pointer behind.
 * (docs/ARCHITECTURE.md has its own, stricter checks in architecture-doc.test.ts.)
 */

/** Paths that name files outside this repository on purpose, each with where they live. */
const FOREIGN: Record<string, string> = {
  'src/a.ts': "an example path inside a session's workspace (how approval rules match paths)",
  'src/greet.ts': "the file the simulator's edit scenario writes in a session's workspace",
  'greet.ts': "the file the simulator's edit scenario writes in a session's workspace",
  'src/lib/acp.ts': "the zcode-acp-remote phone app's own repository",
  'src/lib/hub.ts': "the zcode-acp-remote phone app's own repository",
  'src/store/appStore.ts': "the zcode-acp-remote phone app's own repository",
  'utils.ts': 'a grab-bag module name docs/STYLE.md forbids',
  'types.ts': 'a grab-bag module name docs/STYLE.md forbids',
};

/** A repo path: one of the roots a reader opens, then folders and a file (a `*` is a glob). */
const REPO_PATH = /(?<![\w./*-])((?:src|web\/src|test|docs)\/[\w.*/-]*[\w*])/g;
/** A bare source file name (a path's last part is checked as a path, not here). */
const FILE_NAME = /(?<![\w./*-])([A-Za-z0-9][\w-]*(?:\.[\w-]+)*\.tsx?)\b(?![/\w-])/g;

const allFiles = treeFiles(['src', 'web', 'test', 'docs', 'bench', 'scripts', 'bin', 'docker', '.ci']);
// The repository's top-level files (configs, README) count as names too.
const baseNames = new Set([...allFiles.map((f) => path.posix.basename(f)), ...fs.readdirSync(REPO_ROOT)]);

/** Whether `cited` names an existing file or folder: a glob needs one match; a `../` prefix of a doc link is dropped. */
function pathExists(cited: string, files: readonly string[] = allFiles): boolean {
  const clean = cited.replace(/^(\.\.\/)+/, '').replace(/\/$/, '');
  if (clean.includes('*')) {
    const re = new RegExp(`^${clean.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    return files.some((f) => re.test(f));
  }
  return fs.existsSync(path.join(REPO_ROOT, clean));
}

/** Where a backticked name from a doc may live: a path as given or under src/, web/src/, web/, test/; a bare name anywhere. */
function nameExists(name: string, names: ReadonlySet<string> = baseNames): boolean {
  if (!name.includes('/')) return names.has(name);
  return (
    ['', 'src/', 'web/src/', 'web/', 'test/'].some((prefix) => pathExists(prefix + name)) || allFiles.some((f) => f.endsWith(`/${name}`))
  );
}

/** The comment text of one source line: after `//`, or a block comment's line (`/*`, ` *`). */
function commentOf(line: string): string | undefined {
  const block = /^\s*(?:\/\*+|\*)(?!\/)/.exec(line);
  if (block) return line.slice(block[0].length);
  const at = line.search(/(?<![:'"`\w])\/\/\s/);
  return at === -1 ? undefined : line.slice(at + 2);
}

describe('docs/*.md point only at files that exist', () => {
  const docs = treeFiles(['docs']).filter((f) => f.endsWith('.md'));

  it('every src/, web/src/, test/ and docs/ path', () => {
    const paths = docs.flatMap((doc) => [...readRepoFile(doc).matchAll(REPO_PATH)].map((m) => ({ doc, cited: m[1]! })));
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter(({ cited }) => !(cited in FOREIGN) && !pathExists(cited)).map(({ doc, cited }) => `${doc}: ${cited}`)).toEqual([]);
  });

  it('every backticked `name.ts` / `name.tsx`', () => {
    const names = docs.flatMap((doc) => [...readRepoFile(doc).matchAll(/`([\w./*-]+\.tsx?)`/g)].map((m) => ({ doc, name: m[1]! })));
    expect(names.length).toBeGreaterThan(200);
    const missing = names.filter(({ name }) => !(name in FOREIGN) && !(name.includes('*') ? pathExists(name) : nameExists(name)));
    expect(missing.map(({ doc, name }) => `${doc}: ${name}`)).toEqual([]);
  });
});

describe('comments in src/, web/src/ and test/ point only at files that exist', () => {
  const sources = treeFiles(['src', 'web/src', 'test']).filter((f) => /\.tsx?$/.test(f) && f !== 'test/meta/file-citations.test.ts');
  const cited = sources.flatMap((file) =>
    readRepoFile(file)
      .split('\n')
      .flatMap((line, i) => {
        const text = commentOf(line);
        if (text === undefined) return [];
        const at = `${file}:${i + 1}`;
        return [
          ...[...text.matchAll(REPO_PATH)].map((m) => ({ at, cited: m[1]!, exists: pathExists })),
          ...[...text.matchAll(FILE_NAME)].map((m) => ({ at, cited: m[1]!, exists: (n: string) => baseNames.has(n) })),
        ];
      }),
  );

  it('finds the citations (the extractor is not blind)', () => {
    expect(cited.length).toBeGreaterThan(500);
  });

  it('every path and file name a comment cites is in the repository (or named in FOREIGN with where it lives)', () => {
    const missing = cited.filter((c) => !(c.cited in FOREIGN) && !c.exists(c.cited)).map((c) => `${c.at}: ${c.cited}`);
    expect(missing).toEqual([]);
  });

  it('FOREIGN lists only names still cited somewhere', () => {
    const docsText = treeFiles(['docs']).map(readRepoFile).join('\n');
    const stale = Object.keys(FOREIGN).filter((name) => !cited.some((c) => c.cited === name) && !docsText.includes(name));
    expect(stale).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('reads comments, not code', () => {
    expect(commentOf('  // see src/domain/hub.ts')).toBe(' see src/domain/hub.ts');
    expect(commentOf(' * the journal (journal.ts)')).toBe(' the journal (journal.ts)');
    expect(commentOf("const url = 'http://x/y.ts';")).toBeUndefined();
    expect(commentOf('x(); // done')).toBe(' done');
  });

  it('a missing file, path or glob is caught; an existing one passes', () => {
    expect(pathExists('src/domain/hub.ts')).toBe(true);
    expect(pathExists('../src/domain/')).toBe(true);
    expect(pathExists('src/domain/no-such-file.ts')).toBe(false);
    expect(pathExists('src/wire/*-events.ts')).toBe(true);
    expect(pathExists('src/wire/*-nothing.ts')).toBe(false);
    expect(nameExists('prompt-flow.ts')).toBe(true);
    expect(nameExists('prompt-flows.ts')).toBe(false);
    expect(nameExists('support/axe.ts')).toBe(true);
    expect(nameExists('support/nothing.ts')).toBe(false);
  });

  it('finds paths and file names in running text', () => {
    const text = 'see src/http/app.ts and `hub.ts`, not http://host/src/x.ts';
    expect([...text.matchAll(REPO_PATH)].map((m) => m[1])).toEqual(['src/http/app.ts']);
    expect([...'the (journal.ts) and src/x/y.ts'.matchAll(FILE_NAME)].map((m) => m[1])).toEqual(['journal.ts']);
  });
});
