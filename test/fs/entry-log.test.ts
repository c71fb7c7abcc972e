import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EntryLog, REWRITE_SLACK_LINES, removeLegacyFile } from '../../src/fs/entry-log.js';
import { NotRegularFileError } from '../../src/fs/secure-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function fileIn(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-entry-log-'));
  dirs.push(d);
  return path.join(d, 'store.ndjson');
}
const linesOf = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

type Value = Record<string, unknown>;
/** A log whose lines are `{k, ...value}`, and the store's entries beside it. */
function store(file: string): { log: EntryLog<Value>; entries: Map<string, Value>; set: (k: string, v?: Value) => void } {
  const log = new EntryLog<Value>(file, (k, v) => ({ k, ...v }));
  const entries = new Map<string, Value>();
  return {
    log,
    entries,
    set: (k, v = {}) => {
      entries.delete(k);
      entries.set(k, v);
      log.note(k);
    },
  };
}

describe('EntryLog', () => {
  it('appends lines to a 0600 file and reads them back in order; no file is undefined', () => {
    const file = fileIn();
    const { log, entries, set } = store(file);
    expect(log.read()).toBeUndefined();
    set('a');
    set('b');
    log.flush(entries);
    set('c');
    log.flush(entries);
    log.flush(entries);
    log.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = store(file).log;
    expect(again.read()).toEqual([{ k: 'a' }, { k: 'b' }, { k: 'c' }]);
    expect(again.lines).toBe(3);
  });

  it(`is rewritten from the live entries once it would hold more than twice their count plus ${REWRITE_SLACK_LINES} lines, and appends go on in the new file`, () => {
    const file = fileIn();
    const { log, entries, set } = store(file);
    // One live entry changed again and again: each change is a line until the bound.
    const bound = 2 * 1 + REWRITE_SLACK_LINES;
    for (let i = 1; i <= bound; i++) {
      set('a', { v: i });
      log.flush(entries);
    }
    expect([log.lines, linesOf(file).length]).toEqual([bound, bound]);
    set('a', { v: 'last' });
    log.flush(entries);
    expect(linesOf(file)).toEqual(['{"k":"a","v":"last"}']);
    // The descriptor of the replaced file is not written to: the next line lands in the new one.
    set('b');
    log.flush(entries);
    log.close();
    expect(store(file).log.read()).toEqual([{ k: 'a', v: 'last' }, { k: 'b' }]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a flush writes the keys in the order they were last changed, one line each however often', () => {
    const file = fileIn();
    const { log, entries, set } = store(file);
    set('a', { v: 1 });
    set('b');
    set('a', { v: 2 });
    log.flush(entries);
    log.close();
    expect(linesOf(file)).toEqual(['{"k":"b"}', '{"k":"a","v":2}']);
  });

  it('after an append that failed the next write replaces the file from the live entries, so no line is glued to a fragment', () => {
    const file = fileIn();
    const { log, entries, set } = store(file);
    set('a');
    log.flush(entries);
    // The descriptor taken away under it: the next write fails as a full disk's would.
    fs.closeSync((log as unknown as { fd: number }).fd);
    set('b');
    expect(() => log.flush(entries)).toThrow();
    fs.appendFileSync(file, '{"k":"frag');
    set('c');
    log.flush(entries);
    log.close();
    expect(fs.readFileSync(file, 'utf8')).toBe('{"k":"a"}\n{"k":"b"}\n{"k":"c"}\n');
  });

  it('cuts a torn last line and skips a line that is not JSON', () => {
    const file = fileIn();
    fs.writeFileSync(file, '{"k":"a"}\nnot json\n{"k":"b"}\n{"k":"to');
    const { log, entries, set } = store(file);
    expect(log.read()).toEqual([{ k: 'a' }, { k: 'b' }]);
    set('c');
    log.flush(entries);
    log.close();
    expect(fs.readFileSync(file, 'utf8')).toBe('{"k":"a"}\nnot json\n{"k":"b"}\n{"k":"c"}\n');
  });

  it('refuses a link under its name, neither reading, appending through nor replacing it', () => {
    const file = fileIn();
    const target = path.join(path.dirname(file), 'elsewhere');
    fs.writeFileSync(target, 'secret\n');
    fs.symlinkSync(target, file);
    const { log, entries, set } = store(file);
    expect(() => log.read()).toThrow(NotRegularFileError);
    set('a');
    expect(() => log.flush(entries)).toThrow(NotRegularFileError);
    expect(() => log.rewrite(entries)).toThrow(NotRegularFileError);
    expect([fs.lstatSync(file).isSymbolicLink(), fs.readFileSync(target, 'utf8')]).toEqual([true, 'secret\n']);
  });

  it('an earlier version’s whole file is removed only once the log exists, and only when it is a regular file', () => {
    const file = fileIn();
    const legacy = path.join(path.dirname(file), 'store.json');
    const warnings: string[] = [];
    fs.writeFileSync(legacy, '{}');
    removeLegacyFile(legacy, file, (m) => warnings.push(m));
    expect(fs.existsSync(legacy)).toBe(true);
    fs.writeFileSync(file, '');
    removeLegacyFile(legacy, file, (m) => warnings.push(m));
    expect(fs.existsSync(legacy)).toBe(false);
    fs.symlinkSync(file, legacy);
    removeLegacyFile(legacy, file, (m) => warnings.push(m));
    expect(fs.lstatSync(legacy).isSymbolicLink()).toBe(true);
    expect(warnings).toEqual([expect.stringContaining('a symbolic link')]);
  });
});
