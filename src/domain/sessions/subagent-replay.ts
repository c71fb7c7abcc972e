/**
 * Fetches what a history replay needs to nest sub-agents (src/acp/subagent-history.ts): the
 * parent's sub-agents (`session/subagents`, APP-SERVER.md §4.16) whose Agent call is on the
 * replayed page, and each one's own messages. Best effort: an agent that cannot list them leaves
 * the replay as it was (the Agent card alone), never failing the load.
 */
import { z } from 'zod';
import { hasSubagents, toolCallIdsOf, type SubagentHistory } from '../../acp/subagent-history.js';
import { parseMessages, type MessageWithParts } from '../../acp/message-schema.js';
import type { Logger } from '../../logger.js';
import type { AppServer } from '../../app-server/client.js';

const subSchema = z.looseObject({
  childSessionId: z.string().min(1),
  toolCallId: z.string().optional(),
  agentId: z.string().optional(),
  subagentType: z.string().optional(),
});

/** Largest `endedLimit` of `session/subagents` (§4.16). */
const ENDED_LIMIT_MAX = 100;

export interface SubagentReplayOptions {
  app: Pick<AppServer, 'subagents' | 'messages'>;
  logger: Logger;
  /** At most this many sub-agents are fetched for one page (LIMITS.replaySubagentsMax). */
  maxSubagents: number;
  /** Messages read from each child session (LIMITS.replayMaxMessages). */
  maxMessages: number;
}

/** The sub-agents spawned on `page` (a page of `sessionId`'s history), with their messages. */
export async function subagentsOfPage(
  sessionId: string,
  page: readonly MessageWithParts[],
  o: SubagentReplayOptions,
): Promise<SubagentHistory[]> {
  if (o.maxSubagents <= 0 || !hasSubagents(page)) return [];
  const onPage = toolCallIdsOf(page);
  try {
    const listed = await o.app.subagents(sessionId, ENDED_LIMIT_MAX);
    const subs = [...listed.running, ...listed.ended.items].flatMap((s) => {
      const sub = subSchema.safeParse(s);
      return sub.success && sub.data.toolCallId !== undefined && onPage.has(sub.data.toolCallId)
        ? [{ ...sub.data, toolCallId: sub.data.toolCallId }]
        : [];
    });
    const out: SubagentHistory[] = [];
    for (const sub of subs.slice(0, o.maxSubagents)) {
      out.push({
        parentToolCallId: sub.toolCallId,
        childSessionId: sub.childSessionId,
        ...(sub.agentId === undefined ? {} : { agentId: sub.agentId }),
        ...(sub.subagentType === undefined ? {} : { agentType: sub.subagentType }),
        messages: parseMessages(await o.app.messages(sub.childSessionId, o.maxMessages)),
      });
    }
    return out;
  } catch (err) {
    o.logger.debug({ err, sessionId }, 'sub-agent history unavailable; replaying the Agent cards alone');
    return [];
  }
}
