import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { MessageWithParts } from '../../src/acp/message-schema.js';
import { nestSubagentHistory } from '../../src/acp/subagent-history.js';

const tool = (callId: string, tool: string): MessageWithParts['parts'][number] => ({
  type: 'tool',
  callId,
  tool,
  state: { status: 'completed', input: { pattern: '*.ts' }, output: 'a.ts\n' },
});
const child = (callIds: string[]): MessageWithParts[] => [
  { info: { messageId: 'm0', role: 'user' }, parts: [{ type: 'text', text: 'Survey the workspace' }] },
  { info: { messageId: 'm1', role: 'assistant' }, parts: [...callIds.map((id) => tool(id, 'Glob')), { type: 'text', text: 'summary' }] },
];

describe('sub-agents in a history replay', () => {
  it('puts the child’s tool cards, tagged, after the last update of the Agent card; text and user parts of the child stay out', () => {
    const updates: SessionUpdate[] = [
      { sessionUpdate: 'tool_call', toolCallId: 'agent1', title: 'Agent', status: 'completed' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'agent1', status: 'completed' },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } },
    ];
    const out = nestSubagentHistory(updates, [
      { parentToolCallId: 'agent1', childSessionId: 'sess_subagent_1', agentType: 'Explore', messages: child(['c1', 'c2']) },
    ]);
    expect(out.map((u) => `${u.sessionUpdate}:${'toolCallId' in u ? u.toolCallId : ''}`)).toEqual([
      'tool_call:agent1',
      'tool_call_update:agent1',
      'tool_call:c1',
      'tool_call:c2',
      'agent_message_chunk:',
    ]);
    expect(out[2]?._meta?.['zcode']).toEqual({
      subagent: { parentToolCallId: 'agent1', childSessionId: 'sess_subagent_1', agentType: 'Explore' },
    });
  });

  it('leaves the updates alone for a sub-agent whose Agent card is not on the page', () => {
    const updates: SessionUpdate[] = [{ sessionUpdate: 'tool_call', toolCallId: 'other', title: 'Read' }];
    expect(nestSubagentHistory(updates, [{ parentToolCallId: 'agent9', childSessionId: 's', messages: child(['c1']) }])).toEqual(updates);
  });
});
