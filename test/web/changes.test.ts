import { describe, expect, it } from 'vitest';
import { appliedCount, cardCounts, changeTotals, collectChanges, countLines, relativePath } from '../../web/src/changes/changes.js';
import { highlightLine, languageOf } from '../../web/src/changes/highlight.js';
import { lineCount } from '../../web/src/diff-lines.js';
import { hunkStart, numberedDiff } from '../../web/src/changes/numbered-diff.js';
import type { ChatItem, ToolItem } from '../../web/src/hub/chat-types.js';

function card(
  id: string,
  status: ToolItem['status'],
  diffs: Array<{ path: string; oldText: string | null; newText: string }>,
  children?: ToolItem[],
): ToolItem {
  return {
    kind: 'tool',
    id,
    toolCallId: `call_${id}`,
    title: `Edit ${id}`,
    status,
    content: diffs.map((d) => ({ type: 'diff', ...d })),
    terminal: '',
    locations: [],
    ...(children ? { children } : {}),
  };
}

describe('Changes: files a session touched', () => {
  it('a Write its card marks `overwrites` replaced a file: not new, its lines not counted as "+N −0", and each such edit says so', () => {
    const replacing = { ...card('1', 'completed', [{ path: '/w/greet.ts', oldText: null, newText: 'a\nb' }]), overwrites: true };
    const items: ChatItem[] = [
      replacing,
      card('2', 'completed', [{ path: '/w/new.ts', oldText: null, newText: 'x' }]),
      card('3', 'completed', [{ path: '/w/greet.ts', oldText: 'a', newText: 'c' }]),
    ];
    const [greet, fresh] = collectChanges(items);
    // Replaced by 2 lines (what it removed is not known), then an Edit of +1 −1.
    expect(greet).toMatchObject({ created: false, replacedLines: 2, added: 1, removed: 1, counted: true });
    expect(greet!.edits.map((e) => e.overwrites)).toEqual([true, false]);
    expect(fresh).toMatchObject({ created: true, replacedLines: undefined, added: 1, removed: 0, counted: true });
    expect(fresh!.edits[0]!.overwrites).toBe(false);
    expect(changeTotals([greet!, fresh!])).toEqual({ added: 2, removed: 1, counted: true, replaced: 1 });
    // A file only a Write replaced has nothing counted: no "+2 −0" anywhere.
    const [only] = collectChanges([replacing]);
    expect(only).toMatchObject({ replacedLines: 2, added: 0, removed: 0, counted: false });
    expect(changeTotals([only!])).toEqual({ added: 0, removed: 0, counted: false, replaced: 1 });
    // The card's own "View changes" counts the same way.
    expect(cardCounts(replacing)).toEqual({ added: 0, removed: 0, counted: false, replacedLines: 2 });
    expect(cardCounts(items[2] as ToolItem)).toEqual({ added: 1, removed: 1, counted: true, replacedLines: undefined });
    // Unmarked, the same Write is a new file's: counted, "+2 −0" is then true.
    expect(cardCounts({ ...replacing, overwrites: false })).toEqual({ added: 2, removed: 0, counted: true, replacedLines: undefined });
    // A final newline ends the last line: "a\nb\n" replaced the file with 2 lines, as the permission sheet says.
    const [ended] = collectChanges([{ ...replacing, content: [{ type: 'diff', path: '/w/greet.ts', oldText: null, newText: 'a\nb\n' }] }]);
    expect(ended!.replacedLines).toBe(2);
  });

  it('groups diffs by path in first-touched order, skips failed cards, walks sub-agent children', () => {
    const items: ChatItem[] = [
      { kind: 'user', id: 'u', text: 'edit', images: [] },
      card('1', 'completed', [{ path: '/w/README.md', oldText: 'a', newText: 'a\nb' }]),
      card('2', 'failed', [{ path: '/w/denied.ts', oldText: null, newText: 'x' }]),
      card('3', 'completed', [{ path: '/w/src/new.ts', oldText: null, newText: 'one\ntwo' }]),
      card('4', 'completed', [], [card('5', 'pending', [{ path: '/w/README.md', oldText: 'b', newText: 'c' }])]),
    ];
    const files = collectChanges(items);
    expect(files.map((f) => f.path)).toEqual(['/w/README.md', '/w/src/new.ts']);
    expect(files[0]).toMatchObject({ added: 2, removed: 1, created: false });
    expect(files[0]!.edits.map((e) => e.status)).toEqual(['completed', 'pending']);
    expect(files[1]).toMatchObject({ added: 2, removed: 0, created: true });
    expect(appliedCount(files)).toBe(2);
    expect(appliedCount(collectChanges([card('6', 'pending', [{ path: '/w/p', oldText: 'a', newText: 'b' }])]))).toBe(0);
    expect(collectChanges([])).toEqual([]);
  });

  it('counts lines and shortens paths inside the workspace only', () => {
    expect(countLines(null, 'a\nb')).toEqual({ added: 2, removed: 0 });
    expect(countLines('a\nb', 'a\nc')).toEqual({ added: 1, removed: 1 });
    expect(relativePath('/w/src/a.ts', '/w')).toBe('src/a.ts');
  });

  it('counts lines as wc -l and git diff --stat do: a final newline ends a line, it does not start one', () => {
    const five = 'a\nb\nc\nd\ne\n';
    expect(lineCount(five)).toBe(5);
    expect(lineCount('a\nb\nc\nd\ne')).toBe(5);
    expect(lineCount('')).toBe(0);
    expect(lineCount('\n')).toBe(1);
    expect(countLines(null, five)).toEqual({ added: 5, removed: 0 });
    expect(countLines(null, '')).toEqual({ added: 0, removed: 0 });
    // A new file of five lines is five numbered rows, none of them an empty "+" line.
    const rows = numberedDiff(null, five);
    expect(rows.map((r) => (r.op === '…' ? '…' : `${r.op}${r.newNo}:${r.text}`))).toEqual(['+1:a', '+2:b', '+3:c', '+4:d', '+5:e']);
    // Changing the last line, with and without a trailing newline: one line out, one in.
    expect(countLines('a\nb\n', 'a\nc\n')).toEqual({ added: 1, removed: 1 });
    expect(countLines('a\nb', 'a\nc')).toEqual({ added: 1, removed: 1 });
    expect(numberedDiff('a\nb\n', 'a\nc\n')).toEqual([
      { op: ' ', text: 'a', oldNo: 1, newNo: 1 },
      { op: '-', text: 'b', oldNo: 2 },
      { op: '+', text: 'c', newNo: 2 },
    ]);
    expect(countLines('a\nb', 'a\nc\n')).toEqual({ added: 1, removed: 1 });
    // A last line that only gains its newline is no extra line (an Edit's text is often a piece of a file).
    expect(countLines('a\nb', 'a\nb\n')).toEqual({ added: 0, removed: 0 });
    expect(countLines('a\nb\n', 'a\nb\n')).toEqual({ added: 0, removed: 0 });
    // Replaced files and cards count the same way.
    const write = { ...card('w', 'completed', [{ path: '/w/new.ts', oldText: null, newText: five }]), overwrites: true };
    expect(cardCounts(write).replacedLines).toBe(5);
    expect(collectChanges([write])[0]?.replacedLines).toBe(5);
    const created = card('c', 'completed', [{ path: '/w/c.ts', oldText: null, newText: five }]);
    expect(cardCounts(created)).toMatchObject({ added: 5, removed: 0 });
    expect(collectChanges([created])[0]).toMatchObject({ added: 5, created: true });
  });

  it('keeps paths inside the workspace short', () => {
    expect(relativePath('/w/src/a.ts', '/w')).toBe('src/a.ts');
    expect(relativePath('/w/src/a.ts', '/w/')).toBe('src/a.ts');
    expect(relativePath('/wx/a.ts', '/w')).toBe('/wx/a.ts');
    expect(relativePath('/w/a.ts', undefined)).toBe('/w/a.ts');
  });

  it('numbers a hunk from where it starts and collapses long unchanged runs', () => {
    const rows = numberedDiff('x\ny', 'x\nY\ny', 10);
    expect(rows).toEqual([
      { op: ' ', text: 'x', oldNo: 10, newNo: 10 },
      { op: '+', text: 'Y', newNo: 11 },
      { op: ' ', text: 'y', oldNo: 11, newNo: 12 },
    ]);
    const long = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const changed = [...long];
    changed[10] = 'CHANGED';
    const trimmed = numberedDiff(long.join('\n'), changed.join('\n'));
    expect(trimmed[0]).toEqual({ op: '…', count: 7 });
    expect(trimmed[trimmed.length - 1]).toEqual({ op: '…', count: 6 });
    expect(trimmed.filter((r) => r.op === '-')).toEqual([{ op: '-', text: 'l10', oldNo: 11 }]);
    expect(numberedDiff(null, 'a\nb').map((r) => (r.op === '…' ? r : r.newNo))).toEqual([1, 2]);
  });

  it('finds where a hunk sits in the current file, only when unambiguous', () => {
    expect(hunkStart('# T\n\nA project.\n\n## Usage\n', 'A project.\n\n## Usage')).toBe(3);
    expect(hunkStart('ab\nab\n', 'ab')).toBeUndefined();
    expect(hunkStart('abc', 'zzz')).toBeUndefined();
    expect(hunkStart('abc', '')).toBeUndefined();
  });
});

describe('diff highlighting', () => {
  it('picks a language by extension', () => {
    expect(languageOf('/w/src/a.ts')).toBe('js');
    expect(languageOf('x.PY')).toBe('py');
    expect(languageOf('Dockerfile')).toBe('sh');
    expect(languageOf('notes')).toBeUndefined();
    expect(languageOf('.gitignore')).toBeUndefined();
  });

  it('tokenises keywords, strings, comments and numbers; the tokens re-form the line', () => {
    const line = 'export const n = 42; // "the answer"';
    const tokens = highlightLine(line, 'js');
    expect(tokens.map((t) => t.text).join('')).toBe(line);
    expect(tokens.filter((t) => t.cls === 'kw').map((t) => t.text)).toEqual(['export', 'const']);
    expect(tokens.find((t) => t.cls === 'num')?.text).toBe('42');
    expect(tokens[tokens.length - 1]).toEqual({ cls: 'com', text: '// "the answer"' });
    const str = highlightLine('x = "a \\" b" + y', 'py');
    expect(str.find((t) => t.cls === 'str')?.text).toBe('"a \\" b"');
    expect(highlightLine('"unterminated', 'js')).toEqual([{ cls: 'str', text: '"unterminated' }]);
    expect(highlightLine('# Title', 'md')).toEqual([{ cls: 'kw', text: '# Title' }]);
    expect(highlightLine('use `x` here', 'md').map((t) => t.cls)).toEqual(['plain', 'str', 'plain']);
    expect(highlightLine('plain text', undefined)).toEqual([{ cls: 'plain', text: 'plain text' }]);
    expect(highlightLine('', 'js')).toEqual([]);
  });
});
