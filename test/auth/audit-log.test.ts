import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/auth/audit-log.js';
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
});
