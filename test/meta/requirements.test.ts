import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_YET_PROVED, REQUIREMENTS, type RequirementId } from '../requirements.js';

const root = path.resolve(import.meta.dirname, '..', '..');

function filesUnder(dir: string, pattern: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => pattern.test(f))
    .map((f) => path.join(dir, f));
}

/** The test files that may name ids (this one names them only to check them). */
const testFiles = (): string[] => filesUnder(path.join(root, 'test'), /\.test\.ts$/).filter((f) => !f.endsWith('requirements.test.ts'));

/** Ids named as `[ID]` in test titles, and bench scenarios that declare `proves: [...]`. */
function provedIds(): Set<string> {
  const ids = new Set<string>();
  for (const file of testFiles()) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/\[((?:[A-Z]+-\d+|B-[A-Z]+)(?:\s*,\s*(?:[A-Z]+-\d+|B-[A-Z]+))*)\]/g)) {
      for (const id of m[1]!.split(',')) ids.add(id.trim());
    }
  }
  for (const file of filesUnder(path.join(root, 'bench'), /\.ts$/)) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/proves:\s*\[([^\]]*)\]/g)) {
      for (const id of m[1]!.matchAll(/'([A-Z]+-[A-Z0-9]+)'/g)) ids.add(id[1]!);
    }
  }
  return ids;
}

describe('requirement coverage', () => {
  const proved = provedIds();
  const all = Object.keys(REQUIREMENTS) as RequirementId[];

  it('every requirement id is proved by a test or a bench scenario, unless listed as not yet proved', () => {
    const missing = all.filter((id) => !proved.has(id) && !(id in NOT_YET_PROVED));
    expect(missing).toEqual([]);
  });

  it('the not-yet-proved list holds no id that is in fact proved', () => {
    const stale = (Object.keys(NOT_YET_PROVED) as RequirementId[]).filter((id) => proved.has(id));
    expect(stale).toEqual([]);
  });

  it('no title carries a bracketed tag shaped like an id that the coverage check cannot read', () => {
    // `[SEC-11.2]` or `[pol-01]` proves nothing and is not flagged as unknown either: written for an id, read as text.
    const misshapen = testFiles().flatMap((f) =>
      [...fs.readFileSync(f, 'utf8').matchAll(/\[([A-Za-z]+-\d[\w.]*)\]/g)]
        .filter((m) => !/^[A-Z]+-\d+$/.test(m[1]!))
        .map((m) => `${path.relative(root, f)}: [${m[1]}]`),
    );
    expect(misshapen).toEqual([]);
  });

  it('tests name only ids that exist', () => {
    const unknown = [...proved].filter((id) => !(id in REQUIREMENTS));
    expect(unknown).toEqual([]);
  });
});
