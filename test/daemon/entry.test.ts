import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseEntry } from '../../bin/entry.js';

/** bin/entry.js: a dist/ older than src/ (a pull or an edit after `npm run build`) never runs. */

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

function checkout(): { root: string; touch: (rel: string, atMs: number) => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-entry-'));
  roots.push(root);
  const touch = (rel: string, atMs: number) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file)) fs.writeFileSync(file, '');
    fs.utimesSync(file, atMs / 1000, atMs / 1000);
  };
  return { root, touch };
}

describe('chooseEntry', () => {
  const t = Date.parse('2026-11-30T00:00:00Z');

  it('runs dist/ when it is at least as new as every source file, else the sources', () => {
    const { root, touch } = checkout();
    touch('src/cli/main.ts', t);
    touch('src/domain/deep/file.ts', t);
    expect(chooseEntry(root, {})).toMatchObject({ kind: 'source', reason: 'dist/ is not built' });
    touch('dist/cli/main.js', t + 1_000);
    expect(chooseEntry(root, {})).toMatchObject({ kind: 'dist', main: path.join(root, 'dist', 'cli', 'main.js') });
    touch('src/domain/deep/file.ts', t + 2_000);
    expect(chooseEntry(root, {})).toMatchObject({
      kind: 'source',
      main: path.join(root, 'src', 'cli', 'main.ts'),
      reason: 'dist/ is older than src/',
    });
    expect(chooseEntry(root, { ZCODE_HUB_FROM_SOURCE: '1' }).kind).toBe('source');
  });

  it('ZCODE_HUB_ENTRY (a bundle of the sources the unit suites build) wins over dist/ and ZCODE_HUB_FROM_SOURCE', () => {
    const { root, touch } = checkout();
    touch('src/cli/main.ts', t);
    touch('dist/cli/main.js', t + 1_000);
    const bundle = path.join(root, 'bundle', 'cli.mjs');
    for (const env of [{ ZCODE_HUB_ENTRY: bundle }, { ZCODE_HUB_ENTRY: bundle, ZCODE_HUB_FROM_SOURCE: '1' }])
      expect(chooseEntry(root, env)).toEqual({ kind: 'bundle', main: bundle, reason: 'ZCODE_HUB_ENTRY is set' });
    expect(chooseEntry(root, { ZCODE_HUB_ENTRY: '' }).kind).toBe('dist');
  });

  it('an installed package without src/ runs dist/', () => {
    const { root, touch } = checkout();
    touch('dist/cli/main.js', t);
    expect(chooseEntry(root, {}).kind).toBe('dist');
  });
});
