/**
 * `--payload-drift`: output the way the real app-server may write it (APP-SERVER.md §5.6).
 * The server forwards internal objects without validating them, so optional fields arrive as
 * `null`, `startedAt` as an ISO string (§5.5.7), a tool error as a bare string, `usage` as
 * `null`, a history message may hold a part and a model list an entry the published schema does
 * not allow. The simulator otherwise emits only schema fields; this switch lets the hub's
 * leniency be tested.
 * Events are drifted on the wire only (the log keeps the clean event).
 */
import type { SessionEvent } from './event-log.js';
import type { StrictSnapshot } from '../wire/snapshot.js';
import type { StoredMessage } from './session-store.js';

type Payload = Record<string, unknown>;

/** The wire form of one event under `--payload-drift`. */
export function driftEvent(e: SessionEvent): SessionEvent {
  const p: Payload = { ...(e.payload as Payload) };
  switch (e.type) {
    case 'model.streaming':
      if (p['kind'] === 'text_delta' || p['kind'] === 'reasoning_delta') Object.assign(p, { assistantMessageId: null, partId: null });
      break;
    case 'tool.updated':
      if (p['kind'] !== 'batch' && p['kind'] !== 'scheduled') p['toolName'] = null;
      if (p['kind'] === 'started' && typeof p['startedAt'] === 'number') p['startedAt'] = new Date(p['startedAt']).toISOString();
      if (p['kind'] === 'error' && typeof p['error'] === 'object' && p['error'] !== null)
        p['error'] = String((p['error'] as Payload)['message'] ?? 'tool failed');
      break;
    case 'turn.completed':
      Object.assign(p, { usage: null, cacheStats: null });
      break;
    case 'turn.started':
      Object.assign(p, { queryId: null, inputSource: p['inputSource'] ?? null });
      break;
    default:
      return e;
  }
  return { ...e, payload: p };
}

/** History under `--payload-drift`: null optional fields and one unreadable part per assistant message. */
export function driftMessages(messages: readonly StoredMessage[]): unknown[] {
  return messages.map((m) => {
    const info = {
      ...m.info,
      parentMessageId: m.info['parentMessageId'] ?? null,
      time: { ...(m.info['time'] as Payload), completed: null },
    };
    if (m.info['role'] !== 'assistant') return { ...m, info };
    const bad = {
      partId: null,
      sessionId: m.info['sessionId'],
      messageId: m.info['messageId'],
      type: null,
      text: 'a part of no known type',
    };
    const parts = m.parts.map((part) => (part['type'] === 'text' ? { ...part, synthetic: null } : part));
    return { info, parts: [bad, ...parts] };
  });
}

/** A snapshot under `--payload-drift`: one model option in front that no schema allows (§5.6). */
export function driftSnapshot(snapshot: StrictSnapshot): unknown {
  const model = snapshot.settings.model;
  return { ...snapshot, settings: { ...snapshot.settings, model: { ...model, available: [{ junk: true }, ...model.available] } } };
}
