/**
 * The live tail across a hub restart ("after a restart, say what was
 * interrupted and keep what had been said"). While a tail is open its journaled frames go to the
 * session's record on disk (turn-record.ts); when the restarted hub learns the session again, the
 * record's updates are journaled afresh as a kept tail — so session/load, the compat profile and
 * the web app replay them exactly as they replay an interrupted turn (session-attach.ts): history
 * from before the tail, then the tail — followed by the interrupted marker when the turn was
 * still running. What the agent itself stored of that turn is left out of history by the tail's
 * start time, so a partial answer the agent kept is never shown twice.
 */
import { z } from 'zod';
import { OpenToolCalls } from '../../acp/open-tool-calls.js';
import { turnEndedUpdate, type TurnEnded } from '../../acp/turn-ended.js';
import type { Frame } from '../delivery/frame.js';
import type { HubCore } from '../hub-core.js';
import type { SessionState } from '../sessions/session-state.js';
import type { TailHooks } from './turn.js';
import type { RestoredTurn, TurnRecords } from './turn-record.js';

/** What the marker of a turn cut off by a hub restart says. */
export const HUB_RESTART_MESSAGE = 'zcode-hub restarted during this turn; what was said so far is kept.';

/** The Turn's tail events → the session's record. */
export function recordHooks(records: TurnRecords, sessionId: string): TailHooks {
  return {
    opened: (startedAt) => records.open(sessionId, startedAt),
    closed: () => records.drop(sessionId),
    running: (active) => records.turn(sessionId, active ? 'run' : 'idle'),
  };
}

/** A journaled frame (sent live as `frame`) of a session whose tail is recorded; a tail the journal trimmed is history's job. */
export function recordFrame(records: TurnRecords, session: SessionState, frame: Frame): void {
  const tail = session.turn.tail;
  if (tail === undefined || tail.startSeq < session.journal.firstSeq) {
    session.turn.dropTail();
    records.drop(session.sessionId);
    return;
  }
  // The serializer's own string, kept until the flush (turn-record.ts encodeLines says why not its bytes).
  records.frame(session.sessionId, frame.text, frame.bytes.length);
}

/** Journals a record of the previous run as the session's kept tail, then the marker if its turn ran. */
export function restoreTurn(core: HubCore, session: SessionState, restored: RestoredTurn, records: TurnRecords): void {
  const startSeq = session.journal.lastSeq + 1;
  for (const { update, meta } of restored.updates) {
    try {
      session.journal.append((seq, epoch) =>
        core.broadcaster.serialize('session/update', { sessionId: session.sessionId, update, _meta: { zcode: { seq, epoch, ...meta } } }),
      );
    } catch (err) {
      core.logger.warn({ sessionId: session.sessionId, err }, 'a recorded update could not be journaled again; skipped');
    }
  }
  session.turn.restoreTail({ startSeq, startedAt: restored.startedAt, kept: true });
  records.resume(session.sessionId, restored.bytes);
  if (!restored.running) return;
  // Nothing will finish the tool calls the cut turn left open (a permission no one can answer now).
  const open = new OpenToolCalls();
  for (const { update } of restored.updates) open.note(update);
  for (const update of open.closeAll()) core.emitUpdate(session, update);
  const promptedBy = lastAuthor(restored);
  const ended: TurnEnded = {
    outcome: 'interrupted',
    ...(promptedBy === undefined ? {} : { promptedBy }),
    error: { type: 'hub_restarted', message: HUB_RESTART_MESSAGE },
  };
  core.emitUpdate(session, turnEndedUpdate(ended));
  records.turn(session.sessionId, 'idle');
}

/** A recorded `promptedBy` (src/domain/people/author.ts); unknown keys are dropped, old records have name and clientId only. */
const recordedAuthor = z.object({
  clientId: z.string(),
  name: z.string(),
  person: z.string().optional(),
  device: z.string().optional(),
  tokenId: z.string().optional(),
  client: z.string().optional(),
});

/** Who prompted the recorded turn (the `promptedBy` of its last prompt echo). */
function lastAuthor(restored: RestoredTurn): TurnEnded['promptedBy'] {
  for (let i = restored.updates.length - 1; i >= 0; i--) {
    const u = restored.updates[i];
    if (u?.update.sessionUpdate !== 'user_message_chunk') continue;
    const by = recordedAuthor.safeParse(u.meta['promptedBy']);
    return by.success ? by.data : undefined;
  }
  return undefined;
}
