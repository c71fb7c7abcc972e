import { describe, expect, it } from 'vitest';
import {
  addLocalPrompt,
  applyAttachResult,
  applySessionUpdate,
  emptyChat,
  parseTurnState,
  planPlace,
  prependHistory,
  resetForReplay,
  settleLocalPrompt,
} from '../../web/src/hub/chat-reducer.js';
import type { ChatState, ToolItem } from '../../web/src/hub/chat-types.js';

const SID = 'sess_1';
let seq = 0;
/** A `session/update` params object as the hub sends it (CLIENT-PROTOCOL "Notifications"). */
function upd(update: Record<string, unknown>, meta: { seq?: number; epoch?: number } = {}): unknown {
  return { sessionId: SID, update, _meta: { zcode: { seq: meta.seq ?? ++seq, epoch: meta.epoch ?? 1 } } };
}
function text(kind: string, t: string, messageId?: string) {
  return { sessionUpdate: kind, content: { type: 'text', text: t }, ...(messageId ? { messageId } : {}) };
}
function run(chat: ChatState, ...ps: unknown[]): ChatState {
  return ps.reduce<ChatState>((c, p) => applySessionUpdate(c, p), chat);
}

describe('chat reducer', () => {
  it('streams agent chunks into one message and tracks seq/epoch', () => {
    seq = 0;
    const c = run(emptyChat(SID), upd(text('agent_message_chunk', 'Hel')), upd(text('agent_message_chunk', 'lo')));
    expect(c.items).toHaveLength(1);
    expect(c.items[0]).toMatchObject({ kind: 'agent', text: 'Hello' });
    expect(c.seq).toBe(2);
    expect(c.epoch).toBe(1);
  });

  it('[REC-01] skips updates already applied (same epoch, seq not newer) so an overlapping replay never duplicates', () => {
    seq = 0;
    const a = upd(text('agent_message_chunk', 'A'));
    const b = upd(text('agent_message_chunk', 'B'));
    const c = run(emptyChat(SID), a, b, a, b);
    expect(c.items[0]).toMatchObject({ text: 'AB' });
    // A new epoch (hub or backend restart) is accepted even with a lower seq.
    const d = applySessionUpdate(c, upd(text('agent_message_chunk', 'C'), { seq: 1, epoch: 2 }));
    expect(d.items[0]).toMatchObject({ text: 'ABC' });
    expect(d.epoch).toBe(2);
  });

  it('separates thoughts, messages with new ids and user messages', () => {
    seq = 0;
    const c = run(
      emptyChat(SID),
      upd(text('agent_thought_chunk', 'thinking')),
      upd(text('agent_message_chunk', 'one', 'm1')),
      upd(text('agent_message_chunk', 'two', 'm2')),
      upd({ ...text('user_message_chunk', 'next please'), _meta: { zcode: { promptedBy: { name: 'Alice laptop' } } } }),
    );
    expect(c.items.map((i) => i.kind)).toEqual(['thought', 'agent', 'agent', 'user']);
    expect(c.items[3]).toMatchObject({ kind: 'user', text: 'next please', author: 'Alice laptop' });
  });

  it('confirms an optimistic local prompt when its echo arrives instead of showing it twice', () => {
    seq = 0;
    let c = addLocalPrompt(emptyChat(SID), 'l1', [{ type: 'text', text: 'hi there' }]);
    expect(c.items[0]).toMatchObject({ kind: 'user', localId: 'l1' });
    c = run(c, upd(text('user_message_chunk', 'hi there')));
    expect(c.items).toHaveLength(1);
    expect(c.items[0]).toMatchObject({ kind: 'user', text: 'hi there', localId: undefined });
    c = settleLocalPrompt(addLocalPrompt(c, 'l2', [{ type: 'text', text: 'x' }]), 'l2', 'Failed: boom');
    expect(c.items.at(-1)).toMatchObject({ kind: 'notice', level: 'error', text: 'Failed: boom' });
  });

  it('a card closed failed while its request waited under an approval rule stops saying for whom it waits', () => {
    seq = 0;
    const approval = { rule: { id: 'r1' }, waitingFor: 'waiting for bob or cid', quorum: 1, allowed: [], state: 'open' };
    const asked = run(
      emptyChat(SID),
      upd({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'npm test', kind: 'execute', status: 'pending' }),
      upd({ sessionUpdate: 'tool_call_update', toolCallId: 't1', _meta: { zcode: { approval } } }),
    );
    expect((asked.items[0] as ToolItem).approval).toMatchObject({ state: 'open', waitingFor: 'waiting for bob or cid' });
    const closed = run(asked, upd({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed' }));
    expect(closed.items[0]).toMatchObject({ kind: 'tool', status: 'failed' });
    expect((closed.items[0] as ToolItem).approval).toBeUndefined();
  });

  it('a card the hub closed because its turn ended first is marked unfinished, not a tool that failed', () => {
    seq = 0;
    const unfinished = { message: 'The turn ended before this tool call finished; it did not run to the end.' };
    const c = run(
      emptyChat(SID),
      upd({ sessionUpdate: 'tool_call', toolCallId: 'cut', title: 'npm test', kind: 'execute', status: 'in_progress' }),
      upd({ sessionUpdate: 'tool_call', toolCallId: 'own', title: 'npm run lint', kind: 'execute', status: 'in_progress' }),
      upd({ sessionUpdate: 'tool_call_update', toolCallId: 'own', status: 'failed' }),
      upd({ sessionUpdate: 'tool_call_update', toolCallId: 'cut', status: 'failed', _meta: { zcode: { unfinished } } }),
    );
    expect(c.items[0]).toMatchObject({ kind: 'tool', toolCallId: 'cut', status: 'failed', unfinished: true });
    // The agent's own failure stays a failure.
    expect(c.items[1]).toMatchObject({ kind: 'tool', toolCallId: 'own', status: 'failed' });
    expect((c.items[1] as ToolItem).unfinished).toBeUndefined();
    // An update without a status (output arriving late) keeps the mark; the agent's own status is its word again.
    const late = run(c, upd({ sessionUpdate: 'tool_call_update', toolCallId: 'cut', _meta: { terminal_output: { data: 'x' } } }));
    expect((late.items[0] as ToolItem).unfinished).toBe(true);
    const done = run(late, upd({ sessionUpdate: 'tool_call_update', toolCallId: 'cut', status: 'completed' }));
    expect(done.items[0]).toMatchObject({ status: 'completed' });
    expect((done.items[0] as ToolItem).unfinished).toBeUndefined();
  });

  it('builds tool cards from tool_call / tool_call_update with terminal output, exit code and diffs', () => {
    seq = 0;
    const c = run(
      emptyChat(SID),
      upd({
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Run npm test',
        kind: 'execute',
        status: 'pending',
        rawInput: { command: 'npm test' },
        _meta: { terminal_info: { terminal_id: 't1' } },
      }),
      upd({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't1',
        status: 'in_progress',
        _meta: { terminal_output: { terminal_id: 't1', data: 'line 1\n' } },
      }),
      upd({ sessionUpdate: 'tool_call_update', toolCallId: 't1', _meta: { terminal_output: { terminal_id: 't1', data: 'line 2\n' } } }),
      upd({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't1',
        status: 'completed',
        _meta: { terminal_exit: { terminal_id: 't1', exit_code: 0, signal: null } },
      }),
      upd({
        sessionUpdate: 'tool_call',
        toolCallId: 't2',
        title: 'Edit a.ts',
        kind: 'edit',
        status: 'completed',
        content: [{ type: 'diff', path: 'a.ts', oldText: 'a', newText: 'b' }],
      }),
    );
    expect(c.items).toHaveLength(2);
    const t1 = c.items[0] as ToolItem;
    expect(t1).toMatchObject({
      kind: 'tool',
      status: 'completed',
      terminal: 'line 1\nline 2\n',
      exitCode: 0,
      input: { command: 'npm test' },
    });
    expect((c.items[1] as ToolItem).content[0]).toMatchObject({ type: 'diff', path: 'a.ts' });
  });

  it('uses the plain terminal variant (`_meta.zcode.outputText`) when no data deltas arrive', () => {
    seq = 0;
    const c = run(
      emptyChat(SID),
      upd({ sessionUpdate: 'tool_call_update', toolCallId: 't9', status: 'in_progress', _meta: { zcode: { outputText: 'all so far' } } }),
    );
    expect(c.items[0]).toMatchObject({ kind: 'tool', terminal: 'all so far' });
  });

  it('keeps plan, usage, mode, config options and title', () => {
    seq = 0;
    const c = run(
      emptyChat(SID),
      upd({ sessionUpdate: 'plan', entries: [{ content: 'step', priority: 'high', status: 'in_progress' }] }),
      upd({ sessionUpdate: 'usage_update', used: 500, size: 1000, cost: { amount: 0.1, currency: 'USD' } }),
      upd({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' }),
      upd({
        sessionUpdate: 'config_option_update',
        configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'm1', options: [{ value: 'm1', name: 'M1' }] }],
      }),
      upd({ sessionUpdate: 'session_info_update', title: 'Fix tests' }),
      upd({ sessionUpdate: 'available_commands_update', availableCommands: [] }),
    );
    expect(c.plan).toHaveLength(1);
    expect(c.usage).toEqual({ used: 500, size: 1000, cost: { amount: 0.1, currency: 'USD' } });
    expect(c.modeId).toBe('plan');
    expect(c.configOptions[0]?.id).toBe('model');
    expect(c.title).toBe('Fix tests');
    expect(c.items).toHaveLength(0);
  });

  it("keeps the agent's latest commands, sent without a seq, and does not move the seq", () => {
    seq = 0;
    const before = run(emptyChat(SID), upd(text('agent_message_chunk', 'hi', 'a1')));
    const noSeq = (availableCommands: unknown[]) => ({
      sessionId: SID,
      update: { sessionUpdate: 'available_commands_update', availableCommands },
    });
    const once = run(before, noSeq([{ name: 'review', description: 'Review', input: { hint: '<focus>' } }, { description: 'nameless' }]));
    expect(once.agentCommands).toEqual([{ name: 'review', description: 'Review', input: { hint: '<focus>' } }]);
    expect(once.seq).toBe(before.seq);
    expect(run(once, noSeq([{ name: 'other' }])).agentCommands).toEqual([{ name: 'other', description: '' }]);
  });

  it('pins a plan only while a step is open, draws a finished one in its turn, and none for a later turn without a plan', () => {
    seq = 0;
    const step = (status: string) => ({ sessionUpdate: 'plan', entries: [{ content: 'step', priority: 'high', status }] });
    const started = run(emptyChat(SID), upd(text('user_message_chunk', 'make a plan', 'u1')), upd(step('in_progress')));
    expect(planPlace(started)).toMatchObject({ pinned: true, turnIndex: 0 });
    const first = run(started, upd(step('completed')));
    // Every step done: no longer pinned, drawn at the end of the turn that sent it.
    expect(planPlace(first)).toMatchObject({ pinned: false, turnIndex: 0 });
    expect(planPlace(first)?.entries[0]?.status).toBe('completed');
    const answered = run(first, upd(text('agent_message_chunk', 'Done.')));
    expect(planPlace(answered)).toMatchObject({ pinned: false, turnIndex: 0 });
    // Gone when the next prompt starts a turn of its own.
    const next = run(answered, upd(text('user_message_chunk', 'something else', 'u2')));
    expect(planPlace(next)).toBeUndefined();
    // That turn's own plan is pinned again, in that turn.
    expect(planPlace(run(next, upd(step('pending'))))).toMatchObject({ pinned: true, turnIndex: 2 });
    // A plan before any prompt (a history page that starts mid-turn) is shown.
    expect(planPlace(run(emptyChat(SID), upd(step('pending'))))).toMatchObject({ pinned: true, turnIndex: -1 });
    expect(planPlace(resetForReplay(first))).toBeUndefined();
  });

  it('[PRM-01] parses _zcode/turn_state with its queue', () => {
    const t = parseTurnState({
      sessionId: SID,
      state: 'running',
      turnId: 'turn_1',
      promptedBy: { clientId: 'c1', name: 'Phone' },
      queue: [{ promptId: 'p2', clientId: 'c2', name: 'Laptop', preview: 'next' }, { bogus: true }],
    });
    expect(t).toEqual({
      state: 'running',
      turnId: 'turn_1',
      promptedBy: 'Phone',
      queue: [{ promptId: 'p2', clientId: 'c2', name: 'Laptop', preview: 'next' }],
    });
    expect(parseTurnState({ state: 'weird' }).state).toBe('idle');
  });

  it('applies attach results (modes, config, replay cursor) and prepends older history', () => {
    seq = 0;
    let c = applyAttachResult(emptyChat(SID), {
      sessionId: SID,
      modes: {
        currentModeId: 'build',
        availableModes: [
          { id: 'build', name: 'Build' },
          { id: 'plan', name: 'Plan' },
        ],
      },
      configOptions: [],
      _meta: { zcode: { seq: 10, epoch: 1, replayMeta: { recovered: true, replayed: 3, cursor: 'cur1', hasMore: true } } },
    });
    expect(c.modes).toHaveLength(2);
    expect(c.history).toEqual({ hasMore: true, cursor: 'cur1' });
    c = run(c, upd(text('agent_message_chunk', 'newest')));
    c = prependHistory(c, [text('user_message_chunk', 'old question'), text('agent_message_chunk', 'old answer')], undefined, false);
    expect(c.items.map((i) => (i.kind === 'tool' ? '' : i.text))).toEqual(['old question', 'old answer', 'newest']);
    expect(new Set(c.items.map((i) => i.id)).size).toBe(3);
    expect(c.history.hasMore).toBe(false);
    const r = resetForReplay(c);
    expect(r.items).toHaveLength(0);
    expect(r.seq).toBeUndefined();
    expect(r.modes).toHaveLength(2);
  });

  it('ignores malformed updates', () => {
    const c = emptyChat(SID);
    expect(applySessionUpdate(c, null)).toBe(c);
    expect(applySessionUpdate(c, { update: 'nope' })).toBe(c);
    expect(applySessionUpdate(c, { update: { sessionUpdate: 'tool_call' } })).toEqual(c);
  });
});
