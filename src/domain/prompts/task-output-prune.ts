/**
 * At start, the kept task output (task-output-files.ts) of sessions deleted while the hub was
 * down goes. A session deleted through the hub drops its file at once; one deleted another way
 * while no hub ran (the ZCode CLI, another host of the same agent) left its file behind for good.
 *
 * "No longer has" is decided narrowly, so no output of a living session is lost:
 * - once the agent is ready, it is asked about exactly the sessions that have a file
 *   (`session/list` with their ids, archived ones included), `taskOutputPruneBatch` ids per call
 *   with the batch's size as `limit` (without one the app-server answers at most 50);
 * - a file goes only when its batch was answered, its session is not in the answer and the hub
 *   holds no live session of that id (one it learnt meanwhile);
 * - a failed call (the agent gone again, an error, a timeout) keeps the files of that batch and
 *   of every later one: the next start asks again.
 * Sub-agent children are never listed, but their tool calls reach the hub under the parent's id,
 * so their task output lives in the parent's file.
 */
import type { AppServer } from '../../app-server/client.js';
import type { Logger } from '../../logger.js';
import type { BackendPort } from '../../ports/backend-port.js';
import type { TaskOutputFiles } from './task-output-files.js';

export interface TaskOutputPruneDeps {
  app: Pick<AppServer, 'listSessions'>;
  backend: Pick<BackendPort, 'status' | 'onStatus'>;
  files: Pick<TaskOutputFiles, 'storedSessionIds' | 'drop' | 'settled'>;
  /** Whether the hub holds a live session of this id. */
  live: (sessionId: string) => boolean;
  batch: number;
  logger: Logger;
}

/** What a prune did: the sessions asked about, those whose file went, and whether every batch was answered. */
export interface TaskOutputPrune {
  checked: number;
  removed: string[];
  complete: boolean;
}

/**
 * Prunes once the backend is first ready. `done` settles after the files are removed (never, if
 * the agent is never ready or `stop` came first); `stop` (hub close) ends the wait.
 */
export function pruneTaskOutputsWhenReady(d: TaskOutputPruneDeps): { done: Promise<TaskOutputPrune>; stop: () => void } {
  let unsubscribe: (() => void) | undefined;
  const ready = new Promise<void>((resolve) => {
    if (d.backend.status().state === 'ready') return resolve();
    unsubscribe = d.backend.onStatus((s) => {
      if (s.state !== 'ready') return;
      unsubscribe?.();
      resolve();
    });
  });
  return { done: ready.then(() => pruneTaskOutputs(d)), stop: () => unsubscribe?.() };
}

/** One pass (above): asks about every session with a file, removes the files of those not listed. */
export async function pruneTaskOutputs(d: TaskOutputPruneDeps): Promise<TaskOutputPrune> {
  let ids: string[];
  try {
    ids = d.files.storedSessionIds();
  } catch (err) {
    d.logger.warn({ err }, 'kept task output of deleted sessions was not looked for: its folder could not be read');
    return { checked: 0, removed: [], complete: false };
  }
  const removed: string[] = [];
  const size = Math.max(1, d.batch);
  for (let i = 0; i < ids.length; i += size) {
    const batch = ids.slice(i, i + size);
    let listed: Set<string>;
    try {
      const infos = await d.app.listSessions({ sessionIds: batch, includeArchived: true, limit: batch.length });
      listed = new Set(infos.map((s) => s.sessionId));
    } catch (err) {
      d.logger.warn({ err }, 'kept task output of deleted sessions was not looked for: the agent did not list the sessions');
      return { checked: i, removed, complete: false };
    }
    for (const id of batch) {
      if (listed.has(id) || d.live(id)) continue;
      d.files.drop(id);
      removed.push(id);
    }
  }
  await d.files.settled();
  if (removed.length > 0)
    d.logger.info({ sessions: removed.length }, 'removed the kept task output of sessions deleted while the hub was down');
  return { checked: ids.length, removed, complete: true };
}
