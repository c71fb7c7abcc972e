import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_INDEX_EVERY, AuditIndex } from '../../src/auth/audit-index.js';
import { AuditLog } from '../../src/auth/audit-log.js';
import { tempDir } from '../security/helpers/temp-dir.js';

const who = { tokenId: 't1', name: 'phone', person: 'phone', scope: 'operate' as const };
const ENTRIES = 3 * AUDIT_INDEX_EVERY + 40;

describe('the audit log read by page (audit-index.ts)', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });
  function dir(): string {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    return tmp.dir;
  }
  /** A log of ENTRIES acts, each about 2 KB, so its lines cross many of the reader's chunk boundaries. */
  function filled(stateDir: string): AuditLog {
    const audit = new AuditLog(stateDir);
    for (let i = 1; i <= ENTRIES; i++)
      audit.sink({ identity: who, action: 'prompt', sessionId: `s${i}`, detail: { note: `${i} `.repeat(500).slice(0, 2_000) } });
    return audit;
  }
  const seqs = (p: { entries: Array<{ seq: number }> }) => p.entries.map((e) => e.seq);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

  it('pages from every cursor as a read of the whole file would, before and after a restart', () => {
    const stateDir = dir();
    const audit = filled(stateDir);
    const cursors = [
      0,
      1,
      AUDIT_INDEX_EVERY - 1,
      AUDIT_INDEX_EVERY,
      AUDIT_INDEX_EVERY + 1,
      2 * AUDIT_INDEX_EVERY + 7,
      ENTRIES - 3,
      ENTRIES,
    ];
    for (const log of [audit, new AuditLog(stateDir)])
      for (const after of cursors) {
        const page = log.page(after, 5);
        const want = range(after + 1, Math.min(after + 5, ENTRIES));
        expect(seqs(page), `after ${after}`).toEqual(want);
        expect(page.next, `after ${after}`).toBe(after + 5 < ENTRIES ? after + 5 : undefined);
        expect(page.entries[0]?.sessionId, `after ${after}`).toBe(want.length > 0 ? `s${after + 1}` : undefined);
      }
    // Walking every page with its cursor gives every entry once.
    const walked: number[] = [];
    for (let after: number | undefined = 0; after !== undefined; ) {
      const page = audit.page(after, 100);
      walked.push(...seqs(page));
      after = page.next;
    }
    expect(walked).toEqual(range(1, ENTRIES));
  });

  it('finds entries appended after the start, its own and another writer’s (the token CLI)', () => {
    const stateDir = dir();
    const audit = filled(stateDir);
    const cli = new AuditLog(stateDir);
    cli.sink({ identity: who, action: 'token.create' });
    audit.sink({ identity: who, action: 'token.revoke' });
    expect(audit.page(ENTRIES, 10).entries.map((e) => e.action)).toEqual(['token.create', 'token.revoke']);
  });

  it('reads a page from the last indexed entry at or before its cursor, not from the start of the file', () => {
    const stateDir = dir();
    const audit = filled(stateDir);
    const fd = fs.openSync(audit.file, 'r');
    let index: AuditIndex;
    try {
      index = AuditIndex.build(fd);
    } finally {
      fs.closeSync(fd);
    }
    const lines = fs.readFileSync(audit.file, 'utf8').split('\n');
    const startOf = (seq: number) => lines.slice(0, seq - 1).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    expect([index.startFor(0), index.startFor(AUDIT_INDEX_EVERY - 1)]).toEqual([0, 0]);
    expect(index.startFor(AUDIT_INDEX_EVERY + 1)).toBe(startOf(AUDIT_INDEX_EVERY + 1));
    expect(index.startFor(ENTRIES)).toBe(startOf(3 * AUDIT_INDEX_EVERY + 1));
    // An entry early in the file that claims a late seq is not seen by a late page: nothing before its start point is read.
    fs.writeFileSync(
      path.join(stateDir, 'audit.jsonl'),
      `${lines[0]!.replace('"seq":1,', `"seq":${ENTRIES + 1},`)}\n${lines.slice(1).join('\n')}`,
    );
    expect(seqs(new AuditLog(stateDir).page(ENTRIES - 2, 10))).toEqual([ENTRIES - 1, ENTRIES]);
  });

  it('a start reads the log’s tail for its last seq, not the whole log; junk after the last entry widens the look back', () => {
    const stateDir = dir();
    const audit = filled(stateDir);
    const size = fs.statSync(audit.file).size;
    const read = vi.spyOn(fs, 'readSync');
    const bytesRead = () => read.mock.results.reduce((n, r) => n + (typeof r.value === 'number' ? r.value : 0), 0);
    const again = new AuditLog(stateDir);
    expect(bytesRead()).toBeLessThan(size / 4);
    read.mockRestore();
    again.sink({ identity: who, action: 'cancel' });
    expect(seqs(again.page(ENTRIES - 1, 5))).toEqual([ENTRIES, ENTRIES + 1]);
    // 200 KB of lines that are no entries after the last one: the look back widens until it finds it.
    fs.appendFileSync(audit.file, `${'{"not":"an entry"}\n'.repeat(10_000)}`);
    const past = new AuditLog(stateDir);
    past.sink({ identity: who, action: 'answer' });
    expect(past.page(ENTRIES, 5).entries.map((e) => [e.seq, e.action])).toEqual([
      [ENTRIES + 1, 'cancel'],
      [ENTRIES + 2, 'answer'],
    ]);
  });

  it('a start never reads the end of a line as an entry, even one a detail made look like one', () => {
    const stateDir = dir();
    const audit = filled(stateDir);
    // A last line whose final 64 KiB (the start's first look back) is, alone, a well-formed entry with a forged seq.
    const forged = (pad: number) => JSON.stringify({ seq: 999_999, at: 1, who, action: 'prompt', detail: { pad: 'y'.repeat(pad) } });
    const tail = forged(64 * 1024 - 1 - forged(0).length);
    expect(Buffer.byteLength(`${tail}\n`)).toBe(64 * 1024);
    fs.appendFileSync(audit.file, `not an entry: ${tail}\n`);
    const again = new AuditLog(stateDir);
    again.sink({ identity: who, action: 'cancel' });
    expect(again.page(ENTRIES, 5).entries.map((e) => e.seq)).toEqual([ENTRIES + 1]);
  });

  it('a log removed under the running hub pages as empty', () => {
    const stateDir = dir();
    const audit = new AuditLog(stateDir);
    audit.sink({ identity: who, action: 'cancel' });
    fs.rmSync(audit.file);
    expect(audit.page(0, 10)).toEqual({ entries: [] });
  });
});
