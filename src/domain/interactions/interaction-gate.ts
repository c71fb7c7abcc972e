/**
 * The approval rules applied to the interaction race (docs/SECURITY.md "Approval rules"): before
 * a request is offered, the first matching rule decides — `allow`/`deny` settle it with no one
 * asked, `ask` narrows who is offered it and who may answer (an ApprovalState per request, with
 * its votes), no match keeps the race open to every operator. Also who may pick an "always
 * allow" option (a rule's `always`, by default admins and the prompt's originator, among those
 * who may answer) and the
 * "always allow" grants the hub keeps: a request one covers is allowed like an `allow` rule
 * would (docs/SECURITY.md "Always allow"). Synchronous, no I/O: InteractionFlow asks it and does
 * the sending.
 */
import { acpOptionKind, planResult, type InteractionRecord as AcpInteraction, type ZcodeAnswer } from '../../acp/interactions.js';
import { scopeAllows, type Identity } from '../../auth/identity.js';
import { authorLabel } from '../../auth/people.js';
import { coveringGrant, type AlwaysGrant } from '../../policy/always-grants.js';
import { ApprovalState, maySetAlwaysByDefault, type Voter } from '../../policy/approval-state.js';
import { firstMatch, requestFacts } from '../../policy/rule-match.js';
import type { Rule } from '../../policy/rule-schema.js';
import { declineResult } from './interaction-copies.js';
import type { ByGrant, InteractionRecord, RuleAuthor } from './interactions.js';

/** Where the rules come from (src/policy/policy-store.ts): read for every new request. */
export interface PolicySource {
  readonly rules: readonly Rule[];
}

/** Where the "always allow" grants come from (src/policy/grant-store.ts): read for every new request. */
export interface GrantSource {
  readonly grants: readonly AlwaysGrant[];
}

/** A request a rule or a grant settled without asking anyone. */
export type RuleSettlement =
  | { rule: Rule; decision: 'allow' | 'deny'; result: unknown; outcome: unknown; by: RuleAuthor }
  | { grant: AlwaysGrant; decision: 'allow'; result: unknown; outcome: unknown; by: ByGrant };

/** The identity the audit log names for a request a rule settled (docs/SECURITY.md "Approval rules"). */
export const RULES_IDENTITY: Identity = { tokenId: 'policy', name: 'approval rules', person: 'policy', scope: 'admin' };

interface Gated {
  approval?: ApprovalState;
  /** The person whose prompt led to the request. */
  originator?: string;
}

/** The rules' side of every interaction. */
export class InteractionGate {
  private readonly gated = new WeakMap<InteractionRecord, Gated>();

  constructor(
    private readonly policy: PolicySource = { rules: [] },
    private readonly grants: GrantSource = { grants: [] },
  ) {}

  /**
   * A new request: returns the settlement when an `allow`/`deny` rule decides it, else
   * undefined (it is offered; under `ask` the record's view carries `approval`).
   */
  admit(record: InteractionRecord, acp: AcpInteraction, workspace: string, originator: string | undefined): RuleSettlement | undefined {
    const rule = firstMatch(this.policy.rules, requestFacts(acp, workspace));
    const gated: Gated = originator === undefined ? {} : { originator };
    this.gated.set(record, gated);
    if (rule === undefined || rule.decide === 'ask') {
      if (rule !== undefined) gated.approval = new ApprovalState(rule, originator, acp.kind !== 'question' && acp.kind !== 'elicitation');
      // A grant counts only while its author could pick "Always allow" on this very request: a
      // rule added since, or another person's prompt, is not bypassed by it.
      const grant = coveringGrant(this.grants.grants, acp, workspace, (g) => this.maySetAlways(gated, grantVoter(g)));
      const once = grant === undefined ? undefined : settlement(acp, 'allow', '');
      if (grant !== undefined && once !== undefined) {
        const on = new Date(grant.at).toISOString().slice(0, 10);
        record.view.grant = { id: grant.id, by: authorLabel(grant.by.person, grant.by.device), at: grant.at };
        return {
          grant,
          decision: 'allow',
          ...once,
          by: { name: `allowed by the always-allow of ${record.view.grant.by} on ${on}`, grant: grant.id },
        };
      }
      if (gated.approval !== undefined) record.view.approval = gated.approval.view();
      return undefined;
    }
    const settled = settlement(acp, rule.decide, rule.id);
    // A question has no "yes": an allow rule cannot answer it, so it is offered as usual.
    if (settled === undefined) return undefined;
    const d = rule.description;
    const label = `${rule.decide === 'allow' ? 'allowed' : 'denied'} by rule ${rule.id}${d === undefined ? '' : ` (${d})`}`;
    record.view.rule = { id: rule.id, ...(d === undefined ? {} : { description: d }), decision: rule.decide };
    return { rule, decision: rule.decide, ...settled, by: { name: label, rule: rule.id } };
  }

  /** The request's vote state under an `ask` rule, if any. */
  approval(record: InteractionRecord): ApprovalState | undefined {
    return this.gated.get(record)?.approval;
  }

  /** True when this voter may answer the request (any operator when no `ask` rule holds it). */
  mayAnswer(record: InteractionRecord, voter: Voter): boolean {
    const approval = this.approval(record);
    if (approval === undefined) return scopeAllows(voter.scope, 'operate');
    return approval.eligible(voter) && !approval.hasVoted(voter.person);
  }

  /**
   * The request as this voter is offered it: "always allow" options only for admins and the
   * originator who may answer it, never under a quorum above 1 (for the others they are not
   * shown, and an answer naming one is not offered, so refused).
   */
  offeredTo(record: InteractionRecord, acp: AcpInteraction, voter: Voter): AcpInteraction {
    if (acp.kind !== 'permission' || this.maySetAlways(this.gated.get(record) ?? {}, voter)) return acp;
    return { ...acp, options: acp.options.filter((o) => acpOptionKind(o.kind) !== 'allow_always') };
  }

  private maySetAlways(gated: Gated, voter: Voter): boolean {
    return gated.approval?.maySetAlways(voter) ?? maySetAlwaysByDefault(voter, gated.originator);
  }
}

/** The voter a grant's author was when they set it. */
function grantVoter(g: AlwaysGrant): Voter {
  return { person: g.by.person, scope: g.by.scope, local: g.by.local };
}

/** The voter a connection or REST caller is: from its token and its socket. */
export function voterOf(identity: Identity, local: boolean | undefined): Voter {
  return { person: identity.person, scope: identity.scope, local: local === true };
}

/** Whether an answer says yes or no (a quorum counts the yeses; one eligible no ends it). */
export function verdictOf(acp: AcpInteraction, answer: Extract<ZcodeAnswer, { type: 'answer' }>): 'allow' | 'deny' {
  if (acp.kind === 'permission') {
    const decision = (answer.result as { decision?: unknown } | null)?.decision;
    return decision === 'deny' ? 'deny' : 'allow';
  }
  return answer.outcome === 'approved' || answer.outcome === 'answered' ? 'allow' : 'deny';
}

function settlement(acp: AcpInteraction, decision: 'allow' | 'deny', ruleId: string): { result: unknown; outcome: unknown } | undefined {
  if (decision === 'deny') {
    const deny = acp.kind === 'permission' ? acp.options.find((o) => o.response.decision === 'deny') : undefined;
    return { result: declineResult(acp, `Denied by rule ${ruleId}`), outcome: deny?.optionId ?? 'declined' };
  }
  if (acp.kind === 'plan_approval') {
    const approved = planResult(acp, { approve: true });
    return approved.type === 'answer' ? { result: approved.result, outcome: approved.outcome } : undefined;
  }
  if (acp.kind !== 'permission') return undefined;
  // Once, never "always": a rule allows this request, it does not widen the agent's own permissions.
  const once = acp.options.find((o) => acpOptionKind(o.kind) === 'allow_once');
  return once === undefined ? undefined : { result: once.response, outcome: once.optionId };
}
