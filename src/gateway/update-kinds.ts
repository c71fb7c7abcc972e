/**
 * Which `session/update` kinds a client can parse, decided once at `initialize` from what it
 * announces (docs/CLIENT-PROTOCOL.md "Older clients and newer update kinds"), and what it gets
 * instead of a kind it cannot parse. An ACP client rejects an update kind its schema does not
 * know (-32602 from Zed's older SDK), so the hub never sends one:
 *
 * - the eight kinds ACP v1 has had from its first schema go to everyone;
 * - the kinds v1 added later (`config_option_update`, `session_info_update`, `usage_update`) go
 *   to a client that announces a current schema: `clientInfo` in `initialize` (a field the old
 *   schema has not got, so an old client cannot send it) or `protocolVersion` 2 or more;
 * - `replay_complete` (ACP v2) only to a client that lists it in `sessionUpdates` (below): the
 *   hub answers `protocolVersion: 1`, so the connection speaks v1 whatever the client announced,
 *   and a v1 schema rejects the kind (the official SDK 2.4.0 announcing 2 answered it -32602);
 * - `clientCapabilities._meta.zcode.sessionUpdates: string[]` overrides the guess: the base kinds
 *   plus exactly the kinds listed;
 * - the multi-client draft's kinds (`prompt_received`, `turn_complete`, `permission_resolved`,
 *   `client_disconnected`) only to a client that opts in: it lists them in `sessionUpdates`, or
 *   it calls the draft's own `session/attach`. No protocol version implies them, and nobody else
 *   gets them, not even folded: the hub's own notifications (`_zcode/*`) carry the same facts.
 *   The sender decides this (src/domain/delivery/draft-updates.ts delivers each only to clients whose
 *   `ClientPort.draftUpdates` list it, from {@link draftKindsAnnounced}), so a frame of a kind a
 *   client takes is handed to it as it is, with one set lookup: the hot path of a broadcast.
 *
 * A later kind a client cannot parse is folded into the extension notification
 * `_zcode/session_update` (same params, so its `seq` still counts); ACP clients ignore unknown
 * `_`-methods. `replay_complete` is dropped instead: those clients keep the `_meta` replay marker.
 */
import { ZCODE_NOTIFICATION } from '../zcode-ext/methods.js';
import { Frame } from '../domain/delivery/frame.js';

/** The kinds of ACP v1's first schema: every client parses them. */
export const BASE_UPDATE_KINDS = [
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'available_commands_update',
  'current_mode_update',
] as const;

/** Kinds ACP v1 added after its first schema (the hub sends these three). */
export const LATER_V1_KINDS = ['config_option_update', 'session_info_update', 'usage_update'] as const;

/** The session update ACP v2 sends once after a replay (the hub's own marker is `_meta.zcode.replay`). */
export const REPLAY_COMPLETE = 'replay_complete';

/** The multi-client draft's update kinds: only to clients that opt in. */
export const DRAFT_KINDS = ['prompt_received', 'turn_complete', 'permission_resolved', 'client_disconnected'] as const;
const DRAFT_KIND_SET: ReadonlySet<string> = new Set<string>(DRAFT_KINDS);

/** What an old client gets instead of a later update kind. */
export const FOLDED_UPDATE_METHOD = ZCODE_NOTIFICATION.sessionUpdate;

/** What `initialize` says about the client, as far as update kinds go. */
export interface AnnouncedClient {
  protocolVersion: number;
  hasClientInfo: boolean;
  /** `clientCapabilities._meta.zcode.sessionUpdates`, when it is a list of strings. */
  sessionUpdates?: readonly string[];
}

/** The update kinds a client can parse; `undefined` = every kind the hub sends. */
export type UpdateKinds = ReadonlySet<string> | undefined;

/** The two sets nearly every client gets, shared (read-only; `withDraftKinds` copies). */
const CURRENT_V1_KIND_SET: ReadonlySet<string> = new Set<string>([...BASE_UPDATE_KINDS, ...LATER_V1_KINDS]);
const FIRST_SCHEMA_KIND_SET: ReadonlySet<string> = new Set<string>(BASE_UPDATE_KINDS);

/** The rule (see the file comment): which kinds this client is sent as `session/update`. */
export function updateKindsFor(client: AnnouncedClient): UpdateKinds {
  if (client.sessionUpdates !== undefined) return new Set<string>([...BASE_UPDATE_KINDS, ...client.sessionUpdates]);
  return client.hasClientInfo || client.protocolVersion >= 2 ? CURRENT_V1_KIND_SET : FIRST_SCHEMA_KIND_SET;
}

/** Every kind the hub may send: only these can be announced (so the set is bounded by construction). */
const KNOWN_KINDS: ReadonlySet<string> = new Set<string>([...BASE_UPDATE_KINDS, ...LATER_V1_KINDS, REPLAY_COMPLETE, ...DRAFT_KINDS]);

/** A client's kinds once it opted into the draft's (by calling `session/attach`): what it had, plus those. */
export function withDraftKinds(kinds: UpdateKinds): UpdateKinds {
  return kinds === undefined ? undefined : new Set<string>([...kinds, ...DRAFT_KINDS]);
}

/** Every draft kind: what a client that calls the draft's `session/attach` is sent. */
export const ALL_DRAFT_KINDS: ReadonlySet<string> = DRAFT_KIND_SET;

/** The draft kinds a client opted into at `initialize` (those it lists in `sessionUpdates`). */
export function draftKindsAnnounced(client: AnnouncedClient): ReadonlySet<string> {
  return new Set((client.sessionUpdates ?? []).filter((k) => DRAFT_KIND_SET.has(k)));
}

/**
 * Reads `clientCapabilities._meta.zcode.sessionUpdates` leniently: a list of strings, of which
 * the kinds the hub knows are kept (anything else, or no list: not announced).
 */
export function announcedSessionUpdates(clientCapabilities: unknown): readonly string[] | undefined {
  const meta = (clientCapabilities as { _meta?: unknown } | null | undefined)?._meta;
  const zcode = (meta as { zcode?: unknown } | null | undefined)?.zcode;
  const list = (zcode as { sessionUpdates?: unknown } | null | undefined)?.sessionUpdates;
  if (!Array.isArray(list)) return undefined;
  return [...new Set(list.filter((k): k is string => typeof k === 'string' && KNOWN_KINDS.has(k)))];
}

/** The folded variant of a frame, built once however many old clients get it. */
const foldedCache = new WeakMap<Frame, Frame>();

/**
 * The frame a client with `kinds` is sent for `frame`: the frame itself, its folded variant
 * (`_zcode/session_update`), or `undefined` (nothing: `replay_complete` or a draft kind to a
 * client that does not know it). A client that takes every kind gets the frame as it is, at once:
 * draft kinds never reach a client that did not opt in (the sender filters them, see above).
 */
export function frameForKinds(frame: Frame, kinds: UpdateKinds): Frame | undefined {
  if (kinds === undefined) return frame;
  const kind = frame.updateKind;
  if (kind === null || kinds.has(kind)) return frame;
  if (kind === REPLAY_COMPLETE || DRAFT_KIND_SET.has(kind)) return undefined;
  let folded = foldedCache.get(frame);
  if (folded === undefined) {
    const msg = JSON.parse(frame.text) as { params?: unknown };
    folded = new Frame(JSON.stringify({ jsonrpc: '2.0', method: FOLDED_UPDATE_METHOD, params: msg.params }), FOLDED_UPDATE_METHOD);
    foldedCache.set(frame, folded);
  }
  return folded;
}
