import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GONE_METHODS, VERIFIED_CLI_VERSIONS } from '../../src/backend/cli-version.js';
import { readRepoFile, treeFiles } from './tree-files.js';

/** docs/APP-SERVER.md §16.1 and the constant the hub checks against name the same versions. */
describe('verified CLI versions', () => {
  it('the table in docs/APP-SERVER.md §16.1 lists exactly VERIFIED_CLI_VERSIONS', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'APP-SERVER.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### 16.1'), doc.indexOf('### 16.2'));
    const versions = [...section.matchAll(/^\| (\d+\.\d+\.\d+\S*) \|/gm)].map((m) => m[1]);
    expect(versions).toEqual([...VERIFIED_CLI_VERSIONS]);
  });

  it('§16.3 lists exactly GONE_METHODS, and the typed client names none of them', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'APP-SERVER.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### 16.3'), doc.indexOf('## 17.'));
    const listed = [...section.matchAll(/^\| `([a-z]+\/[A-Za-z]+)\*?` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(Object.keys(GONE_METHODS));
    const client = treeFiles(['src/app-server']).filter((f) => f.endsWith('.ts'));
    expect(client.length).toBeGreaterThan(0);
    const named = client.flatMap((f) =>
      Object.keys(GONE_METHODS)
        .filter((m) => readRepoFile(f).includes(`'${m}`))
        .map((m) => `${f}: ${m}`),
    );
    expect(named).toEqual([]);
  });
});
