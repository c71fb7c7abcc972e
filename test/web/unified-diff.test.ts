import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../web/src/changes/unified-diff.js';

describe("git's unified diff as the Changes view's rows", () => {
  it('numbers context, removed and added lines and puts a gap between hunks', () => {
    const diff = [
      'diff --git a/f.txt b/f.txt',
      'index 1..2 100644',
      '--- a/f.txt',
      '+++ b/f.txt',
      '@@ -2,2 +2,2 @@ ctx',
      ' two',
      '-three',
      '+THREE',
      '@@ -10,1 +10,2 @@',
      ' ten',
      '+eleven',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    expect(parseUnifiedDiff(diff)).toEqual([
      { op: '…', count: 1 },
      { op: ' ', text: 'two', oldNo: 2, newNo: 2 },
      { op: '-', text: 'three', oldNo: 3 },
      { op: '+', text: 'THREE', newNo: 3 },
      { op: '…', count: 6 },
      { op: ' ', text: 'ten', oldNo: 10, newNo: 10 },
      { op: '+', text: 'eleven', newNo: 11 },
    ]);
  });

  it('a new file is all additions from line 1; a binary file gives no rows', () => {
    expect(parseUnifiedDiff('diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+a\n+b\n')).toEqual([
      { op: '+', text: 'a', newNo: 1 },
      { op: '+', text: 'b', newNo: 2 },
    ]);
    expect(parseUnifiedDiff('diff --git a/p b/p\nBinary files /dev/null and b/p differ\n')).toEqual([]);
  });

  it('a deleted file is all removals', () => {
    expect(parseUnifiedDiff('--- a/d\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n')).toEqual([{ op: '-', text: 'bye', oldNo: 1 }]);
  });
});
