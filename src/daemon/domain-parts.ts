/**
 * The composition root's domain half: the hub's own stateful parts built from the config, once
 * (ARCHITECTURE.md §2). `startDaemon` builds them; a test rig that builds a hub without a daemon
 * builds them here too, so it wires what a daemon wires. Also the start's look for sessions
 * deleted while the hub was down, which reaches into those parts and the grants.
 */
import type { AppServerClient } from '../app-server/client.js';
import type { HubConfig } from '../config/schema.js';
import type { TaskOutputFiles } from '../domain/prompts/task-output-files.js';
import type { TurnRecords } from '../domain/prompts/turn-record.js';
import type { Hub } from '../domain/hub.js';
import { forgetDeletedWhenReady } from '../domain/sessions/deleted-while-down.js';
import { SessionMarks } from '../domain/sessions/session-marks.js';
import type { Logger } from '../logger.js';
import type { GrantStore } from '../policy/grant-store.js';
import type { BackendPort } from '../ports/backend-port.js';
import { agentStoreOf, noteAgentStore } from './agent-stores.js';

/** Archive flags and last-message previews, kept in the state dir. */
export function sessionMarks(config: HubConfig, logger?: Logger): SessionMarks {
  const limits = { max: config.limits.sessionMarksMax, previewChars: config.limits.sessionPreviewChars };
  return new SessionMarks(config.stateDir, limits, (message) => logger?.warn(message));
}

/** Once the agent is ready: what the state dir keeps about sessions deleted while no hub ran goes. */
export function forgetDeletedWhileDown(
  config: HubConfig,
  logger: Logger,
  parts: {
    appServer: AppServerClient;
    backend: BackendPort;
    hub: Hub;
    grants: GrantStore;
    taskFiles: TaskOutputFiles;
    records: TurnRecords;
  },
): ReturnType<typeof forgetDeletedWhenReady> {
  const { appServer, backend, hub, grants, taskFiles, records } = parts;
  const log = logger.child({ component: 'deleted-while-down' });
  const notNow = noteAgentStore(config.stateDir, agentStoreOf(backend.status().kind, config, process.env));
  if (notNow !== undefined) {
    log.info({ why: notNow }, 'sessions deleted while the hub was down are not looked for at this start');
    return { done: Promise.resolve({ checked: 0, removed: [], complete: false }), stop: () => undefined };
  }
  return forgetDeletedWhenReady({
    app: appServer,
    backend,
    // The "always allow" grants name sessions too; a grant stays, only the id goes.
    kept: () => [
      ...new Set([...hub.kept.keptSessionIds(), ...grants.grants.flatMap((g) => (g.sessionId === undefined ? [] : [g.sessionId]))]),
    ],
    forget: (ids) => {
      hub.kept.forgetSessions(ids);
      grants.forgetSessions(ids);
    },
    settled: async () => {
      await Promise.all([taskFiles.settled(), records.settled()]);
    },
    live: (id) => hub.kept.findSession(id) !== undefined,
    batch: config.limits.taskOutputPruneBatch,
    logger: log,
  });
}
