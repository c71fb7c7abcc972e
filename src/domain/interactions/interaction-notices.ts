/**
 * What every attached client is told about an interaction besides its own copy (ARCHITECTURE.md
 * §4.5): for whom one waits under an approval rule and its votes, and how one was settled —
 * `_zcode/interaction_resolved`, the multi-client draft's `_session/permission_resolved`, the
 * compat profile's notice and the `answeredBy` / `rule` / `grant` of its tool card; and the one
 * client whose answer was refused, why.
 */
import type { HubCore } from '../hub-core.js';
import type { InteractionRecord } from './interactions.js';
import type { SessionState } from '../sessions/session-state.js';
import { ZCODE_NOTIFICATION } from '../../zcode-ext/methods.js';
import { draftPermissionResolved } from '../delivery/draft-updates.js';
import type { AnswerRefusal } from './answer-refusal.js';
import type { ClientPort } from '../delivery/client-port.js';

/** Everyone sees for whom a request waits and the votes so far: `_meta.zcode.approval` on its tool card. */
export function announceApproval(core: HubCore, record: InteractionRecord, session: SessionState): void {
  const v = record.view;
  if (v.approval === undefined || v.toolCallId === undefined || v.kind !== 'permission') return;
  core.emitUpdate(session, {
    sessionUpdate: 'tool_call_update',
    toolCallId: v.toolCallId,
    _meta: { zcode: { approval: v.approval } },
  });
}

/**
 * Everyone's card of a Write that replaces a file says so, as its request does (docs/CLIENT-PROTOCOL.md
 * "Interactions": `overwrites`); journaled, so a device joining while the turn runs sees it too, and
 * kept in the author book, since a replay rebuilt from the agent's history (after the turn, after a
 * restart) would otherwise call the file new.
 */
export function announceOverwrite(core: HubCore, session: SessionState, toolCallId: string): void {
  core.authors.setOverwrites(session.sessionId, toolCallId);
  core.emitUpdate(session, { sessionUpdate: 'tool_call_update', toolCallId, _meta: { zcode: { overwrites: true } } });
}

/** Everyone attached sees the answers a pending question holds so far (docs/CLIENT-PROTOCOL.md "Partial answers"). */
export function announceProgress(core: HubCore, record: InteractionRecord): void {
  const session = core.findSession(record.view.sessionId);
  if (!session) return;
  core.notifySession(session, ZCODE_NOTIFICATION.interactionProgress, {
    sessionId: record.view.sessionId,
    interactionId: record.view.interactionId,
    partialAnswers: record.view.partialAnswers ?? [],
  });
}

/** Tells everyone how an interaction was settled. */
export function announceSettled(core: HubCore, record: InteractionRecord): void {
  const session = core.findSession(record.view.sessionId);
  const v = record.view;
  // Only a settled record is announced; a pending one has nothing to tell yet.
  if (!session || v.state === 'pending') return;
  core.notifySession(session, ZCODE_NOTIFICATION.interactionResolved, {
    sessionId: v.sessionId,
    interactionId: v.interactionId,
    state: v.state,
    ...(v.outcome === undefined ? {} : { outcome: v.outcome }),
    ...(v.resolvedBy === undefined ? {} : { resolvedBy: v.resolvedBy }),
    ...(v.rule === undefined ? {} : { rule: v.rule }),
    ...(v.grant === undefined ? {} : { grant: v.grant }),
  });
  // The multi-client draft's name for the same fact (ACP RFD "Multi-Client Session Attach").
  if (v.kind === 'permission') {
    core.notifySession(session, '_session/permission_resolved', {
      sessionId: v.sessionId,
      interactionId: v.interactionId,
      state: v.state,
      ...(v.toolCallId === undefined ? {} : { toolCallId: v.toolCallId }),
      ...(v.state === 'resolved' && typeof v.outcome === 'string' ? { chosenOptionId: v.outcome } : {}),
      ...(v.resolvedBy === undefined ? {} : { resolvedBy: v.resolvedBy }),
    });
    draftPermissionResolved(core, session, {
      state: v.state,
      toolCallId: v.toolCallId,
      chosenOptionId: v.state === 'resolved' && typeof v.outcome === 'string' ? v.outcome : undefined,
      resolvedBy: v.resolvedBy,
    });
  }
  core.notifyProfiles(session, {
    type: 'interaction_settled',
    sessionId: v.sessionId,
    kind: v.kind,
    ...(v.toolCallId === undefined ? {} : { toolCallId: v.toolCallId }),
  });
  if (v.state === 'resolved' && v.resolvedBy !== undefined && v.toolCallId !== undefined) {
    // Journaled on the card it was about, so joiners and replays show who answered.
    core.authors.setAnswer(v.sessionId, v.toolCallId, v.resolvedBy);
    core.emitUpdate(session, {
      sessionUpdate: 'tool_call_update',
      toolCallId: v.toolCallId,
      _meta: {
        zcode: {
          answeredBy: v.resolvedBy,
          ...(v.rule === undefined ? {} : { rule: v.rule }),
          ...(v.grant === undefined ? {} : { grant: v.grant }),
        },
      },
    });
  }
  session.turn.inputSettled(core.interactions.pendingCount(session.sessionId), session.queue.running !== undefined);
}

/** Tells an ACP client its answer was refused, with the reason the REST route would give. */
export function tellRefused(
  core: HubCore,
  record: InteractionRecord,
  client: ClientPort,
  refusal: AnswerRefusal,
  requestId: string | number | undefined,
): void {
  core.logger.info(
    { clientId: client.clientId, interactionId: record.view.interactionId, reason: refusal.reason },
    'interaction answer refused',
  );
  core.broadcaster.sendNow(
    client,
    core.broadcaster.serialize(ZCODE_NOTIFICATION.answerRefused, {
      sessionId: record.view.sessionId,
      interactionId: record.view.interactionId,
      ...(requestId === undefined ? {} : { requestId }),
      reason: refusal.reason,
      code: refusal.code,
      message: refusal.message,
      details: refusal.details,
    }),
  );
}
