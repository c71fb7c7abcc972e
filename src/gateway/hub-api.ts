import type { Hub } from '../domain/hub.js';

export type { InteractionView, ReplayMeta, RestAnswer, SessionOpened, SessionSummary } from '../domain/hub.js';

/**
 * The slice of the domain `Hub` (src/domain/hub.ts) the gateway and the REST routes call — the
 * seam agreed between the two layers. Type-only: the transport layer holds a Hub it was given
 * and never constructs one.
 */
export type GatewayHub = Pick<
  Hub,
  | 'connect'
  | 'disconnect'
  | 'newSession'
  | 'listSessions'
  | 'archiveSession'
  | 'loadSession'
  | 'deliverPending'
  | 'detach'
  | 'prompt'
  | 'cancel'
  | 'setMode'
  | 'setConfigOption'
  | 'loadEarlier'
  | 'listInteractions'
  | 'answerInteraction'
  | 'partialAnswer'
  | 'fork'
  | 'compact'
  | 'goal'
  | 'cancelBackgroundTask'
  | 'getSession'
  | 'renameSession'
  | 'closeSessionRuntime'
  | 'retireSession'
  | 'isRetired'
  | 'deleteSession'
  | 'events'
  | 'status'
  | 'endPrompts'
>;
