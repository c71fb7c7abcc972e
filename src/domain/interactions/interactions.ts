/**
 * The interaction race (ARCHITECTURE.md §4.5): one record per ZCode `params.requestId`, fanned out
 * to many clients, settled by the first valid answer. Everything that decides a winner is
 * synchronous — check and set happen with no `await` between them — so two answers arriving
 * in the same millisecond can never both win. I/O (sending copies to clients, writing the
 * result to the child, broadcasting) is done through callbacks the hub passes in.
 */
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import type { Author } from '../people/author.js';
import { HubError } from '../../errors.js';
import type { ApprovalView } from '../../policy/approval-state.js';
import type { PartialAnswer } from './partial-answers.js';

export type InteractionKind = 'permission' | 'question' | 'plan_approval';
export type InteractionState = 'pending' | 'resolved' | 'cancelled' | 'lost' | 'expired';

/** An approval rule that settled a request with no one asked: `name` is "allowed by rule r (description)". */
export interface RuleAuthor {
  name: string;
  rule: string;
}

/** An "always allow" grant that settled a request: `name` is "allowed by the always-allow of ann · Ann phone on 2026-12-04". */
export interface ByGrant {
  name: string;
  grant: string;
}

/** Who settled an interaction (`_zcode/interaction_resolved.resolvedBy`). */
export type ResolvedBy = Author | { name: 'agent' } | RuleAuthor | ByGrant;

/** The client-facing description of one interaction (docs/CLIENT-PROTOCOL.md `InteractionView`). */
export interface InteractionView {
  interactionId: string;
  sessionId: string;
  kind: InteractionKind;
  toolCallId?: string;
  title: string;
  options?: Array<{ optionId: string; name: string; kind: string }>;
  questions?: Array<{ question: string; header: string; options: Array<{ label: string; description?: string }>; multiSelect: boolean }>;
  plan?: string;
  /**
   * A permission's tool call as its request carries it (`rawInput`, `content` diffs, `locations`,
   * `_meta.zcode.cwd`): what is approved, for a read-only copy or an inbox entry that has no request.
   */
  toolCall?: RequestPermissionRequest['toolCall'];
  createdAt: number;
  state: InteractionState;
  resolvedBy?: ResolvedBy;
  outcome?: unknown;
  /** Waiting under an `ask` rule: for whom, and the votes so far (docs/CLIENT-PROTOCOL.md "Approval rules"). */
  approval?: ApprovalView;
  /** Settled by an `allow`/`deny` rule with no one asked. */
  rule?: { id: string; description?: string; decision: 'allow' | 'deny' };
  /** Allowed by an "always allow" grant the hub keeps, with no one asked: its id, who set it ("ann · Ann phone") and when (epoch ms). */
  grant?: { id: string; by: string; at: number };
  /** A question's answers kept so far, one per question, by whom (docs/CLIENT-PROTOCOL.md "Partial answers"). */
  partialAnswers?: PartialAnswer[];
  /**
   * Whether the token this copy of the view was made for may answer it now (its scope, the
   * rule's approvers, not voted yet). Set per recipient: in `_zcode/interactions/list`,
   * `GET /api/interactions` and `_zcode/interaction_opened`; absent on the shared record.
   */
  mayAnswer?: boolean;
}

/** One client's outstanding copy (one or more ACP requests); withdrawing it sends `$/cancel_request`. */
export interface InteractionCopy {
  withdraw(): void;
}

/** A pending or settled interaction. */
export interface InteractionRecord {
  view: InteractionView;
  /** ZCode `interaction/*` params as received (APP-SERVER.md §6.2/§6.3). */
  params: unknown;
  method: 'interaction/requestPermission' | 'interaction/requestUserInput';
  /** Backend epoch the request belongs to; a restart makes it `lost`. */
  backendEpoch: number;
  /** The ZCode result written to the child once settled. */
  result?: unknown;
  /** Outstanding copies by clientId. */
  copies: Map<string, InteractionCopy>;
  /** Connections this interaction was ever sent to: a re-send happens at most once per connection. */
  sentTo: Set<string>;
  /** Resolves the backend link's InteractionHandler promise (the answer to the child). */
  answerChild: (result: unknown) => void;
}

/** What a settled interaction tells the hub (to broadcast `_zcode/interaction_resolved`). */
export type SettledListener = (record: InteractionRecord) => void;

export interface InteractionRegistryOptions {
  /** Pending interactions per session (LIMITS.pendingInteractionsPerSession). */
  maxPendingPerSession: number;
  /** Settled records kept so a late answer can name the winner (LIMITS.settledInteractionsKept). */
  maxSettledKept: number;
}

/** Result of a first-answer-wins attempt. */
export type SettleAttempt = { won: true; record: InteractionRecord } | { won: false; record: InteractionRecord };

/** All interactions of the hub, pending and recently settled. */
export class InteractionRegistry {
  private readonly records = new Map<string, InteractionRecord>();
  /** The pending subset of `records`, oldest first: what the inbox, counts and capacity read. */
  private readonly pendingRecords = new Map<string, InteractionRecord>();
  private readonly settledOrder: string[] = [];
  private readonly listeners: SettledListener[] = [];

  constructor(private readonly options: InteractionRegistryOptions) {}

  /** Called (synchronously) after every settlement, whatever its state. */
  onSettled(listener: SettledListener): void {
    this.listeners.push(listener);
  }

  get(interactionId: string): InteractionRecord | undefined {
    return this.records.get(interactionId);
  }

  /** Pending records, optionally of one session, oldest first. */
  pending(sessionId?: string): InteractionRecord[] {
    const out: InteractionRecord[] = [];
    for (const r of this.pendingRecords.values()) if (sessionId === undefined || r.view.sessionId === sessionId) out.push(r);
    return out;
  }

  /** Number of pending interactions (of one session, or all). */
  pendingCount(sessionId?: string): number {
    if (sessionId === undefined) return this.pendingRecords.size;
    let n = 0;
    for (const r of this.pendingRecords.values()) if (r.view.sessionId === sessionId) n += 1;
    return n;
  }

  /** True when a session already holds the maximum of pending interactions (ARCHITECTURE.md §8). */
  atCapacity(sessionId: string): boolean {
    return this.pendingCount(sessionId) >= this.options.maxPendingPerSession;
  }

  /** Adds a new pending record. A record with the same id that is still pending is returned instead. */
  add(record: InteractionRecord): InteractionRecord {
    const existing = this.records.get(record.view.interactionId);
    if (existing && existing.view.state === 'pending') return existing;
    this.records.set(record.view.interactionId, record);
    if (record.view.state === 'pending') this.pendingRecords.set(record.view.interactionId, record);
    return record;
  }

  /**
   * First valid answer wins: check-and-set with no await in between. The winner's `result` is
   * handed to the child, every other copy is withdrawn, and listeners hear of it. A second call
   * for the same id returns `won: false` and changes nothing.
   */
  settle(
    interactionId: string,
    state: Exclude<InteractionState, 'pending'>,
    result: unknown,
    outcome: unknown,
    by?: ResolvedBy,
    winnerClientId?: string,
  ): SettleAttempt {
    const record = this.records.get(interactionId);
    if (!record) throw new HubError('HUB_ERR_NOT_FOUND', `Unknown interaction ${interactionId}`);
    if (record.view.state !== 'pending') return { won: false, record };
    record.view.state = state;
    this.pendingRecords.delete(interactionId);
    record.view.outcome = outcome;
    if (by) record.view.resolvedBy = by;
    record.result = result;
    const copies = [...record.copies.entries()];
    record.copies.clear();
    for (const [clientId, copy] of copies) if (clientId !== winnerClientId) copy.withdraw();
    record.answerChild(result);
    this.remember(interactionId);
    for (const listener of this.listeners) listener(record);
    return { won: true, record };
  }

  /** Removes one client's copy without settling anything (dismiss, disconnect). */
  dropCopy(interactionId: string, clientId: string): void {
    this.records.get(interactionId)?.copies.delete(clientId);
  }

  /** Forgets every copy held by a client that went away; the interactions stay pending (§4.5 "hold"). */
  dropClient(clientId: string): void {
    for (const r of this.pendingRecords.values()) r.copies.delete(clientId);
  }

  private remember(interactionId: string): void {
    this.settledOrder.push(interactionId);
    while (this.settledOrder.length > this.options.maxSettledKept) {
      const old = this.settledOrder.shift();
      // A settled id can come back pending (the child asks again after a restart): keep that one.
      if (old !== undefined && !this.pendingRecords.has(old)) this.records.delete(old);
    }
  }
}
