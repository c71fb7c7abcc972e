/**
 * What the hub reads from `v4/conversation/frame` notifications (APP-SERVER.md §2.3, §5.8;
 * APP-SERVER.md §14.2, APP-SERVER.md §14.4): only the conversation's title. Newer CLIs announce generated titles
 * only there, as a `state.updated` op whose `patch.meta.title` holds it (with `titleSource`);
 * the initial snapshot frame carries `snapshot.meta.title`. Rows are not read — the legacy
 * stream already carries the same content. Lenient: frames are internal objects (§5.6), so
 * anything unexpected yields no title rather than an error.
 */

const TOPIC_PREFIX = 'conversation/';

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function metaTitle(meta: unknown): { title: string; source?: string } | undefined {
  const m = record(meta);
  const title = m?.['title'];
  if (typeof title !== 'string' || title === '') return undefined;
  const source = m?.['titleSource'];
  return typeof source === 'string' ? { title, source } : { title };
}

/** The v4 topic for a session's conversation (`v4/conversation/subscribe`). */
export function conversationTopic(sessionId: string): string {
  return `${TOPIC_PREFIX}${sessionId}`;
}

/** The session and the latest title a frame carries, or undefined when it carries none. */
export function titleFromFrame(params: unknown): { sessionId: string; title: string; source?: string } | undefined {
  const p = record(params);
  const topic = p?.['topic'];
  if (typeof topic !== 'string' || !topic.startsWith(TOPIC_PREFIX) || topic.length === TOPIC_PREFIX.length) return undefined;
  const sessionId = topic.slice(TOPIC_PREFIX.length);
  const payload = record(p?.['payload']);
  let found: { title: string; source?: string } | undefined;
  if (payload?.['kind'] === 'snapshot') found = metaTitle(record(payload['snapshot'])?.['meta']);
  const ops = payload?.['ops'];
  if (Array.isArray(ops)) {
    for (const op of ops) {
      const o = record(op);
      if (o?.['op'] !== 'state.updated') continue;
      // The last title in the frame wins (ops apply in order).
      found = metaTitle(record(o['patch'])?.['meta']) ?? found;
    }
  }
  return found && { sessionId, ...found };
}
