import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERIFIED_CLI_VERSIONS } from '../../src/backend/cli-version.js';

/** docs/APP-SERVER.md §16.1 and the constant the hub checks against name the same versions. */
describe('verified CLI versions', () => {
  it('the table in docs/APP-SERVER.md §16.1 lists exactly VERIFIED_CLI_VERSIONS', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'APP-SERVER.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### 16.1'), doc.indexOf('### 16.2'));
    const versions = [...section.matchAll(/^\| (\d+\.\d+\.\d+\S*) \|/gm)].map((m) => m[1]);
    expect(versions).toEqual([...VERIFIED_CLI_VERSIONS]);
  });
});
