import { describe, expect, it } from 'vitest';
import { IcLogReader, megamorphicTable, splitLogLine } from '../../bench/lib/ic-log.js';

/**
 * bench/lib/ic-log.ts on lines as node 20's V8 (11.3) writes them with `--log-ic`: code objects
 * named by `code-creation`, then the transitions of each access site at a pc inside one.
 */
const CODE = [
  'code-creation,JS,0,6700000,0x7f0000001000,4096,"_write node:internal/streams/writable:453:16",0x1,~',
  'code-creation,JS,0,6700010,0x7f0000003000,2048,"Socket._write node:net:929:44",0x2,*',
];
const ic = (pc: string, from: string, to: string, map: string, key: string, at = '454:24'): string =>
  `LoadIC,${pc},7000000,${at.replace(':', ',')},${from},${to},${map},${key},,`;

function read(lines: string[]) {
  const reader = new IcLogReader();
  for (const line of lines) reader.line(line);
  return reader.sites();
}

describe('ic-log: the state each access site ended in', () => {
  it('splits on commas outside quotes', () => {
    expect(splitLogLine('a,"b, c",d')).toEqual(['a', 'b, c', 'd']);
  });

  it('names the function holding the pc and counts the distinct maps up to megamorphic', () => {
    const maps = ['0x1a1', '0x1b1', '0x1c1', '0x1d1', '0x1e1'];
    const lines = [
      ...CODE,
      ic('0x7f0000001010', '0', '1', maps[0] ?? '', '_writableState'),
      ic('0x7f0000001010', '1', 'P', maps[1] ?? '', '_writableState'),
      ic('0x7f0000001010', 'P', 'P', maps[2] ?? '', '_writableState'),
      ic('0x7f0000001010', 'P', 'P', maps[3] ?? '', '_writableState'),
      ic('0x7f0000001010', 'P', 'N', maps[4] ?? '', '_writableState'),
      ic('0x7f0000001010', 'N', 'N', maps[0] ?? '', '_writableState'),
      ic('0x7f0000003100', '0', '1', maps[0] ?? '', '_handle', '947:13'),
      ic('0x7f0000003100', '0', '1', maps[0] ?? '', 'symbol("kHandle" hash 1c00284d)', '950:1'),
    ];
    expect(read(lines)).toEqual([
      { fn: '_write node:internal/streams/writable', at: '454:24', kind: 'LoadIC', key: '_writableState', state: 'N', maps: 5 },
      { fn: 'Socket._write node:net', at: '947:13', kind: 'LoadIC', key: '_handle', state: '1', maps: 1 },
      { fn: 'Socket._write node:net', at: '950:1', kind: 'LoadIC', key: 'symbol("kHandle")', state: '1', maps: 1 },
    ]);
  });

  it('follows a code object that moved, and a pc outside every code object is "?"', () => {
    const lines = [
      ...CODE,
      'code-move,0x7f0000003000,0x7f0000009000',
      ic('0x7f0000009010', '0', '1', '0x2a1', 'connecting', '931:12'),
      ic('0x7f00000ff000', '0', '1', '0x2a1', 'x'),
    ];
    expect(read(lines).map((s) => s.fn)).toEqual(['Socket._write node:net', '?']);
  });

  it("merges a site's transitions logged under a caller that inlined it", () => {
    const lines = [
      ...CODE,
      'code-creation,JS,0,6700020,0x7f0000005000,4096,"Writable.write node:internal/streams/writable:504:36",0x3,*',
      ic('0x7f0000001010', '0', '1', '0x1', '_writableState'),
      ic('0x7f0000005010', '1', 'P', '0x2', '_writableState'),
    ];
    expect(read(lines)).toEqual([
      { fn: '_write node:internal/streams/writable', at: '454:24', kind: 'LoadIC', key: '_writableState', state: 'P', maps: 2 },
    ]);
  });

  it('tables the sites megamorphic in the first log with their state in the second', () => {
    const hub = read([
      ...CODE,
      ...['0x1', '0x2', '0x3', '0x4', '0x5'].map((m, i) => ic('0x7f0000001010', i ? 'P' : '0', i === 4 ? 'N' : 'P', m, '_writableState')),
    ]);
    const bare = read([
      ...CODE,
      ic('0x7f0000001010', '0', '1', '0x9', '_writableState'),
      ic('0x7f0000001010', '1', 'P', '0x8', '_writableState'),
    ]);
    const table = megamorphicTable(hub, bare, /writable/);
    expect(table.split('\n')).toEqual([
      '| function | line:column | key | first | second |',
      '| --- | --- | --- | --- | --- |',
      '| _write node:internal/streams/writable | 454:24 | _writableState | N (5 maps) | P (2 maps) |',
    ]);
    expect(megamorphicTable(bare, hub, /writable/).split('\n')).toHaveLength(2);
    // A site logged only while interpreted (no holder named) takes the other log's name for it.
    const interpreted = read([ic('0x5', '0', 'N', '0x7', '_writableState')]);
    expect(interpreted[0]?.fn).toBe('?');
    expect(megamorphicTable(interpreted, bare, /writable/).split('\n')[2]).toBe(
      '| _write node:internal/streams/writable | 454:24 | _writableState | N (1 maps) | P (2 maps) |',
    );
  });
});
