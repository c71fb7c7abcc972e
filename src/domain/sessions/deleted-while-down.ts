/**
 * At start, what the state dir keeps about sessions deleted while the hub was down goes: their
 * marks (`session-marks.ndjson`), authors (`authors.ndjson`), kept task output (`task-outputs/`), a
 * turn record the last run left (`turns/`), and their ids in the "always allow" grants. A session
 * deleted through the hub is forgotten at once (session-delete.ts); one deleted another way while
 * no hub ran (the ZCode CLI, another host of the same agent) would keep its entries until the
 * stores' bounds evicted them.
 *
 * "No longer has" is decided narrowly, so nothing of a living session is lost:
 * - once the agent is first ready, it is asked about exactly the sessions the hub keeps something
 *   about (`session/list` with their ids, archived ones included), `taskOutputPruneBatch` ids per
 *   call with the batch's size as `limit` (without one the app-server answers at most 50). Asked
 *   by ids, the app-server answers from its persisted sessions whatever their workspace (no cwd
 *   filter), sub-agent children included (APP-SERVER.md §4.3);
 * - a session goes only when its batch was answered, it is not in the answer and the hub holds no
 *   live session of that id (one it learnt or created meanwhile: the agent lists a session only
 *   once it is persisted);
 * - an answer that names a session outside its batch means the agent did not filter by the ids
 *   (an older or different agent listing a page of everything): that batch and every later one
 *   keep everything, as does a failed call (the agent gone again, an error, a timeout). The next
 *   start asks again.
 * It runs once per start; the number of calls is bounded by the stores' own bounds
 * (`sessionMarksMax`, `authorsMax`, `alwaysGrantsMax`, one task output file per session).
 */
import type { AppServer } from '../../app-server/client.js';
import type { Logger } from '../../logger.js';
import type { BackendPort } from '../../ports/backend-port.js';

export interface DeletedWhileDownDeps {
  app: Pick<AppServer, 'listSessions'>;
  backend: Pick<BackendPort, 'status' | 'onStatus'>;
  /** The sessions the state dir keeps something about. */
  kept: () => string[];
  /** Forgets everything kept about these sessions. */
  forget: (sessionIds: ReadonlySet<string>) => void;
  /** Resolves once the files the forgetting changed are written. */
  settled: () => Promise<void>;
  /** Whether the hub holds a live session of this id. */
  live: (sessionId: string) => boolean;
  batch: number;
  logger: Logger;
}

/** What a pass did: the sessions asked about, those forgotten, and whether every batch was answered. */
export interface DeletedWhileDown {
  checked: number;
  removed: string[];
  complete: boolean;
}

/**
 * Runs once the backend is first ready. `done` settles after the files are written (never, if
 * the agent is never ready or `stop` came first); `stop` (hub close) ends the wait.
 */
export function forgetDeletedWhenReady(d: DeletedWhileDownDeps): { done: Promise<DeletedWhileDown>; stop: () => void } {
  let unsubscribe: (() => void) | undefined;
  const ready = new Promise<void>((resolve) => {
    if (d.backend.status().state === 'ready') return resolve();
    unsubscribe = d.backend.onStatus((s) => {
      if (s.state !== 'ready') return;
      unsubscribe?.();
      resolve();
    });
  });
  return { done: ready.then(() => forgetDeleted(d)), stop: () => unsubscribe?.() };
}

/** One pass (above): asks about every session kept, forgets those the agent answered it does not have. */
export async function forgetDeleted(d: DeletedWhileDownDeps): Promise<DeletedWhileDown> {
  let ids: string[];
  try {
    ids = d.kept();
  } catch (err) {
    d.logger.warn({ err }, 'sessions deleted while the hub was down were not looked for: what the hub keeps could not be read');
    return { checked: 0, removed: [], complete: false };
  }
  const gone = new Set<string>();
  const size = Math.max(1, d.batch);
  let checked = 0;
  for (; checked < ids.length; checked += size) {
    const batch = ids.slice(checked, checked + size);
    const listed = await listedOf(d, batch);
    if (listed === undefined) break;
    for (const id of batch) if (!listed.has(id) && !d.live(id)) gone.add(id);
  }
  const complete = checked >= ids.length;
  // A session the hub learnt while later batches were asked about is not touched.
  for (const id of gone) if (d.live(id)) gone.delete(id);
  if (gone.size > 0) {
    d.forget(gone);
    await d.settled();
    d.logger.info({ sessions: gone.size }, 'forgot what was kept about sessions deleted while the hub was down');
  }
  return { checked: Math.min(checked, ids.length), removed: [...gone], complete };
}

/** The ids of `batch` the agent has, or undefined when it did not answer as asked (logged). */
async function listedOf(d: DeletedWhileDownDeps, batch: string[]): Promise<Set<string> | undefined> {
  let listed: Set<string>;
  try {
    const infos = await d.app.listSessions({ sessionIds: batch, includeArchived: true, limit: batch.length });
    listed = new Set(infos.map((s) => s.sessionId));
  } catch (err) {
    d.logger.warn({ err }, 'sessions deleted while the hub was down were not looked for: the agent did not list the sessions');
    return undefined;
  }
  const asked = new Set(batch);
  const stray = [...listed].find((id) => !asked.has(id));
  if (stray !== undefined) {
    d.logger.warn(
      { stray },
      'sessions deleted while the hub was down were not looked for: the agent listed sessions it was not asked about',
    );
    return undefined;
  }
  return listed;
}
