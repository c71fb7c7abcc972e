/**
 * One request's approval under an `ask` rule (docs/SECURITY.md "Approval rules"): who may
 * answer it, and its votes. A state machine with one table (STYLE.md habit 9):
 *
 *   open ──allow (a person not counted yet)──▶ open | allowed (quorum reached)
 *   open ──allow (a person already counted)──▶ open (refused: counted once)
 *   open ──deny (any eligible person)─────────▶ denied
 *   allowed | denied ──any vote──────────────▶ (refused: settled)
 *
 * A voter who is not eligible is refused in every state and changes nothing. People count, not
 * devices: the person comes from the voter's token. Pure: no I/O, no clock.
 */
import { scopeAllows, type Scope } from '../auth/identity.js';
import type { Rule } from './rule-schema.js';

/** Who answers: from the authenticated token and the connection, never from the client's word. */
export interface Voter {
  person: string;
  scope: Scope;
  /** On the hub's own machine: a loopback socket, not through a proxy or tunnel (local-peer.ts). */
  local: boolean;
}

export type ApprovalPhase = 'open' | 'allowed' | 'denied';

/** What every client is shown about a request waiting under a rule (`_meta.zcode.approval`). */
export interface ApprovalView {
  rule: { id: string; description?: string };
  /** "waiting for an admin", "waiting for ann or bob on this machine". */
  waitingFor: string;
  quorum: number;
  /** People who allowed so far, in order. */
  allowed: string[];
  /** "1 of 2 — ann allowed"; present when the quorum is above 1. */
  progress?: string;
  state: ApprovalPhase;
}

export type VoteResult =
  | { counted: true; phase: ApprovalPhase }
  | { counted: false; reason: 'not_eligible' | 'already_voted' | 'settled'; message: string };

/** Whether an approvers list (a rule's `approvers` or `always`) names this voter; none or an empty one names every operator. */
function admits(a: Rule['approvers'], voter: Voter, originator: string | undefined): boolean {
  if (a === undefined || (a.scopes === undefined && a.people === undefined && a.originator !== true)) return true;
  if (a.scopes?.some((s) => scopeAllows(voter.scope, s))) return true;
  if (a.people?.includes(voter.person)) return true;
  return a.originator === true && originator !== undefined && voter.person === originator;
}

/** Who may pick "Always allow" when no rule narrows it: admins, and the originator on their own prompt's request. */
export function maySetAlwaysByDefault(voter: Voter, originator: string | undefined): boolean {
  if (!scopeAllows(voter.scope, 'operate')) return false;
  return voter.scope === 'admin' || (originator !== undefined && voter.person === originator);
}

/** The votes of one request. */
export class ApprovalState {
  private phase: ApprovalPhase = 'open';
  private readonly allowedBy: string[] = [];

  /**
   * @param rule the `ask` rule that matched.
   * @param originator the person whose prompt led to this request (the running turn's verified author).
   * @param quorumApplies false for questions: an answer is not a yes/no, so the first eligible one decides
   *   (rule-schema.ts refuses a quorum on a rule that names questions; a rule of every kind keeps its
   *   quorum for the rest).
   */
  constructor(
    readonly rule: Rule,
    readonly originator: string | undefined,
    quorumApplies = true,
  ) {
    this.quorum = quorumApplies ? (rule.quorum ?? 1) : 1;
  }

  readonly quorum: number;

  get state(): ApprovalPhase {
    return this.phase;
  }

  /** True when `voter` may answer (see the rule's `approvers` and `localOnly`). */
  eligible(voter: Voter): boolean {
    if (!scopeAllows(voter.scope, 'operate')) return false;
    if (this.rule.localOnly === true && !voter.local) return false;
    return admits(this.rule.approvers, voter, this.originator);
  }

  /**
   * True when `voter` may pick "Always allow" on this request (docs/SECURITY.md "Always allow"):
   * an eligible voter the rule's `always` names (absent: an admin or the originator; false:
   * nobody), and never under a quorum above 1 (one person cannot stand for several, today or for
   * every later request).
   */
  maySetAlways(voter: Voter): boolean {
    if (this.quorum > 1 || !this.eligible(voter)) return false;
    const always = this.rule.always;
    if (always === undefined) return maySetAlwaysByDefault(voter, this.originator);
    return always !== false && admits(always, voter, this.originator);
  }

  /** Records one vote (see the table above). */
  vote(voter: Voter, verdict: 'allow' | 'deny'): VoteResult {
    if (!this.eligible(voter)) return { counted: false, reason: 'not_eligible', message: `This request is ${this.waitingFor()}` };
    if (this.phase !== 'open') return { counted: false, reason: 'settled', message: `This request is already ${this.phase}` };
    if (verdict === 'deny') {
      this.phase = 'denied';
      return { counted: true, phase: this.phase };
    }
    if (this.allowedBy.includes(voter.person))
      return { counted: false, reason: 'already_voted', message: `${voter.person} already allowed this request; each person counts once` };
    this.allowedBy.push(voter.person);
    if (this.allowedBy.length >= this.quorum) this.phase = 'allowed';
    return { counted: true, phase: this.phase };
  }

  /** True when `person` has allowed already (their other devices are not asked again). */
  hasVoted(person: string): boolean {
    return this.allowedBy.includes(person);
  }

  /** "waiting for an admin", "waiting for ann", "waiting for the prompt's author (ann) on this machine". */
  waitingFor(): string {
    const a = this.rule.approvers;
    const who: string[] = [];
    for (const s of a?.scopes ?? []) who.push(s === 'admin' ? 'an admin' : 'an operator');
    for (const p of a?.people ?? []) who.push(p);
    if (a?.originator === true)
      who.push(this.originator === undefined ? "the prompt's author" : `the prompt's author (${this.originator})`);
    if (who.length === 0) who.push('an operator');
    const many = this.quorum > 1 ? `${this.quorum} people: ` : '';
    return `waiting for ${many}${who.join(' or ')}${this.rule.localOnly === true ? ' on this machine' : ''}`;
  }

  /** What every client is shown. */
  view(): ApprovalView {
    const d = this.rule.description;
    return {
      rule: { id: this.rule.id, ...(d === undefined ? {} : { description: d }) },
      waitingFor: this.waitingFor(),
      quorum: this.quorum,
      allowed: [...this.allowedBy],
      ...(this.quorum > 1 ? { progress: this.progress() } : {}),
      state: this.phase,
    };
  }

  private progress(): string {
    const n = `${this.allowedBy.length} of ${this.quorum}`;
    if (this.phase === 'denied') return `${n} — denied`;
    return this.allowedBy.length === 0 ? n : `${n} — ${this.allowedBy.join(', ')} allowed`;
  }
}
