import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { withAuthors } from '../../src/acp/history-authors.js';
import { AuthorBook } from '../../src/domain/people/author-book.js';
import { createLogger } from '../../src/logger.js';
import { until } from '../helpers/until.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const logger = createLogger({ level: 'silent' });
const fileIn = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-authors-'));
  dirs.push(d);
  return path.join(d, 'authors.ndjson');
};

describe('the author book', () => {
  it('crossing authorsMax forgets the oldest first; what is kept survives a restart in a 0600 file', async () => {
    const file = fileIn();
    const book = new AuthorBook({ file, max: 3, flushMs: 5, logger });
    book.setPrompt('s', 'm1', { clientId: 'c1', name: 'Ana' });
    book.setAnswer('s', 'call1', { name: 'Laptop' });
    book.setPrompt('s', 'm2', { name: 'Ana' });
    book.setPrompt('s', 'm3', { name: 'Bo' });
    expect(book.size).toBe(3);
    expect(book.promptOf('s', 'm1')).toBeUndefined();
    expect(book.answerOf('s', 'call1')).toEqual({ name: 'Laptop' });
    await until(() => (fs.existsSync(file) ? true : undefined), 'the book on disk');
    book.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = new AuthorBook({ file, max: 3, flushMs: 5, logger });
    expect([again.answerOf('s', 'call1'), again.promptOf('s', 'm2'), again.promptOf('s', 'm3'), again.promptOf('other', 'm3')]).toEqual([
      { name: 'Laptop' },
      { name: 'Ana' },
      { name: 'Bo' },
      undefined,
    ]);
    // A smaller bound at the next start keeps the newest.
    const smaller = new AuthorBook({ file, max: 1, flushMs: 5, logger });
    expect([smaller.size, smaller.promptOf('s', 'm3')]).toEqual([1, { name: 'Bo' }]);
  });

  it('forgetting a deleted session drops its authors and marks and rewrites the file at once; other sessions stay', () => {
    const file = fileIn();
    // A flush delay no test waits out: the rewrite must not wait for it.
    const book = new AuthorBook({ file, max: 10, flushMs: 3_600_000, logger });
    book.setPrompt('gone', 'm1', { name: 'Ana', person: 'ana' });
    book.setAnswer('gone', 'call1', { name: 'Bo', person: 'bo' });
    book.setOverwrites('gone', 'call2');
    book.setPrompt('kept', 'm1', { name: 'Cy', person: 'cy' });
    book.forgetSessions(new Set(['gone']));
    expect([book.size, book.promptOf('gone', 'm1'), book.answerOf('gone', 'call1'), book.overwrites('gone', 'call2')]).toEqual([
      1,
      undefined,
      undefined,
      false,
    ]);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('gone');
    expect(text).not.toContain('ana');
    expect(new AuthorBook({ file, max: 10, flushMs: 5, logger }).promptOf('kept', 'm1')).toEqual({ name: 'Cy', person: 'cy' });
    book.close();
  });

  it('a request settled by a rule or a grant keeps which one across a restart, so a replay still shows no person answered', async () => {
    const file = fileIn();
    const book = new AuthorBook({ file, max: 10, flushMs: 5, logger });
    const byRule = { name: 'allowed by rule edits (edits are fine)', rule: 'edits' };
    const byGrant = { name: 'allowed by the always-allow of ann · Ann phone on 2026-12-05', grant: 'g_1' };
    book.setAnswer('s', 'call1', byRule);
    book.setAnswer('s', 'call2', byGrant);
    await until(() => (fs.existsSync(file) ? true : undefined), 'the book on disk');
    book.close();
    const again = new AuthorBook({ file, max: 10, flushMs: 5, logger });
    expect([again.answerOf('s', 'call1'), again.answerOf('s', 'call2')]).toEqual([byRule, byGrant]);
  });

  it('a log line that does not parse is skipped and a torn last line cut; a later line of an entry overrides an earlier one', () => {
    const file = fileIn();
    const lines = [
      '{"k":"prompt","s":"s","id":"m","name":"A"}',
      'not json',
      '{"bad":true}',
      '{"k":"prompt","s":"s","id":"n","name":"B"}',
      '{"k":"prompt","s":"s","id":"m","name":"A2"}',
    ];
    fs.writeFileSync(file, `${lines.join('\n')}\n{"k":"prompt","s":"s","id":"torn"`);
    const book = new AuthorBook({ file, max: 10, flushMs: 3_600_000, logger });
    expect([book.size, book.promptOf('s', 'm'), book.promptOf('s', 'n'), book.promptOf('s', 'torn')]).toEqual([
      2,
      { name: 'A2' },
      { name: 'B' },
      undefined,
    ]);
    // The fragment is gone, so the next line appended starts a line of its own.
    expect(fs.readFileSync(file, 'utf8').endsWith('"name":"A2"}\n')).toBe(true);
    book.setPrompt('s', 'o', { name: 'C' });
    book.close();
    expect(new AuthorBook({ file, max: 10, flushMs: 5, logger }).promptOf('s', 'o')).toEqual({ name: 'C' });
  });

  it('a prompt appends its own line instead of rewriting the book', () => {
    const file = fileIn();
    const book = new AuthorBook({ file, max: 100, flushMs: 3_600_000, logger });
    for (let i = 0; i < 50; i++) book.setPrompt('s', `m${i}`, { name: 'Ana' });
    book.close();
    const before = fs.readFileSync(file, 'utf8');
    const again = new AuthorBook({ file, max: 100, flushMs: 3_600_000, logger });
    again.setAnswer('s', 'call1', { name: 'Bo' });
    again.close();
    const after = fs.readFileSync(file, 'utf8');
    // The 50 lines are untouched and one line follows them.
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toBe('{"k":"answer","s":"s","id":"call1","name":"Bo"}\n');
  });

  it('a restart keeps the entries the running hub kept at the bound: the log is written in the order they were set', () => {
    const file = fileIn();
    const book = new AuthorBook({ file, max: 2, flushMs: 3_600_000, logger });
    book.setPrompt('s', 'm1', { name: 'Ana' });
    book.setPrompt('s', 'm2', { name: 'Bo' });
    book.setPrompt('s', 'm1', { name: 'Ana again' });
    (book as unknown as { save(): void }).save();
    // m3 pushes out the entry set longest ago: m2.
    book.setPrompt('s', 'm3', { name: 'Cy' });
    book.close();
    const again = new AuthorBook({ file, max: 2, flushMs: 5, logger });
    expect([again.promptOf('s', 'm1'), again.promptOf('s', 'm2'), again.promptOf('s', 'm3')]).toEqual([
      { name: 'Ana again' },
      undefined,
      { name: 'Cy' },
    ]);
  });

  it('a book an earlier version kept whole in authors.json is moved into the log and the old file removed; an unreadable one is left unread', () => {
    const file = fileIn();
    const legacyFile = path.join(path.dirname(file), 'authors.json');
    fs.writeFileSync(
      legacyFile,
      '{"version":1,"entries":[{"k":"prompt","s":"s","id":"m","name":"A"},{"bad":true},{"k":"overwrite","s":"s","id":"w"}]}',
    );
    const book = new AuthorBook({ file, legacyFile, max: 10, flushMs: 5, logger });
    expect([book.promptOf('s', 'm'), book.overwrites('s', 'w')]).toEqual([{ name: 'A' }, true]);
    expect(fs.existsSync(legacyFile)).toBe(false);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(new AuthorBook({ file, legacyFile, max: 10, flushMs: 5, logger }).promptOf('s', 'm')).toEqual({ name: 'A' });
    const other = fileIn();
    const broken = path.join(path.dirname(other), 'authors.json');
    fs.writeFileSync(broken, '{"version":1,"entries":[');
    expect(new AuthorBook({ file: other, legacyFile: broken, max: 10, flushMs: 5, logger }).size).toBe(0);
  });

  it('withAuthors names prompts by message id and cards by tool call, keeping their other _meta', () => {
    const updates: SessionUpdate[] = [
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' }, messageId: 'm1' },
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'unknown' }, messageId: 'm9' },
      { sessionUpdate: 'tool_call', toolCallId: 'call1', title: 'Bash', _meta: { claudeCode: { toolName: 'Bash' } } },
    ];
    const out = withAuthors(updates, {
      prompt: (id) => (id === 'm1' ? { name: 'Ana' } : undefined),
      answer: (id) => (id === 'call1' ? { name: 'Laptop' } : undefined),
      overwrites: () => false,
    });
    expect(out[0]?._meta).toEqual({ zcode: { promptedBy: { name: 'Ana' } } });
    expect(out[1]).toBe(updates[1]);
    expect(out[2]?._meta).toEqual({ claudeCode: { toolName: 'Bash' }, zcode: { answeredBy: { name: 'Laptop' } } });
  });

  it('a Write that replaced a file keeps its mark across a restart, apart from who answered it, and its card is replayed with both', async () => {
    const file = fileIn();
    const book = new AuthorBook({ file, max: 3, flushMs: 5, logger });
    book.setOverwrites('s', 'write1');
    book.setAnswer('s', 'write1', { name: 'Laptop' });
    expect([book.overwrites('s', 'write1'), book.overwrites('s', 'edit1'), book.overwrites('other', 'write1')]).toEqual([
      true,
      false,
      false,
    ]);
    await until(() => (fs.existsSync(file) ? true : undefined), 'the book on disk');
    book.close();
    const again = new AuthorBook({ file, max: 3, flushMs: 5, logger });
    expect([again.overwrites('s', 'write1'), again.answerOf('s', 'write1'), again.promptOf('s', 'write1')]).toEqual([
      true,
      { name: 'Laptop' },
      undefined,
    ]);
    const updates: SessionUpdate[] = [
      { sessionUpdate: 'tool_call', toolCallId: 'write1', title: 'Write', _meta: { claudeCode: { toolName: 'Write' } } },
      { sessionUpdate: 'tool_call', toolCallId: 'edit1', title: 'Edit' },
    ];
    const out = withAuthors(updates, {
      prompt: () => undefined,
      answer: (id) => again.answerOf('s', id),
      overwrites: (id) => again.overwrites('s', id),
    });
    expect(out[0]?._meta).toEqual({ claudeCode: { toolName: 'Write' }, zcode: { answeredBy: { name: 'Laptop' }, overwrites: true } });
    expect(out[1]).toBe(updates[1]);
    // The marks count against authorsMax like the authors: crossing it forgets the oldest first.
    again.setPrompt('s', 'm1', { name: 'Ana' });
    again.setPrompt('s', 'm2', { name: 'Ana' });
    expect([again.size, again.overwrites('s', 'write1')]).toEqual([3, false]);
  });
});
