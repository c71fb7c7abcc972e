/**
 * The `_zcode/*` extension protocol's method names, in one place (docs/CLIENT-PROTOCOL.md).
 * Dependency-free, so the web app imports the values too (test/meta/layers.ts
 * WEB_SHARED_MODULES); the payload schemas and their types are in ./schemas.ts.
 * Code names mirror wire names by one rule: `_zcode/interaction_resolved` → `interactionResolved`.
 */

/** Client → hub requests of the extension. */
export const ZCODE_REQUEST = {
  loadEarlier: '_zcode/load_earlier',
  interactionsList: '_zcode/interactions/list',
  fork: '_zcode/fork',
  compact: '_zcode/compact',
  goal: '_zcode/goal',
  cancelBackgroundTask: '_zcode/cancel_background_task',
  sessionArchive: '_zcode/session_archive',
  partialAnswer: '_zcode/partial_answer',
} as const;

/** Hub → client notifications of the extension. */
export const ZCODE_NOTIFICATION = {
  ownUpdate: '_zcode/own_update',
  turnState: '_zcode/turn_state',
  sessionState: '_zcode/session_state',
  presence: '_zcode/presence',
  interactionOpened: '_zcode/interaction_opened',
  interactionResolved: '_zcode/interaction_resolved',
  sessionDeleted: '_zcode/session_deleted',
  backendState: '_zcode/backend_state',
  /** A `session/update` whose kind the client's schema cannot know, folded (docs/CLIENT-PROTOCOL.md). */
  sessionUpdate: '_zcode/session_update',
  answerRefused: '_zcode/answer_refused',
  interactionProgress: '_zcode/interaction_progress',
} as const;

export type ZcodeRequestMethod = (typeof ZCODE_REQUEST)[keyof typeof ZCODE_REQUEST];
export type ZcodeNotificationMethod = (typeof ZCODE_NOTIFICATION)[keyof typeof ZCODE_NOTIFICATION];
