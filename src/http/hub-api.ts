import type { Hub } from '../domain/hub.js';

export type { RestAnswer } from '../domain/hub.js';

/**
 * The slice of the domain `Hub` (src/domain/hub.ts) the REST routes call. Type-only: the
 * routes hold a Hub they were given. The WebSocket gateway declares its own slice
 * (src/gateway/hub-api.ts); the two transports never import each other (test/meta/layers.ts).
 */
export type RestHub = Pick<
  Hub,
  | 'answerInteraction'
  | 'partialAnswer'
  | 'archiveSession'
  | 'closeSessionRuntime'
  | 'deleteSession'
  | 'events'
  | 'getSession'
  | 'isRetired'
  | 'listInteractions'
  | 'listSessions'
  | 'loadEarlier'
  | 'renameSession'
  | 'retireSession'
  | 'status'
>;
