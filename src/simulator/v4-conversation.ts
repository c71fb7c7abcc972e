/**
 * `v4/conversation/subscribe` / `unsubscribe` and the `v4/conversation/frame` notifications the
 * simulator sends (APP-SERVER.md §1.6, §2.2, §14.2, §14.4). Only what a legacy host
 * needs from the v4 projection is simulated: the conversation's `meta.title`. Newer CLIs send
 * generated titles only here (`state.updated` delta, `patch.meta.title` + `titleSource`), never
 * as a legacy `session.titleUpdated` — `--v4-titles` reproduces that. Rows are not simulated
 * (the snapshot's row window is empty).
 *
 * Frame shape (the simulator's reading of APP-SERVER.md §14.2; the real field set is larger):
 * `{subscriptionId, topic, logEpoch, fromSeq, toSeq, payload}` where `payload` is
 * `{kind: "snapshot", snapshot: {meta: {title, titleSource}, rows: {window: []}}}` first, then
 * `{kind: "delta", ops: [{op: "state.updated", patch: {meta: {title, titleSource}}}]}`.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { notActive, parseParams } from './protocol-error.js';
import type { SessionRuntime } from './session-runtime.js';
import type { SimulatorCore } from './simulator-core.js';

const SubscribeParams = z.looseObject({
  topic: z.string().regex(/^conversation\/.+/, 'topic must be conversation/<sessionId>'),
  connectionId: z.string().min(1),
  clientMode: z.string().min(1),
});
const UnsubscribeParams = z.looseObject({ subscriptionId: z.string().min(1) });

interface Subscription {
  subscriptionId: string;
  sessionId: string;
  topic: string;
  seq: number;
}

const LOG_EPOCH = randomUUID();
/** Generated titles come this long after the first turn ends (the real server takes ~25 s; × `--turn-delay-scale`). */
export const GENERATED_TITLE_DELAY_MS = 1_500;
/** Inputs shorter than this get no generated title (APP-SERVER.md §14.4). */
const GENERATED_TITLE_MIN_INPUT = 10;

const subscriptions = new WeakMap<SimulatorCore, Map<string, Subscription>>();

function subsOf(sim: SimulatorCore): Map<string, Subscription> {
  let m = subscriptions.get(sim);
  if (!m) {
    m = new Map();
    subscriptions.set(sim, m);
  }
  return m;
}

function meta(rt: SessionRuntime): { title: string; titleSource: string } {
  return { title: rt.info.title, titleSource: rt.info.titleSource ?? 'default' };
}

function writeFrame(sim: SimulatorCore, sub: Subscription, payload: object): void {
  const fromSeq = sub.seq;
  sub.seq += 1;
  sim.notify('v4/conversation/frame', {
    subscriptionId: sub.subscriptionId,
    topic: sub.topic,
    logEpoch: LOG_EPOCH,
    fromSeq,
    toSeq: sub.seq,
    payload,
  });
}

/** `v4/conversation/subscribe`: ACK, then (written after the response, §1.6) the snapshot frame. */
export function v4Subscribe(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(SubscribeParams, params);
  const sessionId = p.topic.slice('conversation/'.length);
  const rt = sim.runtimes.get(sessionId);
  if (!rt) throw notActive(sessionId);
  const sub: Subscription = { subscriptionId: `sub_${randomUUID()}`, sessionId, topic: p.topic, seq: 0 };
  subsOf(sim).set(sub.subscriptionId, sub);
  setImmediate(() => {
    if (subsOf(sim).has(sub.subscriptionId)) writeFrame(sim, sub, { kind: 'snapshot', snapshot: { meta: meta(rt), rows: { window: [] } } });
  });
  return { subscriptionId: sub.subscriptionId, mode: 'snapshot', logEpoch: LOG_EPOCH };
}

/** `v4/conversation/unsubscribe`: unknown ids are a no-op. */
export function v4Unsubscribe(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(UnsubscribeParams, params);
  subsOf(sim).delete(p.subscriptionId);
  return {};
}

/** Sends the session's current title to its v4 subscribers (`state.updated` delta). */
export function publishTitleFrame(sim: SimulatorCore, rt: SessionRuntime): void {
  for (const sub of subsOf(sim).values()) {
    if (sub.sessionId === rt.sessionId) writeFrame(sim, sub, { kind: 'delta', ops: [{ op: 'state.updated', patch: { meta: meta(rt) } }] });
  }
}

/** Forgets the subscriptions of unloaded runtimes (close, restart switch). */
export function dropSubscriptions(sim: SimulatorCore, sessionId: string): void {
  for (const [id, sub] of subsOf(sim)) if (sub.sessionId === sessionId) subsOf(sim).delete(id);
}

/** A stand-in for the model-generated title: the input's first words, capitalised. */
export function generatedTitle(input: string): string {
  const words = input.trim().split(/\s+/).slice(0, 6);
  return words
    .map((w) => (w[0] ?? '').toUpperCase() + w.slice(1))
    .join(' ')
    .slice(0, 60);
}

/**
 * After a main session's first turn (input of 10+ characters): the generated title, some time
 * later, as a `state.updated` v4 frame only (APP-SERVER.md §14.4). Used under `--v4-titles`.
 */
export function scheduleGeneratedTitle(sim: SimulatorCore, rt: SessionRuntime, input: string): void {
  if (rt.info.sessionKind !== 'interactive' || input.trim().length < GENERATED_TITLE_MIN_INPUT) return;
  const timer = setTimeout(() => {
    if (rt.closed || rt.info.titleSource === 'custom') return;
    rt.info.title = generatedTitle(input);
    rt.info.titleSource = 'generated';
    rt.touch();
    rt.persist();
    publishTitleFrame(sim, rt);
  }, GENERATED_TITLE_DELAY_MS * sim.options.turnDelayScale);
  timer.unref?.();
}
