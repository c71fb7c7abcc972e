/**
 * The interaction flow (ARCHITECTURE.md §4.5): the backend link's InteractionHandler, fan-out to
 * attached clients shaped per client, first valid answer wins (InteractionRegistry.settle is
 * synchronous), withdrawal of the other copies, `_zcode/interaction_resolved` to everyone,
 * re-send on attach once per connection, cancel, `lost` on backend restart, the optional policy
 * timeout (`expired`) and the REST inbox.
 */
import { authorOf, connectionAuthor } from '../people/author.js';
import { scopeAllows, type Identity } from '../../auth/identity.js';
import { HubError } from '../../errors.js';
import type { BackendInteractionRequest } from '../../ports/backend-port.js';
import type { ClientPort } from '../delivery/client-port.js';
import type { HubCore } from '../hub-core.js';
import {
  acpOptionKind,
  classifyInteraction,
  restAnswerToZcode,
  type InteractionRecord as AcpInteraction,
  type ZcodeAnswer,
} from '../../acp/interactions.js';
import { alreadySettled, alreadyVoted, invalidAnswer, notEligible, refusalError, type AnswerRefusal } from './answer-refusal.js';
import { copyMeta, declineResult, openCopy, toView } from './interaction-copies.js';
import { announceApproval, announceOverwrite, announceSettled, tellRefused } from './interaction-notices.js';
import { InteractionExpiry } from './interaction-expiry.js';
import { endIfNobodyLeft } from './interaction-withdrawal.js';
import { InteractionGate, RULES_IDENTITY, verdictOf, voterOf, type PolicySource } from './interaction-gate.js';
import { AlwaysKeeper, type GrantKeeper } from './always-keeper.js';
import { writeOverwrites } from './write-target.js';
import type { Voter } from '../../policy/approval-state.js';
import type { InteractionRecord, InteractionView, ResolvedBy } from './interactions.js';
import type { SessionState } from '../sessions/session-state.js';
import { ZCODE_NOTIFICATION } from '../../zcode-ext/methods.js';

/**
 * A permission with what only the hub knows: a command runs in the session's directory unless its
 * input names one (toAcpPermissionRequest), and a Write of a file that exists replaces it, which
 * its diff alone does not say.
 */
function withSessionFacts(parsed: AcpInteraction, cwd: string): AcpInteraction {
  if (parsed.kind !== 'permission') return parsed;
  const overwrites = writeOverwrites(parsed.toolName, parsed.input, cwd);
  return { ...parsed, cwd, ...(overwrites ? { overwrites } : {}) };
}

/** Interactions: the race and everything around it. */
export class InteractionFlow {
  private readonly parsed = new WeakMap<InteractionRecord, AcpInteraction>();
  private readonly expiry: InteractionExpiry;

  private readonly gate: InteractionGate;
  private readonly always: AlwaysKeeper;

  constructor(
    private readonly core: HubCore,
    policy?: PolicySource,
    grants?: GrantKeeper,
  ) {
    this.gate = new InteractionGate(policy, grants);
    this.expiry = new InteractionExpiry(core);
    this.always = new AlwaysKeeper(core, grants);
    core.interactions.onSettled((record) => {
      // Any settlement (answer, cancel, lost, expiry) ends the policy timer.
      this.expiry.clear(record.view.interactionId);
      announceSettled(this.core, record);
    });
  }

  /** The backend link's handler: resolves with the ZCode result of the winning answer. */
  handle(request: BackendInteractionRequest): Promise<unknown> {
    let parsed: AcpInteraction;
    try {
      parsed = classifyInteraction(request.method, request.params);
    } catch (err) {
      this.core.logger.warn(
        { err, sessionId: request.sessionId, requestId: request.requestId },
        'unreadable interaction request; declined',
      );
      return Promise.resolve(
        request.method === 'interaction/requestPermission'
          ? { decision: 'deny', reason: 'The hub could not read this request' }
          : { action: 'decline' },
      );
    }
    const existing = this.core.interactions.get(parsed.requestId);
    if (existing?.view.state === 'pending') {
      // The link de-duplicates per epoch; a duplicate here shares the first record's answer.
      return new Promise((resolve) => {
        const prev = existing.answerChild;
        existing.answerChild = (r) => {
          prev(r);
          resolve(r);
        };
      });
    }
    const session = this.core.ensureSession(parsed.sessionId, this.core.config.workspace);
    parsed = withSessionFacts(parsed, session.cwd);
    if (this.core.interactions.atCapacity(session.sessionId)) {
      this.core.logger.warn(
        { sessionId: session.sessionId, requestId: parsed.requestId, limit: this.core.config.limits.pendingInteractionsPerSession },
        'pending interaction cap reached; declined',
      );
      return Promise.resolve(declineResult(parsed, 'Too many pending requests in this session'));
    }
    return new Promise((resolve) => {
      const record: InteractionRecord = {
        view: toView(parsed, Date.now(), acpOptionKind, this.core.config.limits.interactionViewTextMax),
        params: request.params,
        method: request.method,
        backendEpoch: request.epoch,
        copies: new Map(),
        sentTo: new Set(),
        answerChild: resolve,
      };
      this.parsed.set(record, parsed);
      this.core.interactions.add(record);
      if (parsed.kind === 'permission' && parsed.overwrites === true) announceOverwrite(this.core, session, parsed.toolCallId);
      const ruled = this.gate.admit(record, parsed, session.cwd, session.turn.by?.person);
      if (ruled) {
        // Settled by an allow/deny rule before anyone is offered it; everyone hears by which rule.
        this.core.interactions.settle(record.view.interactionId, 'resolved', ruled.result, ruled.outcome, ruled.by);
        this.core.audit(RULES_IDENTITY, 'answer', session.sessionId, {
          interactionId: record.view.interactionId,
          kind: record.view.kind,
          outcome: ruled.outcome,
          ...('rule' in ruled
            ? { rule: { id: ruled.rule.id, decision: ruled.decision } }
            : { grant: { id: ruled.grant.id, by: record.view.grant?.by } }),
        });
        return;
      }
      this.expiry.arm(record, parsed);
      // Under an ask rule everyone is told for whom it waits (the others are not offered it).
      announceApproval(this.core, record, session);
      for (const a of session.attachments.values()) {
        // A replaying client gets it from resendPending once its replay is over.
        if (!a.replaying) this.sendTo(record, a.client);
      }
      session.turn.awaitInput();
    });
  }

  /** Re-sends a session's pending interactions to a client after its replay, once per connection. */
  resendPending(session: SessionState, client: ClientPort): void {
    for (const record of this.core.interactions.pending(session.sessionId))
      if (!record.sentTo.has(client.clientId)) this.sendTo(record, client);
  }

  /**
   * Pending interactions (the inbox), oldest first; with `caller`, each says whether that caller
   * may answer it and lists the options as that caller is offered them (no "always allow" for
   * someone who may not set it: a phone draws its sheet from this list after a reload).
   */
  list(sessionId?: string, caller?: { identity: Identity; local?: boolean }): InteractionView[] {
    const voter = caller === undefined ? undefined : voterOf(caller.identity, caller.local);
    return this.core.interactions.pending(sessionId).map((r) => (voter === undefined ? { ...r.view } : this.viewFor(r, voter)));
  }

  /** A pending request as one voter sees it in a list: whether they may answer, and the options offered to them. */
  private viewFor(record: InteractionRecord, voter: Voter): InteractionView {
    const view: InteractionView = { ...record.view, mayAnswer: this.gate.mayAnswer(record, voter) };
    const parsed = this.parsed.get(record);
    if (!parsed || view.options === undefined) return view;
    const offered = this.gate.offeredTo(record, parsed, voter);
    if (offered.kind !== 'permission') return view;
    const ids = new Set(offered.options.map((o) => o.optionId));
    return { ...view, options: view.options.filter((o) => ids.has(o.optionId)) };
  }

  /** REST / inbox answer: the same race as the ACP copies. */
  answer(interactionId: string, answer: unknown, by: { identity: Identity; clientId?: string; local?: boolean }): InteractionView {
    if (!scopeAllows(by.identity.scope, 'operate')) throw new HubError('HUB_ERR_FORBIDDEN', 'Answering needs the operate scope');
    const record = this.core.interactions.get(interactionId);
    const parsed = record ? this.parsed.get(record) : undefined;
    if (!record || !parsed) throw new HubError('HUB_ERR_NOT_FOUND', `Unknown interaction ${interactionId}`);
    if (record.view.state !== 'pending') throw refusalError(alreadySettled(record));
    const voter = voterOf(by.identity, by.local);
    const refused = this.standing(record, voter);
    if (refused) throw refusalError(refused);
    const verdict = restAnswerToZcode(this.gate.offeredTo(record, parsed, voter), answer);
    // An invalid answer is refused before anything is written to the child (APR-02).
    if (verdict.type !== 'answer') throw refusalError(invalidAnswer(verdict.type === 'invalid' ? verdict.reason : 'Not an answer'));
    const always = this.always.prepare(parsed, verdict, voter.person);
    if (always !== undefined && 'reason' in always) throw refusalError(always);
    const { outcome } = verdict;
    const result = always?.result ?? verdict.result;
    const resolvedBy: ResolvedBy = authorOf(by.identity, by.clientId);
    const phase = this.gate.approval(record) ? this.castVote(record, parsed, voter, verdict, by.clientId) : 'allowed';
    if (typeof phase === 'object') throw refusalError(phase);
    if (phase === 'open') {
      this.core.audit(by.identity, 'answer', record.view.sessionId, { interactionId, kind: record.view.kind, vote: outcome });
      return { ...record.view };
    }
    const attempt = this.core.interactions.settle(interactionId, 'resolved', result, outcome, resolvedBy, by.clientId);
    if (!attempt.won) throw refusalError(alreadySettled(record));
    this.core.audit(by.identity, 'answer', record.view.sessionId, { interactionId, kind: record.view.kind, outcome });
    if (always !== undefined) this.always.keep(always, record.view.sessionId, { identity: by.identity, local: by.local === true });
    return { ...record.view };
  }

  /** `session/cancel`: every pending interaction of the session → `cancelled`, the child gets deny/decline. */
  cancelSession(session: SessionState, by: ResolvedBy): void {
    for (const record of this.core.interactions.pending(session.sessionId)) {
      const parsed = this.parsed.get(record);
      if (parsed)
        this.core.interactions.settle(
          record.view.interactionId,
          'cancelled',
          declineResult(parsed, 'Cancelled by the user'),
          'cancelled',
          by,
        );
    }
  }

  /**
   * A turn ended: the child drops its pending reverse requests without a notice (§1.7 rule 8 —
   * stop, a v4 answer, AskUserQuestion's 300 s auto-resolution, a setModel abort, §6.3, §4.14),
   * so any still pending here for that turn are settled `cancelled` and withdrawn from the
   * clients instead of staying open and counting against the per-session cap. Requests that
   * name no turn are settled when the session has no other turn running.
   */
  abandonTurn(session: SessionState, turnId: string, otherTurnRunning: boolean): void {
    for (const record of this.core.interactions.pending(session.sessionId)) {
      const parsed = this.parsed.get(record);
      if (!parsed || (parsed.turnId === undefined ? otherTurnRunning : parsed.turnId !== turnId)) continue;
      this.core.logger.info(
        { sessionId: session.sessionId, turnId, interactionId: record.view.interactionId },
        'the turn ended with this interaction still open; settled',
      );
      this.core.interactions.settle(record.view.interactionId, 'cancelled', declineResult(parsed, 'The turn ended'), 'cancelled', {
        name: 'agent',
      });
    }
  }

  /** The backend restarted: interactions of older epochs are `lost` (their child is gone). */
  markLost(backendEpoch: number): void {
    for (const record of this.core.interactions.pending()) {
      const parsed = this.parsed.get(record);
      if (record.backendEpoch < backendEpoch && parsed)
        this.core.interactions.settle(record.view.interactionId, 'lost', declineResult(parsed, 'The agent restarted'), undefined);
    }
  }

  /** Clears every expiry timer (the hub is closing; the interactions stay with the child). */
  close(): void {
    this.expiry.close();
  }

  private sendTo(record: InteractionRecord, client: ClientPort): void {
    if (!client.open) return;
    record.sentTo.add(client.clientId);
    const session = this.core.findSession(record.view.sessionId);
    const voter = voterOf(client.identity, client.local);
    const mayAnswer = this.gate.mayAnswer(record, voter);
    if (!mayAnswer || session?.attachments.get(client.clientId)?.role === 'observer') {
      // Viewers, observers and those an ask rule leaves out see it, read-only (ARCHITECTURE.md §4.5).
      this.core.broadcaster.sendNow(
        client,
        this.core.broadcaster.serialize(ZCODE_NOTIFICATION.interactionOpened, {
          sessionId: record.view.sessionId,
          interaction: { ...record.view, mayAnswer },
        }),
      );
      return;
    }
    const parsed = this.parsed.get(record);
    if (!parsed || !session) return;
    const offered = this.gate.offeredTo(record, parsed, voter);
    // The request says for whom it waits and the votes so far, and a question the answers kept so far.
    const meta = copyMeta(record.view);
    const copy = openCopy(
      offered,
      client,
      (reply, requestId) => this.onReply(record, client, reply, requestId),
      this.core.config.limits.compatQuestionPrefaceMs,
      meta,
      (requestId) => this.onLateAnswer(record, client, requestId),
    );
    record.copies.set(client.clientId, copy);
  }

  /**
   * Why this voter may not answer the pending request now (an `ask` rule leaves them out, or
   * they allowed already), or undefined when they may.
   */
  standing(record: InteractionRecord, voter: Voter): AnswerRefusal | undefined {
    const approval = this.gate.approval(record);
    if (!approval || this.gate.mayAnswer(record, voter)) return undefined;
    return approval.hasVoted(voter.person) ? alreadyVoted(approval, voter.person) : notEligible(approval, voter.person);
  }

  /**
   * An answer to a copy the hub had withdrawn: the request was settled meanwhile, or this person
   * allowed it from another device. A copy the client itself dismissed, on a request still open
   * to it, is not told anything.
   */
  private onLateAnswer(record: InteractionRecord, client: ClientPort, requestId: string | number): void {
    const refusal =
      record.view.state !== 'pending' ? alreadySettled(record) : this.standing(record, voterOf(client.identity, client.local));
    if (refusal) tellRefused(this.core, record, client, refusal, requestId);
  }

  private onReply(record: InteractionRecord, client: ClientPort, reply: ZcodeAnswer, requestId?: string | number): void {
    switch (reply.type) {
      case 'dismissed':
        // Dismiss is not deny: only this client's copy goes away (APR-05), unless it was the last form (interaction-withdrawal.ts).
        this.core.interactions.dropCopy(record.view.interactionId, client.clientId);
        if (reply.form === true) endIfNobodyLeft(this.core, this.gate, record, client);
        return;
      case 'invalid':
        this.core.interactions.dropCopy(record.view.interactionId, client.clientId);
        tellRefused(this.core, record, client, invalidAnswer(reply.reason), requestId);
        return;
      case 'answer': {
        const parsed = this.parsed.get(record);
        if (record.view.state !== 'pending') {
          tellRefused(this.core, record, client, alreadySettled(record), requestId);
          return;
        }
        const always = parsed === undefined ? undefined : this.always.prepare(parsed, reply, client.identity.person);
        if (always !== undefined && 'reason' in always) {
          this.core.interactions.dropCopy(record.view.interactionId, client.clientId);
          tellRefused(this.core, record, client, always, requestId);
          return;
        }
        if (parsed && this.gate.approval(record)) {
          const phase = this.castVote(record, parsed, voterOf(client.identity, client.local), reply, client.clientId);
          if (typeof phase === 'object') {
            tellRefused(this.core, record, client, phase, requestId);
            return;
          }
          if (phase === 'open') {
            this.core.audit(client, 'answer', record.view.sessionId, {
              interactionId: record.view.interactionId,
              kind: record.view.kind,
              vote: reply.outcome,
            });
            return;
          }
        }
        const attempt = this.core.interactions.settle(
          record.view.interactionId,
          'resolved',
          always?.result ?? reply.result,
          reply.outcome,
          connectionAuthor(client),
          client.clientId,
        );
        if (!attempt.won) {
          tellRefused(this.core, record, client, alreadySettled(record), requestId);
          return;
        }
        this.core.audit(client, 'answer', record.view.sessionId, {
          interactionId: record.view.interactionId,
          kind: record.view.kind,
          outcome: reply.outcome,
        });
        if (always !== undefined)
          this.always.keep(always, record.view.sessionId, {
            identity: client.identity,
            local: client.local === true,
            client: client.clientName,
          });
        return;
      }
    }
  }

  /**
   * One vote under an ask rule (src/policy/approval-state.ts). Returns `open` while the quorum
   * is not reached (the voter's copies are withdrawn, everyone sees the tally), the refusal when
   * the vote does not count, or the phase that ends it (the caller then settles as usual).
   */
  private castVote(
    record: InteractionRecord,
    parsed: AcpInteraction,
    voter: Voter,
    answer: Extract<ZcodeAnswer, { type: 'answer' }>,
    clientId: string | undefined,
  ): AnswerRefusal | 'open' | 'allowed' | 'denied' {
    const approval = this.gate.approval(record);
    if (!approval) return 'allowed';
    const counted = approval.vote(voter, verdictOf(parsed, answer));
    if (!counted.counted) {
      if (clientId !== undefined) this.core.interactions.dropCopy(record.view.interactionId, clientId);
      if (counted.reason === 'not_eligible') return notEligible(approval, voter.person);
      return counted.reason === 'already_voted' ? alreadyVoted(approval, voter.person) : alreadySettled(record);
    }
    record.view.approval = approval.view();
    if (counted.phase !== 'open') return counted.phase;
    // Each person counts once: none of this person's devices is asked again.
    const session = this.core.findSession(record.view.sessionId);
    for (const [id, copy] of [...record.copies]) {
      const holder = session?.attachments.get(id)?.client;
      if (id === clientId || holder?.identity.person === voter.person) {
        record.copies.delete(id);
        if (id !== clientId) copy.withdraw();
      }
    }
    if (session) announceApproval(this.core, record, session);
    return 'open';
  }
}
