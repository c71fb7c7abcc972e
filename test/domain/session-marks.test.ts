import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits.js';
import { previewText, SessionMarks } from '../../src/domain/sessions/session-marks.js';
import { foldPreview, previewOfUpdates, type PreviewDraft } from '../../src/domain/sessions/session-preview.js';
import type { SessionUpdate } from '@agentclientprotocol/sdk';

/** The hub's own session facts: archive flags and last-message previews. */
const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'marks-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const agent = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const user = (text: string): SessionUpdate => ({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
const tool: SessionUpdate = { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', status: 'pending' };

describe('SessionMarks', () => {
  it('keeps the archive flag across a restart, in a 0600 file', () => {
    const dir = tmp();
    const a = new SessionMarks(dir, { max: 10, previewChars: 40 });
    a.setArchived('s1', true);
    a.notePreview('s1', 'agent', 'Done: the\ncart   total is fixed.');
    a.flush();
    const file = path.join(dir, 'session-marks.ndjson');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const b = new SessionMarks(dir, { max: 10, previewChars: 40 });
    expect(b.archived('s1')).toBe(true);
    expect(b.preview('s1')).toEqual({ role: 'agent', text: 'Done: the cart total is fixed.' });
    expect(b.archived('s2')).toBeUndefined();
    b.setArchived('s1', false);
    expect(new SessionMarks(dir, { max: 10, previewChars: 40 }).archived('s1')).toBe(false);
    b.forget(new Set(['s1']));
    expect(new SessionMarks(dir, { max: 10, previewChars: 40 }).preview('s1')).toBeUndefined();
  });

  it(`crosses sessionMarksMax (default ${LIMITS.sessionMarksMax}): the mark changed longest ago goes first`, () => {
    const dir = tmp();
    const m = new SessionMarks(dir, { max: 3, previewChars: 40 });
    m.setArchived('a', true, 1);
    m.setArchived('b', true, 2);
    m.setArchived('c', true, 3);
    m.setArchived('a', true, 4); // touched again: now the newest
    m.setArchived('d', true, 5);
    expect(m.size).toBe(3);
    expect(m.archived('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((id) => m.archived(id))).toEqual([true, true, true]);
    // A file written under a larger bound is trimmed on read.
    expect(new SessionMarks(dir, { max: 2, previewChars: 40 }).size).toBe(2);
  });

  it(`cuts a preview at sessionPreviewChars (default ${LIMITS.sessionPreviewChars}) with an ellipsis`, () => {
    const m = new SessionMarks(undefined, { max: 10, previewChars: 10 });
    m.notePreview('s', 'user', 'abcdefghijklmnop');
    expect(m.preview('s')).toEqual({ role: 'user', text: 'abcdefghi…' });
    expect(m.notePreview('s', 'user', '   ')).toBe(false);
  });

  it('a preview is plain text: Markdown markers are dropped, a heading or list item is not glued to what follows', () => {
    expect(
      previewText('## Answer\nYou asked: *Explain the cart*.\n- **one** `a.ts`\n1. [docs](https://x.test/y)\n```ts\ncode\n```', 200),
    ).toBe('Answer · You asked: Explain the cart. one a.ts · docs · code');
    // Lines that end a clause run on; blank lines and runs of spaces fold away.
    expect(previewText('## Answer\n\nYou asked:   hello.\n\nFound it.', 200)).toBe('Answer · You asked: hello. Found it.');
    expect(previewText('第一行。\n第二行', 200)).toBe('第一行。 第二行');
  });

  it('keeps the last usage across a restart; a usage whose _meta is over 4 KB is kept without it', () => {
    const dir = tmp();
    const a = new SessionMarks(dir, { max: 10, previewChars: 40 });
    const usage: SessionUpdate = { sessionUpdate: 'usage_update', used: 1200, size: 200_000, _meta: { zcode: { usage: { input: 1000 } } } };
    a.noteUsage('s1', usage);
    a.noteUsage('s2', { sessionUpdate: 'usage_update', used: 5, size: 10, _meta: { big: 'x'.repeat(5000) } });
    a.noteUsage('s3', agent('not a usage'));
    a.flush();
    const b = new SessionMarks(dir, { max: 10, previewChars: 40 });
    expect(b.usage('s1')).toEqual(usage);
    expect(b.usage('s2')).toEqual({ sessionUpdate: 'usage_update', used: 5, size: 10 });
    expect(b.usage('s3')).toBeUndefined();
  });

  it('an unreadable line is no mark, not a crash; an unreadable file of an earlier version is no marks', () => {
    const dir = tmp();
    const file = path.join(dir, 'session-marks.ndjson');
    fs.writeFileSync(file, '{"s":"a","m":{"archived":"yes","at":1}}\nnot json\n{"s":"b","m":{"archived":true,"at":2}}\n{"s":"c","m"');
    const m = new SessionMarks(dir, { max: 10, previewChars: 40 });
    expect([m.size, m.archived('a'), m.archived('b')]).toEqual([1, undefined, true]);
    const other = tmp();
    fs.writeFileSync(path.join(other, 'session-marks.json'), '{"marks": {"s": {"archived": "yes"}}}');
    expect(new SessionMarks(other, { max: 10, previewChars: 40 }).size).toBe(0);
    fs.writeFileSync(path.join(other, 'session-marks.json'), 'not json');
    expect(new SessionMarks(other, { max: 10, previewChars: 40 }).size).toBe(0);
  });

  it('a turn end appends the marks it changed, not the whole file; a deleted session is rewritten out at once', () => {
    const dir = tmp();
    const file = path.join(dir, 'session-marks.ndjson');
    const m = new SessionMarks(dir, { max: 100, previewChars: 40 });
    for (let i = 0; i < 20; i++) m.notePreview(`s${i}`, 'agent', `answer ${i}`, i);
    m.flush();
    const before = fs.readFileSync(file, 'utf8');
    m.notePreview('s3', 'user', 'next question', 100);
    m.flush();
    m.flush();
    const after = fs.readFileSync(file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toBe('{"s":"s3","m":{"preview":{"role":"user","text":"next question"},"at":100}}\n');
    // Read back, the later line wins and s3 is the newest (the last to be evicted).
    expect(new SessionMarks(dir, { max: 100, previewChars: 40 }).sessionIds().at(-1)).toBe('s3');
    m.forget(new Set(['s3', 's4']));
    expect(fs.readFileSync(file, 'utf8')).not.toMatch(/"s3"|"s4"|next question/);
    expect(new SessionMarks(dir, { max: 100, previewChars: 40 }).size).toBe(18);
    m.close();
  });

  it('a restart keeps the marks the running hub kept at the bound: the log is written in the order they changed', () => {
    const dir = tmp();
    const m = new SessionMarks(dir, { max: 2, previewChars: 40 });
    m.notePreview('a', 'agent', 'first', 1);
    m.notePreview('b', 'agent', 'second', 2);
    m.notePreview('a', 'agent', 'third', 3);
    m.flush();
    // c pushes out the mark changed longest ago: b.
    m.notePreview('c', 'agent', 'fourth', 4);
    m.flush();
    expect(m.sessionIds()).toEqual(['a', 'c']);
    expect(new SessionMarks(dir, { max: 2, previewChars: 40 }).sessionIds()).toEqual(['a', 'c']);
    m.close();
  });

  it('marks an earlier version kept whole in session-marks.json are moved into the log, oldest first, and the old file removed', () => {
    const dir = tmp();
    const legacy = path.join(dir, 'session-marks.json');
    fs.writeFileSync(
      legacy,
      JSON.stringify({ marks: { late: { archived: true, at: 5 }, early: { preview: { role: 'agent', text: 'hi' }, at: 1 } } }),
    );
    const m = new SessionMarks(dir, { max: 10, previewChars: 40 });
    expect([m.sessionIds(), m.archived('late'), m.preview('early')]).toEqual([['early', 'late'], true, { role: 'agent', text: 'hi' }]);
    expect(fs.existsSync(legacy)).toBe(false);
    expect(new SessionMarks(dir, { max: 10, previewChars: 40 }).sessionIds()).toEqual(['early', 'late']);
  });
});

describe('the last message of a session', () => {
  it('is the last message, user or agent; a tool call ends an agent message', () => {
    expect(previewOfUpdates([user('Fix the cart'), agent('Look'), agent('ing at it'), tool, agent('Fixed.')], 100)).toEqual({
      role: 'agent',
      text: 'Fixed.',
    });
    expect(previewOfUpdates([agent('Done.'), user('Now '), user('the login')], 100)).toEqual({ role: 'user', text: 'Now the login' });
    expect(previewOfUpdates([agent('Done.'), tool], 100)).toEqual({ role: 'agent', text: 'Done.' });
    expect(previewOfUpdates([tool], 100)).toBeUndefined();
  });

  it('stops growing a long message once it fills the preview', () => {
    let d: PreviewDraft | undefined;
    for (let i = 0; i < 50; i++) d = foldPreview(d, agent('0123456789'), 25);
    expect(d?.text.length).toBeLessThanOrEqual(40);
  });
});
