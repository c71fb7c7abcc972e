import { describe, expect, it } from 'vitest';
import { applySessionUpdate, emptyChat } from '../../web/src/hub/chat-reducer.js';
import type { ChatState } from '../../web/src/hub/chat-types.js';
import { addLocalPrompt, ownQueued, settleLocalPrompt, withdrawLocalPrompt } from '../../web/src/hub/local-prompts.js';

const SID = 'sess_1';
let seq = 0;
const agent = (text: string) => ({
  sessionId: SID,
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
  _meta: { zcode: { seq: ++seq, epoch: 1 } },
});
const own = (promptId: string) => ({ sessionId: SID, _meta: { zcode: { seq: ++seq, epoch: 1, promptId } } });
const echo = (text: string, promptId: string, name = 'Phone') => ({
  sessionId: SID,
  update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text } },
  _meta: { zcode: { seq: ++seq, epoch: 1, promptId, promptedBy: { clientId: 'c9', name } } },
});
const running = (c: ChatState): ChatState => ({ ...c, turn: { state: 'running', queue: [] } });
const kinds = (c: ChatState) =>
  c.items.map((i) => (i.kind === 'user' ? `user:${i.text}` : i.kind === 'agent' ? `agent:${i.text}` : i.kind));

describe('prompts sent from this device', () => {
  it('shows the bubble at once on an idle session and tags it with the promptId of its own_update', () => {
    seq = 0;
    let c = addLocalPrompt(emptyChat(SID), 'l1', [{ type: 'text', text: 'hello' }]);
    expect(c.items[0]).toMatchObject({ kind: 'user', text: 'hello', localId: 'l1', own: true });
    c = applySessionUpdate(c, own('p1'));
    expect(c.items).toHaveLength(1);
    expect(c.items[0]).toMatchObject({ promptId: 'p1' });
    c = settleLocalPrompt(c, 'l1');
    expect(c.items[0]).toMatchObject({ localId: undefined, promptId: 'p1' });
  });

  it('keeps a prompt queued behind a running turn out of the streaming answer until its own turn starts', () => {
    seq = 0;
    let c = running(applySessionUpdate(addLocalPrompt(emptyChat(SID), 'l1', [{ type: 'text', text: 'first' }]), agent('Step 1. ')));
    c = addLocalPrompt(c, 'l2', [{ type: 'text', text: 'second' }]);
    expect(c.outbox.map((o) => o.text)).toEqual(['second']);
    c = applySessionUpdate(c, agent('Step 2.'));
    expect(kinds(c)).toEqual(['user:first', 'agent:Step 1. Step 2.']);
    // The first turn ends, the queued prompt starts: its bubble follows the whole answer.
    c = applySessionUpdate(c, own('p2'));
    c = applySessionUpdate(c, agent('Second answer'));
    expect(kinds(c)).toEqual(['user:first', 'agent:Step 1. Step 2.', 'user:second', 'agent:Second answer']);
    expect(c.outbox).toEqual([]);
  });

  it('claims the echo of a queued prompt whose own_update went to a connection that dropped', () => {
    seq = 0;
    let c = addLocalPrompt(running(emptyChat(SID)), 'l1', [{ type: 'text', text: 'queued one' }]);
    c = applySessionUpdate(c, echo('queued one', 'p7'));
    expect(c.items).toHaveLength(1);
    expect(c.items[0]).toMatchObject({ kind: 'user', own: true, promptId: 'p7', localId: 'l1' });
    // A replay of the same echo does not add it again.
    expect(applySessionUpdate({ ...c, seq: undefined }, echo('queued one', 'p7')).items).toHaveLength(1);
    // Someone else's prompt with the same promptId scheme is shown with its author.
    c = applySessionUpdate(c, echo('from the laptop', 'p8', 'Laptop'));
    expect(c.items[1]).toMatchObject({ kind: 'user', text: 'from the laptop', author: 'Laptop', promptId: 'p8' });
  });

  it('drops a queued prompt that was stopped before it ran; a failure leaves a notice', () => {
    seq = 0;
    let c = addLocalPrompt(running(emptyChat(SID)), 'l1', [{ type: 'text', text: 'never ran' }]);
    c = settleLocalPrompt(c, 'l1');
    expect(c.outbox).toEqual([]);
    expect(c.items).toEqual([]);
    c = settleLocalPrompt(addLocalPrompt(running(c), 'l2', [{ type: 'text', text: 'x' }]), 'l2', 'Failed: boom');
    expect(c.items.at(-1)).toMatchObject({ kind: 'notice', level: 'error', text: 'Failed: boom' });
  });

  it('withdraws a refused prompt that never ran: from the outbox or the chat, leaving every other item', () => {
    seq = 0;
    let c = addLocalPrompt(emptyChat(SID), 'l1', [{ type: 'text', text: 'idle one' }]);
    c = applySessionUpdate(c, agent('Answer.'));
    c = addLocalPrompt(running(c), 'l2', [{ type: 'text', text: 'queued one' }]);
    c = addLocalPrompt(c, 'l3', [{ type: 'text', text: 'and another' }]);
    c = withdrawLocalPrompt(c, 'l2');
    expect(c.outbox.map((o) => o.text)).toEqual(['and another']);
    expect(kinds(c)).toEqual(['user:idle one', 'agent:Answer.']);
    c = withdrawLocalPrompt(c, 'l1');
    expect(kinds(c)).toEqual(['agent:Answer.']);
    expect(withdrawLocalPrompt(c, 'unknown')).toBe(c);
  });

  it('finds which of the hub’s queued prompts are this page’s outbox prompts: ours by clientId, in order, by their text', () => {
    const outbox = [
      { localId: 'l1', text: 'first of mine', images: [] },
      { localId: 'l2', text: 'look at this', images: ['data:image/png;base64,x'] },
      { localId: 'l3', text: 'not queued yet', images: [] },
    ];
    const queue = [
      { promptId: 'p0', clientId: 'other', preview: 'someone else’s' },
      { promptId: 'p1', clientId: 'me', preview: 'first of mine' },
      { promptId: 'p2', clientId: 'me', preview: '[image] look at this' },
    ];
    expect([...ownQueued(queue, outbox, 'me')]).toEqual([
      ['p1', 'l1'],
      ['p2', 'l2'],
    ]);
    // A long prompt's preview is cut with an ellipsis; still its start.
    expect([...ownQueued([{ promptId: 'p1', clientId: 'me', preview: 'first of…' }], outbox, 'me')]).toEqual([['p1', 'l1']]);
    // Not the text expected next: nothing is offered from there on (never the wrong prompt).
    expect([...ownQueued([{ promptId: 'p9', clientId: 'me', preview: 'look at this' }], outbox, 'me')]).toEqual([]);
    // The connection not known yet, or another's entries only: nothing.
    expect(ownQueued(queue, outbox, undefined).size).toBe(0);
    expect(ownQueued(queue.slice(0, 1), outbox, 'me').size).toBe(0);
  });
});
