/**
 * The recent requests of a session, for the dry run (`POST /api/policy/check`): read from the
 * session's journal (`GET /api/sessions/{id}/events`, the `session/update`s as sent), a tool call
 * counts as a request when the hub marked its card — `_meta.zcode.answeredBy` (someone or a rule
 * answered it), `approval` (it waited under an `ask` rule) or `rule` — or when it is pending now.
 * Each becomes the request body the check takes: a question or plan by its kind, any other tool
 * call as `{tool, input}` (docs/SECURITY.md "Approval rules"). Pure.
 */
import { rec, str, zmeta } from '../wire.js';

/** The tools whose requests are a question and a plan approval (the agent's AskUserQuestion and ExitPlanMode). */
const KIND_OF_TOOL: Record<string, 'question' | 'plan'> = { askuserquestion: 'question', exitplanmode: 'plan' };

export interface RecentRequest {
  toolCallId: string;
  /** The card's title ("`npm test`", "Edit README.md"). */
  title: string;
  tool: string;
  /** The body's `request` for `POST /api/policy/check`. */
  request: Record<string, unknown>;
  /** Who answered it (a person, or "allowed by rule r"), when someone did. */
  answeredBy?: string;
  pending: boolean;
}

interface Seen {
  toolCallId: string;
  title?: string;
  tool?: string;
  input?: Record<string, unknown>;
  answeredBy?: string;
  asked: boolean;
  /** Position of the last update that marked it a request: newest first. */
  at: number;
}

/** The request body of one tool call. */
export function checkRequest(tool: string, input: Record<string, unknown>): Record<string, unknown> {
  const kind = KIND_OF_TOOL[tool.toLowerCase()];
  return kind ? { kind } : { kind: 'permission', tool, input };
}

/**
 * The newest `max` requests among `events` (journal entries `{update}` or bare updates, oldest
 * first); `pending` are the tool call ids of the session's pending interactions.
 */
export function recentRequests(events: readonly unknown[], pending: ReadonlySet<string>, max: number): RecentRequest[] {
  const byId = new Map<string, Seen>();
  events.forEach((e, at) => {
    const u = rec(rec(e)?.['update']) ?? rec(e);
    const kind = u?.['sessionUpdate'];
    const toolCallId = str(u?.['toolCallId']);
    if (!u || !toolCallId || (kind !== 'tool_call' && kind !== 'tool_call_update')) return;
    const seen = byId.get(toolCallId) ?? { toolCallId, asked: false, at };
    byId.set(toolCallId, seen);
    seen.title = str(u['title']) ?? seen.title;
    seen.tool = str(rec(rec(u['_meta'])?.['claudeCode'])?.['toolName']) ?? seen.tool;
    seen.input ??= rec(u['rawInput']);
    const z = zmeta(u);
    const by = str(rec(z['answeredBy'])?.['name']);
    if (by !== undefined) seen.answeredBy = by;
    if (by !== undefined || z['approval'] !== undefined || z['rule'] !== undefined) {
      seen.asked = true;
      seen.at = at;
    }
  });
  return [...byId.values()]
    .filter((s) => s.tool !== undefined && (s.asked || pending.has(s.toolCallId)))
    .sort((a, b) => b.at - a.at)
    .slice(0, max)
    .map((s) => {
      const tool = s.tool ?? '';
      return {
        toolCallId: s.toolCallId,
        title: s.title ?? tool,
        tool,
        request: checkRequest(tool, s.input ?? {}),
        ...(s.answeredBy === undefined ? {} : { answeredBy: s.answeredBy }),
        pending: pending.has(s.toolCallId),
      };
    });
}
