import { notFound, parseParams } from '../protocol-error.js';
import { EventsParams, MessagesParams, ReadParams, SessionIdParams, SubagentsParams, SubscribeParams } from '../schemas/session-params.js';
import { emptyUsage } from '../session-store.js';
import type { SimulatorCore } from '../simulator-core.js';
import { buildSnapshot } from '../snapshot.js';
import { subagentsPage } from '../subagents.js';

/** `session/read` (§4.4); a `deliveryKind` here starts live delivery like subscribe does. */
export function read(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(ReadParams, params);
  const rt = sim.requireActive(p.sessionId);
  if (p.deliveryKind) rt.log.setDeliveryKind(p.deliveryKind);
  return buildSnapshot(rt, sim.registry, 'current', p.messageLimit);
}

/** `session/messages` (§4.5): unknown `afterMessageId` → all; `limit` keeps the last N. */
export function messages(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(MessagesParams, params);
  const rt = sim.requireActive(p.sessionId);
  let out = rt.messages;
  if (p.afterMessageId) {
    const i = out.findIndex((m) => m.info.messageId === p.afterMessageId);
    if (i !== -1) out = out.slice(i + 1);
  }
  if (p.limit !== undefined && out.length > p.limit) out = out.slice(out.length - p.limit);
  return { messages: sim.wireMessages(out) };
}

/** `session/events` (§4.6): the current delivery kind's seq space, `seq > afterSeq`, last N. */
export function events(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(EventsParams, params);
  const rt = sim.requireActive(p.sessionId);
  return { events: sim.wireEvents(rt.log.after(p.afterSeq ?? 0, undefined, p.limit)) };
}

/** `session/subscribe` (§4.7): sets the delivery kind; replays `seq > afterSeq` when given. */
export function subscribe(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(SubscribeParams, params);
  const rt = sim.requireActive(p.sessionId);
  rt.log.setDeliveryKind(p.deliveryKind);
  return {
    sessionId: rt.sessionId,
    eventSeq: rt.log.lastSeq(p.deliveryKind),
    events: p.afterSeq === undefined ? [] : sim.wireEvents(rt.log.after(p.afterSeq, p.deliveryKind)),
    ...(p.includeSnapshot ? { snapshot: buildSnapshot(rt, sim.registry, 'current') } : {}),
  };
}

/** `session/usage` (§4.16): works on cold sessions; zeros when nothing is stored. */
export function usage(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(SessionIdParams, params);
  const u = sim.runtimes.get(p.sessionId)?.usage ?? sim.store.load(p.sessionId)?.usage ?? emptyUsage();
  return { sessionId: p.sessionId, ...u, inputBaselineBySource: {} };
}

/**
 * `session/subagents` (§4.16): the parent's sub-agent children (the `subagent` scenario spawns
 * them): `running` in start order, `ended` most recently ended first, paged by
 * `endedCursor`/`endedLimit` (default 20). Works on cold parents; unknown → -32004 not found.
 */
export function subagents(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(SubagentsParams, params);
  if (!sim.runtimes.has(p.sessionId) && !sim.store.load(p.sessionId)) throw notFound(p.sessionId);
  return subagentsPage(sim, p.sessionId, p.endedCursor, p.endedLimit);
}
