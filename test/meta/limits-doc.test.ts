import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits.js';
import { LIMITS_DOC, renderLimitsDoc } from '../../scripts/limits-doc.js';

describe('docs/LIMITS.md', () => {
  it('is what `npm run docs:limits` generates from src/limits.ts (run it after changing a limit)', () => {
    expect(fs.readFileSync(LIMITS_DOC, 'utf8')).toBe(renderLimitsDoc());
  });

  it('lists every limit with a description', () => {
    const doc = renderLimitsDoc();
    for (const key of Object.keys(LIMITS)) expect(doc).toMatch(new RegExp(`\\| \`${key}\` \\| [^|]+ \\| [^|\\s][^\\n]* \\|`));
  });
});
