import { describe, expect, it } from 'vitest';
import { applySessionUpdate, emptyChat } from '../../web/src/hub/chat-reducer.js';
import type { ChatState } from '../../web/src/hub/chat-types.js';

const SID = 'sess_1';
let seq = 0;
const upd = (update: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  sessionId: SID,
  update,
  _meta: { zcode: { seq: ++seq, epoch: 1, ...meta } },
});
const ended = (outcome: string, message: string, promptId?: string) =>
  upd({
    sessionUpdate: 'session_info_update',
    _meta: { zcode: { turnEnded: { outcome, ...(promptId ? { promptId } : {}), error: { message } } } },
  });
const run = (c: ChatState, ...ps: unknown[]) => ps.reduce<ChatState>((x, p) => applySessionUpdate(x, p), c);

describe('failed and interrupted turns', () => {
  it('shows a failed turn under what was said, with a retry of the prompt that started it', () => {
    seq = 0;
    const c = run(
      emptyChat(SID),
      upd(
        { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'please fail' } },
        { promptId: 'p1', promptedBy: { clientId: 'c1', name: 'Laptop' } },
      ),
      upd({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Let me look into that' } }),
      ended('failed', 'Simulated provider failure: upstream returned HTTP 500', 'p1'),
    );
    expect(c.items.map((i) => i.kind)).toEqual(['user', 'agent', 'notice']);
    expect(c.items[1]).toMatchObject({ text: 'Let me look into that' });
    expect(c.items[2]).toMatchObject({
      kind: 'notice',
      level: 'error',
      outcome: 'failed',
      text: 'Simulated provider failure: upstream returned HTTP 500',
      retry: { text: 'please fail', images: [] },
    });
  });

  it('marks an interrupted turn and retries the last prompt when the marker names none', () => {
    seq = 0;
    const c = run(
      emptyChat(SID),
      upd({ sessionUpdate: 'user_message_chunk', content: { type: 'image', mimeType: 'image/png', data: 'AAAA' } }),
      upd({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'describe it' } }),
      upd({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'It shows' } }),
      ended('interrupted', 'The agent restarted during this turn'),
    );
    expect(c.items.at(-1)).toMatchObject({
      outcome: 'interrupted',
      retry: { text: 'describe it', images: [{ mimeType: 'image/png', data: 'AAAA' }] },
    });
  });

  it('keeps a plain session_info_update a title change', () => {
    seq = 0;
    const c = run(emptyChat(SID), upd({ sessionUpdate: 'session_info_update', title: 'New title' }));
    expect(c.title).toBe('New title');
    expect(c.items).toEqual([]);
  });
});
