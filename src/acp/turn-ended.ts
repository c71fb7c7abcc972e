/**
 * The journaled marker of a turn that did not end normally (docs/CLIENT-PROTOCOL.md "Failed and
 * interrupted turns"). ACP has no update for it and no `stopReason` for failure, so the hub
 * sends a standard `session_info_update` whose `_meta.zcode.turnEnded` says what happened:
 * clients that know it show the error with a retry, others ignore it. The prompter's own
 * `session/prompt` is answered with a JSON-RPC error as well.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';

/** `_meta.zcode.turnEnded` of the marker. */
export interface TurnEnded {
  /** `failed`: the agent reported an error; `interrupted`: the agent's process went away mid-turn. */
  outcome: 'failed' | 'interrupted';
  turnId?: string;
  /** The hub's id of the prompt that started the turn (`_meta.zcode.promptId` of its echo). */
  promptId?: string;
  /** The author of that prompt (src/domain/people/author.ts; only `name` and `clientId` in records from before people existed). */
  promptedBy?: { clientId: string; name: string; person?: string; device?: string; tokenId?: string; client?: string };
  error: { message: string; code?: string | number; type?: string };
}

/** The `session_info_update` carrying a turn's abnormal end. */
export function turnEndedUpdate(ended: TurnEnded): SessionUpdate {
  return { sessionUpdate: 'session_info_update', _meta: { zcode: { turnEnded: ended } } };
}
