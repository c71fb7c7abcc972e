import { describe, expect, it } from 'vitest';
import {
  applyAttachResult,
  applySessionUpdate,
  applyUpdateBody,
  emptyChat,
  prependHistory,
  resetForReplay,
} from '../../web/src/hub/chat-reducer.js';
import type { ChatItem, ChatState, ToolItem } from '../../web/src/hub/chat-types.js';
import { findCard, nestOrphans, subagentGroup, subagentTagOf } from '../../web/src/hub/subagent-tree.js';
import { WEB_LIMITS } from '../../web/src/limits.js';

const SID = 'sess_1';
const AGENT = 'call_agent';
const SUB = { parentToolCallId: AGENT, childSessionId: 'sess_subagent_a1', agentId: 'a1', agentType: 'Explore' };
type Update = Record<string, unknown>;

/** The updates of one `subagent` turn as src/acp/translate-tool.ts sends them (see test/integration/subagent.test.ts). */
function subagentTurn(): Update[] {
  const child = (id: string, title: string, kind: string): Update[] => [
    {
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title,
      kind,
      status: 'pending',
      rawInput: { pattern: title },
      _meta: { claudeCode: { toolName: title.split(' ')[0] }, zcode: { subagent: SUB } },
    },
    { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' },
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: `${title} done` } }],
      _meta: { zcode: { subagent: SUB } },
    },
  ];
  return [
    { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'ask a subagent' } },
    {
      sessionUpdate: 'tool_call',
      toolCallId: AGENT,
      title: 'Agent: Survey the project layout',
      kind: 'think',
      status: 'pending',
      rawInput: { description: 'Survey the project layout', prompt: 'Survey', subagent_type: 'Explore' },
    },
    { sessionUpdate: 'tool_call_update', toolCallId: AGENT, status: 'in_progress' },
    ...child('call_glob', 'Glob src/**/*.ts', 'search'),
    ...child('call_read', 'Read src/server.ts', 'read'),
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: AGENT,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'summary' } }],
    },
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'The sub-agent surveyed the project.' } },
  ];
}

/** Folds updates as the hub streams them, numbered from `firstSeq`. */
function live(updates: Update[], chat: ChatState = emptyChat(SID), firstSeq = 1): ChatState {
  return updates.reduce<ChatState>(
    (c, update, i) => applySessionUpdate(c, { sessionId: SID, update, _meta: { zcode: { seq: firstSeq + i, epoch: 1 } } }),
    chat,
  );
}

/** The shape that matters here: which card sits where, with what status (ids left out). */
function shape(items: ChatItem[]): unknown[] {
  return items.map((it) =>
    it.kind === 'tool' ? { tool: it.toolCallId, status: it.status, ...(it.children ? { children: shape(it.children) } : {}) } : it.kind,
  );
}

const GROUPED = [
  'user',
  {
    tool: AGENT,
    status: 'completed',
    children: [
      { tool: 'call_glob', status: 'completed' },
      { tool: 'call_read', status: 'completed' },
    ],
  },
  'agent',
];

describe('sub-agent tool cards', () => {
  it('streams a sub-agent’s cards into the Agent card that spawned it, and later updates land there', () => {
    const c = live(subagentTurn());
    expect(shape(c.items)).toEqual(GROUPED);
    const agent = c.items[1] as ToolItem;
    // Updates without the meta still found the nested card; the tag was remembered from the announcement.
    expect(agent.children?.[0]).toMatchObject({
      title: 'Glob src/**/*.ts',
      toolKind: 'search',
      subagent: SUB,
      content: [{ type: 'content' }],
    });
    expect(agent.subagent).toBeUndefined();
    expect(subagentGroup(agent)).toEqual({ agentType: 'Explore', count: 2, running: false });
  });

  it('reports the group as running while a nested card is not done', () => {
    const turn = subagentTurn();
    const c = live(turn.slice(0, turn.findIndex((u) => u['toolCallId'] === 'call_read') + 1));
    expect(subagentGroup(c.items[1] as ToolItem)).toEqual({ agentType: 'Explore', count: 2, running: true });
  });

  // A re-attach inside the journal (`session/load` with `afterSeq`) replays the very frames. (A full
  // replay rebuilt from `session/messages` has no sub-agent cards at all: they live in the child.)
  it('builds the same grouping on a session/load replay of the journal as live', () => {
    const streamed = live(subagentTurn());
    const replayed = applyAttachResult(live(subagentTurn(), resetForReplay(streamed), 1), {
      _meta: { zcode: { seq: 14, epoch: 1, replayMeta: { hasMore: false } } },
    });
    expect(shape(replayed.items)).toEqual(GROUPED);
  });

  it('keeps a card whose parent is unknown at the top level, tagged, and nests it once load_earlier brings the parent', () => {
    const turn = subagentTurn();
    const children = turn.filter((u) => u['toolCallId'] === 'call_glob' || u['toolCallId'] === 'call_read');
    // A page that starts after the Agent card was announced: its cards have no parent to go to.
    const page = live([...children, turn[turn.length - 1]!], emptyChat(SID), 20);
    expect(shape(page.items)).toEqual([{ tool: 'call_glob', status: 'completed' }, { tool: 'call_read', status: 'completed' }, 'agent']);
    expect((page.items[0] as ToolItem).subagent).toEqual(SUB);
    expect(subagentGroup(page.items[0] as ToolItem)).toBeUndefined();
    // The older page holds the Agent card (as a history replay sends it: one tool_call, final
    // status): the orphans move under it, in order.
    const older = [turn[0]!, { ...turn[1]!, status: 'completed' }];
    const joined = prependHistory(page, older, undefined, false);
    expect(shape(joined.items)).toEqual(GROUPED);
    // Item ids stay unique across the two pages (they are render keys).
    const ids = joined.items.flatMap((it) => [it.id, ...(it.kind === 'tool' ? (it.children ?? []).map((c) => c.id) : [])]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('folds a load_earlier page holding a whole sub-agent run like the live stream', () => {
    const joined = prependHistory(emptyChat(SID), subagentTurn(), 'cur_1', true);
    expect(shape(joined.items)).toEqual(GROUPED);
    expect(joined.history).toEqual({ hasMore: true, cursor: 'cur_1' });
  });

  it('moves a card announced without the tag once a later update carries it', () => {
    let c = live(subagentTurn().slice(0, 3));
    c = [
      { sessionUpdate: 'tool_call', toolCallId: 'call_late', title: 'Grep', status: 'pending' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'call_late', status: 'completed', _meta: { zcode: { subagent: SUB } } },
    ].reduce<ChatState>((s, u) => applyUpdateBody(s, u), c);
    expect(shape(c.items)).toEqual([
      'user',
      { tool: AGENT, status: 'in_progress', children: [{ tool: 'call_late', status: 'completed' }] },
    ]);
  });

  it('nests a sub-agent of a sub-agent under its own parent', () => {
    const inner = { ...SUB, parentToolCallId: 'call_glob', agentType: 'Plan' };
    const c = live([
      ...subagentTurn().slice(0, 4),
      { sessionUpdate: 'tool_call', toolCallId: 'call_deep', title: 'Read a', status: 'pending', _meta: { zcode: { subagent: inner } } },
    ]);
    expect(findCard(c.items, 'call_deep')).toEqual([1, 0, 0]);
    c.items.forEach((it) => expect(it.kind === 'tool' && it.toolCallId === 'call_deep').toBe(false));
  });

  it(`keeps at most ${WEB_LIMITS.subagentChildrenMax} cards under one parent and still counts the dropped ones`, () => {
    const n = WEB_LIMITS.subagentChildrenMax + 3;
    const children = Array.from({ length: n }, (_, i) => ({
      sessionUpdate: 'tool_call',
      toolCallId: `call_${i}`,
      title: `Read ${i}`,
      status: 'completed',
      _meta: { zcode: { subagent: SUB } },
    }));
    const c = live([...subagentTurn().slice(0, 2), ...children]);
    const agent = c.items[1] as ToolItem;
    expect(agent.children).toHaveLength(WEB_LIMITS.subagentChildrenMax);
    expect(agent.children?.[0]?.toolCallId).toBe('call_3');
    expect(subagentGroup(agent)?.count).toBe(n);
    expect(c.items).toHaveLength(2);
  });

  it('leaves a card naming itself or its own child as parent at the top level', () => {
    const self: ToolItem = {
      kind: 'tool',
      id: 'i1',
      toolCallId: 'call_x',
      title: 'x',
      status: 'completed',
      content: [],
      terminal: '',
      locations: [],
      subagent: { parentToolCallId: 'call_x' },
    };
    expect(nestOrphans([self])).toEqual([self]);
    const child: ToolItem = { ...self, id: 'i2', toolCallId: 'call_y', subagent: { parentToolCallId: 'call_x' } };
    const cyclic: ToolItem = { ...self, subagent: { parentToolCallId: 'call_y' }, children: [child] };
    expect(nestOrphans([cyclic])).toEqual([cyclic]);
    expect(
      live([
        {
          sessionUpdate: 'tool_call',
          toolCallId: 'call_x',
          title: 'x',
          status: 'pending',
          _meta: { zcode: { subagent: { parentToolCallId: 'call_x' } } },
        },
      ]).items,
    ).toHaveLength(1);
  });

  it('reads the tag field by field and falls back to the parent input for the agent type', () => {
    expect(subagentTagOf({})).toBeUndefined();
    expect(subagentTagOf({ zcode: { subagent: 'no' } })).toBeUndefined();
    expect(subagentTagOf({ zcode: { subagent: { parentToolCallId: 'p', agentType: 7, agentId: '' } } })).toEqual({ parentToolCallId: 'p' });
    const parent: ToolItem = {
      kind: 'tool',
      id: 'i1',
      toolCallId: 'p',
      title: 'Agent',
      status: 'in_progress',
      content: [],
      terminal: '',
      locations: [],
      input: { subagent_type: 'general-purpose' },
    };
    const child: ToolItem = {
      ...parent,
      id: 'i2',
      toolCallId: 'c',
      status: 'pending',
      input: undefined,
      subagent: { parentToolCallId: 'p' },
    };
    expect(subagentGroup({ ...parent, children: [child] })).toEqual({ agentType: 'general-purpose', count: 1, running: true });
    expect(subagentGroup({ ...parent, input: undefined, children: [child] })).toEqual({ count: 1, running: true });
  });
});
