/**
 * Sub-agents in a replay rebuilt from history (ARCHITECTURE.md §4.2). The parent's messages hold only
 * the `Agent` call that spawned a sub-agent; the sub-agent's own tool calls live in its child
 * session (`sess_subagent_…`, APP-SERVER.md §4.16). Live, they arrive tagged
 * `_meta.zcode.subagent` (translate-tool.ts `subagentMeta`) and clients nest them under the
 * Agent card; this puts the same tagged cards right after that card in a replay, so a reload
 * shows the same nesting. Pure: the domain fetches the children (session-attach.ts).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { MessageWithParts } from './message-schema.js';
import { toolPartToUpdates } from './translate-history.js';

/** One sub-agent of the replayed page: who spawned it and its own messages. */
export interface SubagentHistory {
  /** The `Agent` call in the parent that spawned it. */
  parentToolCallId: string;
  childSessionId: string;
  agentId?: string;
  agentType?: string;
  messages: readonly MessageWithParts[];
}

/** The toolCallIds of the page's tool parts (which sub-agents belong to this page). */
export function toolCallIdsOf(messages: readonly MessageWithParts[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) for (const p of m.parts) if (p.type === 'tool' && p.callId !== undefined) ids.add(p.callId);
  return ids;
}

/** True when a page has spawned a sub-agent (a `subagent` part, APP-SERVER.md §3.7). */
export function hasSubagents(messages: readonly MessageWithParts[]): boolean {
  return messages.some((m) => m.parts.some((p) => p.type === 'subagent'));
}

/** The sub-agent's tool cards, each announced with `_meta.zcode.subagent`. */
function childCards(child: SubagentHistory): SessionUpdate[] {
  const tag = {
    parentToolCallId: child.parentToolCallId,
    childSessionId: child.childSessionId,
    ...(child.agentId === undefined ? {} : { agentId: child.agentId }),
    ...(child.agentType === undefined ? {} : { agentType: child.agentType }),
  };
  return child.messages
    .filter((m) => m.info.role === 'assistant')
    .flatMap((m) => m.parts.filter((p) => p.type === 'tool'))
    .flatMap((part) =>
      toolPartToUpdates(part).map((u): SessionUpdate => {
        if (u.sessionUpdate !== 'tool_call') return u;
        const meta = u._meta ?? {};
        const zcode = typeof meta['zcode'] === 'object' && meta['zcode'] !== null ? (meta['zcode'] as Record<string, unknown>) : {};
        return { ...u, _meta: { ...meta, zcode: { ...zcode, subagent: tag } } };
      }),
    );
}

/** Inserts each sub-agent's cards after the last update of the Agent card that spawned it. */
export function nestSubagentHistory(updates: readonly SessionUpdate[], children: readonly SubagentHistory[]): SessionUpdate[] {
  if (children.length === 0) return [...updates];
  const byParent = new Map<string, SubagentHistory[]>();
  for (const c of children) byParent.set(c.parentToolCallId, [...(byParent.get(c.parentToolCallId) ?? []), c]);
  const lastIndex = new Map<string, number>();
  updates.forEach((u, i) => {
    if ((u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && byParent.has(u.toolCallId))
      lastIndex.set(u.toolCallId, i);
  });
  const out: SessionUpdate[] = [];
  updates.forEach((u, i) => {
    out.push(u);
    for (const [parent, at] of lastIndex) if (at === i) for (const c of byParent.get(parent) ?? []) out.push(...childCards(c));
  });
  return out;
}
