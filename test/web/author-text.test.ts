/**
 * The web app shows the hub's verified author first and the client's own label only beside it
 * (docs/CLIENT-PROTOCOL.md "Authors"): "ann · Ann phone · Bob", never "Bob".
 */
import { describe, expect, it } from 'vitest';
import { authorText } from '../../web/src/hub/author-text.js';
import { applySessionUpdate, emptyChat, parseTurnState } from '../../web/src/hub/chat-reducer.js';

const ANN = { clientId: 'c1', name: 'ann · Ann phone', person: 'ann', device: 'Ann phone', tokenId: 't-ann', client: 'Bob' };

describe('authors in the web app', () => {
  it('authorText: the verified name, then a client label that adds something; never the label alone', () => {
    expect(authorText(ANN)).toBe('ann · Ann phone · Bob');
    expect(authorText({ ...ANN, client: 'Ann phone' })).toBe('ann · Ann phone');
    expect(authorText({ name: 'Laptop', device: 'Laptop', client: 'Laptop' })).toBe('Laptop');
    expect(authorText({ name: 'old record' })).toBe('old record');
    expect(authorText({ client: 'Bob' })).toBeUndefined();
    expect(authorText('Bob')).toBeUndefined();
  });

  it('a card a rule or a grant settled, as a replay after a restart carries it (the author alone), is shown without "Answered by"', () => {
    for (const [by, id] of [
      [{ name: 'allowed by rule edits (edits are fine)', rule: 'edits' }, 'tc1'],
      [{ name: 'allowed by the always-allow of ann · Ann phone on 2026-12-05', grant: 'g_1' }, 'tc2'],
    ] as const) {
      const chat = applySessionUpdate(emptyChat('s'), {
        sessionId: 's',
        update: { sessionUpdate: 'tool_call', toolCallId: id, title: 'Edit', _meta: { zcode: { answeredBy: by } } },
        _meta: { zcode: { seq: 1, epoch: 1 } },
      });
      expect(chat.items[0]).toMatchObject({ kind: 'tool', answeredBy: by.name, byRule: true });
    }
  });

  it('a card the hub marks as replacing a file keeps the mark through later updates', () => {
    let chat = applySessionUpdate(emptyChat('s'), {
      sessionId: 's',
      update: { sessionUpdate: 'tool_call', toolCallId: 'w', title: 'Write', kind: 'edit' },
      _meta: { zcode: { seq: 1, epoch: 1 } },
    });
    expect((chat.items[0] as { overwrites?: boolean }).overwrites).toBeUndefined();
    for (const [seq, meta] of [
      [2, { zcode: { overwrites: true } }],
      [3, { zcode: { answeredBy: ANN } }],
    ] as const)
      chat = applySessionUpdate(chat, {
        sessionId: 's',
        update: { sessionUpdate: 'tool_call_update', toolCallId: 'w', _meta: meta },
        _meta: { zcode: { seq, epoch: 1 } },
      });
    expect(chat.items[0]).toMatchObject({ kind: 'tool', overwrites: true, answeredBy: 'ann · Ann phone · Bob' });
  });

  it('a prompt echo, an answered card and the turn state carry the verified author and its token', () => {
    let chat = applySessionUpdate(emptyChat('s'), {
      sessionId: 's',
      update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } },
      _meta: { zcode: { seq: 1, epoch: 1, promptId: 'p1', promptedBy: ANN } },
    });
    expect(chat.items[0]).toMatchObject({ kind: 'user', author: 'ann · Ann phone · Bob', authorTokenId: 't-ann' });
    chat = applySessionUpdate(chat, {
      sessionId: 's',
      update: { sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'Bash', _meta: { zcode: { answeredBy: ANN } } },
      _meta: { zcode: { seq: 2, epoch: 1 } },
    });
    expect(chat.items[1]).toMatchObject({ kind: 'tool', answeredBy: 'ann · Ann phone · Bob' });
    expect((chat.items[1] as { byRule?: boolean }).byRule).toBeUndefined();
    const turn = parseTurnState({
      sessionId: 's',
      state: 'running',
      promptedBy: ANN,
      queue: [{ promptId: 'p2', preview: 'next', ...ANN }],
    });
    expect(turn.promptedBy).toBe('ann · Ann phone · Bob');
    expect(turn.queue[0]?.name).toBe('ann · Ann phone · Bob');
  });
});
