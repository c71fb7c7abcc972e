import { z } from 'zod';

/**
 * ACP v2's `replay_complete` session update, written down from the text of the RFD that adds it
 * ("v2 Replay Complete Signal", agentclientprotocol.com/rfds/v2/session-replay-complete): no
 * release of `@agentclientprotocol/sdk` has it in a schema yet (2.4.0, the newest, has neither
 * in its v1 nor in its draft v2 schema), so the conformance suites cannot take it from the SDK
 * like every other message. The RFD's `ReplayComplete` carries nothing but the kind and ACP's
 * reserved `_meta` (omitted and null mean the same); it goes in a `session/update` whose params
 * are the usual `{sessionId, update, _meta?}`. Strict, so a field the RFD has not got fails.
 */
const meta = z.record(z.string(), z.unknown()).nullish();

export const rfdReplayComplete = z.strictObject({
  sessionUpdate: z.literal('replay_complete'),
  _meta: meta,
});

/** The params of the `session/update` notification that carries it. */
export const rfdReplayCompleteNotification = z.strictObject({
  sessionId: z.string().min(1),
  update: rfdReplayComplete,
  _meta: meta,
});
