import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { AUDIT_ROTATED_FILE, AuditLog } from '../../src/auth/audit-log.js';
import { LIMITS } from '../../src/limits.js';
import { tempDir } from '../security/helpers/temp-dir.js';

const who = { tokenId: 't1', name: 'phone', person: 'phone', scope: 'operate' as const };

describe('audit log (ARCHITECTURE.md §7)', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });
  function log(): AuditLog {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    return new AuditLog(tmp.dir);
  }

  it('appends who, what, when and which session as JSONL, and pages with a cursor', () => {
    const audit = log();
    for (let i = 0; i < 5; i++) audit.sink({ identity: who, action: 'prompt', sessionId: `s${i}`, detail: { promptId: `p${i}` } });
    const first = audit.page(0, 2);
    expect(first.entries.map((e) => e.sessionId)).toEqual(['s0', 's1']);
    expect(first.entries[0]).toMatchObject({ seq: 1, who, action: 'prompt', detail: { promptId: 'p0' } });
    expect(first.next).toBe(2);
    const rest = audit.page(first.next ?? 0, 10);
    expect(rest.entries.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(rest.next).toBeUndefined();
    expect(fs.readFileSync(audit.file, 'utf8').trim().split('\n')).toHaveLength(5);
  });

  it('never writes secrets found in a detail, at any depth', () => {
    const audit = log();
    audit.record({
      identity: who,
      action: 'settings.change',
      detail: { provider: { id: 'x', apiKey: 'sk-live-123', nested: { token: 'jwt', authorization: 'Bearer y' } } },
    });
    const text = fs.readFileSync(audit.file, 'utf8');
    for (const s of ['sk-live-123', 'jwt"', 'Bearer y']) expect(text).not.toContain(s);
    expect(text).toContain('"id":"x"');
  });

  it('keeps counting after a restart, skips a torn last line and keeps the first entry written after it', () => {
    const audit = log();
    audit.sink({ identity: who, action: 'cancel', sessionId: 's' });
    fs.appendFileSync(audit.file, '{"seq":2,"at":1,"who":');
    const again = new AuditLog(audit.file.replace(/\/audit\.jsonl$/, ''));
    again.sink({ identity: who, action: 'answer', sessionId: 's', detail: { optionId: 'allow' } });
    expect(again.page(0, 10).entries.map((e) => [e.seq, e.action])).toEqual([
      [1, 'cancel'],
      [2, 'answer'],
    ]);
  });

  it('bounds an oversized detail', () => {
    const audit = log();
    audit.sink({ identity: who, action: 'prompt', detail: { text: 'x'.repeat(100_000) } });
    expect(audit.page(0, 1).entries[0]?.detail).toMatchObject({ truncated: true });
  });

  describe(`crossing auditLogMaxBytes (default ${LIMITS.auditLogMaxBytes} bytes)`, () => {
    const MAX = 2_000;
    function bounded(dir: string, rotations: number[] = []): AuditLog {
      return new AuditLog(dir, { maxBytes: MAX, onRotate: (last) => rotations.push(last) });
    }
    function dirOf(): string {
      const tmp = tempDir();
      cleanups.push(tmp.cleanup);
      return tmp.dir;
    }
    /** Every entry pages can reach, walked from the start with pages of `size`. */
    function walk(audit: AuditLog, size = 7): number[] {
      const seqs: number[] = [];
      for (let after: number | undefined = 0; after !== undefined; ) {
        const page = audit.page(after, size);
        seqs.push(...page.entries.map((e) => e.seq));
        after = page.next;
      }
      return seqs;
    }
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

    it('moves the log aside and starts a new one, keeping at most two files, 0600, the seqs going on and every kept entry paged', () => {
      const dir = dirOf();
      const rotations: number[] = [];
      const audit = bounded(dir, rotations);
      for (let i = 1; i <= 60; i++) audit.sink({ identity: who, action: 'prompt', sessionId: `s${i}`, detail: { promptId: `p${i}` } });
      const older = path.join(dir, AUDIT_ROTATED_FILE);
      expect(rotations.length).toBeGreaterThan(2);
      expect(
        fs
          .readdirSync(dir)
          .filter((f) => f.startsWith('audit'))
          .sort(),
      ).toEqual(['audit.jsonl', AUDIT_ROTATED_FILE]);
      for (const f of [audit.file, older]) {
        expect(fs.statSync(f).size, f).toBeLessThanOrEqual(MAX);
        expect(fs.statSync(f).mode & 0o777, f).toBe(0o600);
      }
      // The older file starts after the rotation before last: what came before it is dropped, nothing after it is.
      const first = (rotations.at(-2) ?? 0) + 1;
      expect(walk(audit)).toEqual(range(first, 60));
      expect(audit.page(rotations.at(-1) ?? 0, 2).entries.map((e) => e.seq)).toEqual([
        (rotations.at(-1) ?? 0) + 1,
        (rotations.at(-1) ?? 0) + 2,
      ]);
      // A page that straddles the two files.
      const last = rotations.at(-1) ?? 0;
      expect(audit.page(last - 2, 4).entries.map((e) => e.seq)).toEqual(range(last - 1, last + 2));
      // A start reads its seq and its pages from both files, also right after a rotation (the new log still empty).
      expect(walk(new AuditLog(dir, { maxBytes: MAX }))).toEqual(range(first, 60));
      fs.renameSync(audit.file, older);
      const fresh = bounded(dir);
      fresh.sink({ identity: who, action: 'cancel' });
      expect(fresh.page(59, 5).entries.map((e) => [e.seq, e.action])).toEqual([
        [60, 'prompt'],
        [61, 'cancel'],
      ]);
    });

    it('another writer that rotates the log (the token CLI) does not hide entries from a running log’s pages', () => {
      const dir = dirOf();
      const daemon = bounded(dir);
      for (let i = 0; i < 5; i++) daemon.sink({ identity: who, action: 'prompt' });
      expect(walk(daemon)).toEqual(range(1, 5));
      // The CLI writes until it has rotated (its last entry the new log's first), then once more:
      // the file the daemon indexed is now the older one.
      const rotations: number[] = [];
      const cli = bounded(dir, rotations);
      while (rotations.length === 0) cli.sink({ identity: who, action: 'token.create' });
      cli.sink({ identity: who, action: 'token.revoke' });
      const rotatedAt = rotations[0] ?? 0;
      expect(walk(daemon)).toEqual(range(1, rotatedAt + 2));
      expect(daemon.page(rotatedAt, 5).entries.map((e) => e.action)).toEqual(['token.create', 'token.revoke']);
      // And the daemon's own next entry follows in the new log.
      daemon.sink({ identity: who, action: 'cancel' });
      expect(daemon.page(rotatedAt + 1, 5).entries.map((e) => e.action)).toEqual(['token.revoke', 'cancel']);
    });

    it('a rotation that cannot rename (a directory planted under the older name) is told, and the entry still written', () => {
      const dir = dirOf();
      const errors: unknown[] = [];
      const audit = new AuditLog(dir, { maxBytes: 100, onError: (err) => errors.push(err) });
      fs.mkdirSync(path.join(dir, AUDIT_ROTATED_FILE, 'inside'), { recursive: true });
      audit.sink({ identity: who, action: 'prompt' });
      audit.sink({ identity: who, action: 'cancel' });
      expect(errors).toHaveLength(1);
      expect(walk(audit)).toEqual([1, 2]);
      expect(fs.statSync(path.join(dir, AUDIT_ROTATED_FILE)).isDirectory()).toBe(true);
    });

    it('never rotates a log of one entry, however large, and refuses nothing: a full log still records', () => {
      const dir = dirOf();
      const rotations: number[] = [];
      const audit = new AuditLog(dir, { maxBytes: 100, onRotate: (l) => rotations.push(l) });
      audit.sink({ identity: who, action: 'prompt', detail: { text: 'x'.repeat(500) } });
      expect(rotations).toEqual([]);
      audit.sink({ identity: who, action: 'prompt' });
      expect(rotations).toEqual([1]);
      expect(walk(audit)).toEqual([1, 2]);
    });
  });
});
