import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRecord, TurnRecords } from '../../src/domain/prompts/turn-record.js';
import { idFileName } from '../../src/fs/id-file-name.js';
import { LIMITS } from '../../src/limits.js';
import { createLogger } from '../../src/logger.js';
import { until } from '../helpers/until.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function records(limits: Partial<{ turnRecordMaxBytes: number; turnRecordFlushMs: number }> = {}) {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zch-turns-')), 'turns');
  dirs.push(path.dirname(dir));
  const r = new TurnRecords(
    dir,
    { turnRecordMaxBytes: limits.turnRecordMaxBytes ?? LIMITS.turnRecordMaxBytes, turnRecordFlushMs: limits.turnRecordFlushMs ?? 5 },
    createLogger({ level: 'silent' }),
  );
  const files = () => fs.readdirSync(dir);
  const text = () =>
    files()
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
      .join('');
  return { r, dir, files, text };
}

const frame = (text: string, seq = 1) =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: {
      sessionId: 's1',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
      _meta: { zcode: { seq, epoch: 'e', promptId: 'p1' } },
    },
  });

describe('running-turn records', () => {
  it('streams frames to a 0600 file in coalesced appends and reads them back without their old positions', async () => {
    const { r, dir, files, text } = records();
    r.open('s1', 1234);
    r.turn('s1', 'run');
    for (let i = 0; i < 50; i++) r.frame('s1', frame(`w${i} `, i + 1), frame(`w${i} `, i + 1).length);
    await until(() => (text().includes('w49 ') ? true : undefined), 'the frames on disk');
    expect(files()).toHaveLength(1);
    expect(fs.statSync(path.join(dir, files()[0] ?? '')).mode & 0o777).toBe(0o600);
    const loaded = new TurnRecords(dir, LIMITS, createLogger({ level: 'silent' })).loadAll().get('s1');
    expect(loaded?.startedAt).toBe(1234);
    expect(loaded?.running).toBe(true);
    expect(loaded?.updates.map((u) => (u.update as { content: { text: string } }).content.text).join('')).toBe(
      Array.from({ length: 50 }, (_, i) => `w${i} `).join(''),
    );
    expect(loaded?.updates[0]?.meta).toEqual({ promptId: 'p1' });
    r.turn('s1', 'idle');
    await r.close();
    expect(new TurnRecords(dir, LIMITS, createLogger({ level: 'silent' })).loadAll().get('s1')?.running).toBe(false);
  });

  it('writes each frame byte for byte, multi-byte text included, whether flushed by its timer or at close', async () => {
    const { r, dir, text } = records({ turnRecordFlushMs: 5 });
    r.open('s1', 7);
    r.turn('s1', 'run');
    const texts = ['héllo ', '✓ done ', '😀 ', 'plain'];
    const lines = ['{"t":"open","startedAt":7,"sessionId":"s1"}', '{"t":"run"}', ...texts.map((t, i) => frame(t, i + 1))];
    for (const [i, t] of texts.slice(0, 2).entries()) r.frame('s1', frame(t, i + 1), Buffer.byteLength(frame(t, i + 1)));
    // The first two by the flush timer, the rest pending when close() writes them.
    await until(() => (text().includes('✓ done') ? true : undefined), 'the first flush on disk');
    for (const [i, t] of texts.slice(2).entries()) r.frame('s1', frame(t, i + 3), Buffer.byteLength(frame(t, i + 3)));
    await r.close();
    expect(text()).toBe(`${lines.join('\n')}\n`);
    const loaded = new TurnRecords(dir, LIMITS, createLogger({ level: 'silent' })).loadAll().get('s1');
    expect(loaded?.updates.map((u) => (u.update as { content: { text: string } }).content.text)).toEqual(texts);
    expect(loaded?.bytes).toBe(Buffer.byteLength(text()));
  });

  it('crossing turnRecordMaxBytes deletes the record and takes no more lines until the next open', async () => {
    const one = frame('x'.repeat(200));
    const { r, files, text } = records({ turnRecordMaxBytes: one.length * 3 });
    r.open('s1', 1);
    r.frame('s1', one, one.length);
    await until(() => (text().includes('xxx') ? true : undefined), 'the first frame on disk');
    r.frame('s1', one, one.length);
    r.frame('s1', one, one.length);
    expect(r.recording('s1')).toBe(false);
    await r.settled();
    expect(files()).toEqual([]);
    r.frame('s1', one, one.length);
    await r.settled();
    expect(files()).toEqual([]);
    r.open('s1', 2);
    expect(r.recording('s1')).toBe(true);
  });

  it('drop deletes the record; a file over the limit or without its header is not restored', async () => {
    const { r, dir, files } = records();
    r.open('s1', 1);
    r.frame('s1', frame('a'), 10);
    r.drop('s1');
    await r.settled();
    expect(files()).toEqual([]);
    fs.writeFileSync(path.join(dir, idFileName('big', '.ndjson')), `{"t":"open","startedAt":1,"sessionId":"big"}\n${'y'.repeat(100)}\n`);
    fs.writeFileSync(path.join(dir, idFileName('headless', '.ndjson')), `${frame('z')}\n`);
    const small = new TurnRecords(dir, { turnRecordMaxBytes: 64, turnRecordFlushMs: 5 }, createLogger({ level: 'silent' }));
    expect([...small.loadAll().keys()]).toEqual([]);
    expect(files()).toEqual([]);
  });

  it('forget deletes the record of a deleted session, also one only the previous run left on disk', async () => {
    const { r, dir, files } = records();
    r.open('s1', 1);
    r.frame('s1', frame('a'), 10);
    // The hub stops with the turn running: its record stays on disk for the next start.
    await r.settled();
    await r.close();
    await r.settled();
    expect(files()).toHaveLength(1);
    const next = new TurnRecords(dir, LIMITS, createLogger({ level: 'silent' }));
    expect([...next.loadAll().keys()]).toEqual(['s1']);
    next.forget('s1');
    await next.settled();
    expect(files()).toEqual([]);
  });

  // The process's descriptors open on `file` (Linux's /proc; the suite runs on Linux).
  const openOn = (file: string) =>
    fs.readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
      } catch {
        return false;
      }
    }).length;

  it('keeps one descriptor open on a record across its writes, and none once it is dropped or the hub stops', async () => {
    const { r, dir, text } = records();
    r.open('s1', 1);
    const file = path.join(dir, idFileName('s1', '.ndjson'));
    for (let i = 1; i <= 3; i++) {
      r.frame('s1', frame(`part ${i}`, i), 10);
      await until(() => text().includes(`part ${i}`), `part ${i} on disk`);
      expect(openOn(file)).toBe(1);
    }
    r.drop('s1');
    await r.settled();
    expect(openOn(file)).toBe(0);
    // A restored record is continued in the same file, and closed with the hub.
    r.open('s2', 2);
    await until(() => text().includes('"startedAt":2'), 'the second record on disk');
    const file2 = path.join(dir, idFileName('s2', '.ndjson'));
    const next = new TurnRecords(
      dir,
      { turnRecordMaxBytes: LIMITS.turnRecordMaxBytes, turnRecordFlushMs: 5 },
      createLogger({ level: 'silent' }),
    );
    await r.close();
    expect(openOn(file2)).toBe(0);
    const restored = next.loadAll().get('s2');
    if (!restored) throw new Error('s2 was not restored');
    next.resume('s2', restored.bytes);
    next.frame('s2', frame('after restart', 9), 10);
    await next.close();
    expect(openOn(file2)).toBe(0);
    expect(fs.readFileSync(file2, 'utf8')).toContain('after restart');
    expect(fs.readFileSync(file2, 'utf8').startsWith('{"t":"open","startedAt":2,"sessionId":"s2"}')).toBe(true);
  });

  it('flushes every streaming record on one timer, writing an open file in the timer itself', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { r, dir } = records({ turnRecordFlushMs: 5 });
      const read = (id: string) => fs.readFileSync(path.join(dir, idFileName(id, '.ndjson')), 'utf8');
      for (const id of ['s1', 's2', 's3']) r.open(id, 1);
      vi.advanceTimersByTime(5);
      await r.settled();
      // Each file is open now and holds its header; nothing of any record is queued.
      for (const id of ['s1', 's2', 's3']) r.frame(id, frame(`${id} streams`), 10);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(5);
      // No await: the tick wrote all three.
      for (const id of ['s1', 's2', 's3']) expect(read(id)).toContain(`${id} streams`);
      expect(vi.getTimerCount()).toBe(0);
      // A dropped record's buffered lines go with it; the others still flush on the next tick.
      r.frame('s1', frame('never written', 2), 10);
      r.frame('s2', frame('s2 again', 2), 10);
      r.drop('s1');
      vi.advanceTimersByTime(5);
      expect(read('s2')).toContain('s2 again');
      await r.close();
      expect(fs.existsSync(path.join(dir, idFileName('s1', '.ndjson')))).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a record whose last line a kill tore is continued on a line of its own: the first line after the restart is kept', async () => {
    const { dir } = records();
    const file = path.join(dir, idFileName('s1', '.ndjson'));
    const kept = `{"t":"open","startedAt":7,"sessionId":"s1"}\n{"t":"run"}\n${frame('before the kill', 1)}\n`;
    fs.writeFileSync(file, `${kept}${frame('cut mid-write', 2).slice(0, 40)}`, { mode: 0o600 });
    const next = new TurnRecords(
      dir,
      { turnRecordMaxBytes: LIMITS.turnRecordMaxBytes, turnRecordFlushMs: 5 },
      createLogger({ level: 'silent' }),
    );
    const restored = next.loadAll().get('s1');
    expect(restored?.updates).toHaveLength(1);
    expect(restored?.bytes).toBe(Buffer.byteLength(kept));
    next.resume('s1', restored?.bytes ?? 0);
    next.frame('s1', frame('after the restart', 3), 10);
    next.turn('s1', 'idle');
    await until(() => fs.readFileSync(file, 'utf8').includes('"t":"idle"'), 'the lines after the restart on disk');
    await next.close();
    const again = parseRecord(fs.readFileSync(file, 'utf8'));
    expect(again?.updates.map((u) => (u.update as { content: { text: string } }).content.text)).toEqual([
      'before the kill',
      'after the restart',
    ]);
    expect(again?.running).toBe(false);
  });

  it('a stop while a flushed batch still waits for its file to open writes that batch too', async () => {
    // The batch's timer fires (faked, so it fires before the open completes, as on a busy machine).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { r, text } = records({ turnRecordFlushMs: 5 });
      r.open('s1', 3);
      r.frame('s1', frame('handed to the writer'), 10);
      vi.advanceTimersByTime(5);
      r.frame('s1', frame('still buffered', 2), 10);
      await r.close();
      expect(parseRecord(text())?.updates.map((u) => (u.update as { content: { text: string } }).content.text)).toEqual([
        'handed to the writer',
        'still buffered',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('parseRecord skips torn and foreign lines', () => {
    const parsed = parseRecord(`{"t":"open","startedAt":5}\n${frame('ok')}\n{"jsonrpc":"2.0","method":"other"}\n{"torn":\n{"t":"idle"}\n`);
    expect(parsed?.updates).toHaveLength(1);
    expect(parsed?.running).toBe(false);
  });
});

describe('a link planted under a record name', () => {
  it('is never written through: the open, a flush by name and the shutdown write refuse it; the link and its target stay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { r, dir } = records();
      const target = path.join(path.dirname(dir), 'user-file.txt');
      fs.writeFileSync(target, 'the user file\n');
      const link = path.join(dir, idFileName('s1', '.ndjson'));
      fs.symlinkSync(target, link);
      r.open('s1', 1);
      r.turn('s1', 'run');
      await r.settled();
      // The open was refused: the flush appends by name, and is refused too.
      vi.advanceTimersByTime(10);
      await r.settled();
      // What is buffered at shutdown is written by name as well.
      r.frame('s1', frame('hello'), Buffer.byteLength(frame('hello')));
      await r.close();
      expect(fs.readFileSync(target, 'utf8')).toBe('the user file\n');
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
