/**
 * An answer that picked "Always allow" (docs/SECURITY.md "Always allow"): the hub keeps the
 * grant itself and answers the agent *allow once*, so no rule the hub cannot see or remove is
 * written into the agent's project settings. Checked before the answer counts (a grant the hub
 * cannot keep refuses the answer, the request stays open); kept once the answer has won, with
 * the verified author, and audited.
 */
import type { Identity } from '../../auth/identity.js';
import { alwaysOption, offeredRules, onceInstead, type AlwaysGrant, type GrantAuthor, type GrantRule } from '../../policy/always-grants.js';
import type { InteractionRecord as AcpInteraction, ZcodeAnswer } from '../../acp/interactions.js';
import { invalidAnswer, type AnswerRefusal } from './answer-refusal.js';
import type { HubCore } from '../hub-core.js';

/** Where grants are kept (src/policy/grant-store.ts). */
export interface GrantKeeper {
  readonly grants: readonly AlwaysGrant[];
  /** Why these rules cannot be kept for this person in this workspace, or undefined. */
  refusal(rules: readonly GrantRule[], workspace: string, person: string): string | undefined;
  add(rules: readonly GrantRule[], where: { workspace: string; sessionId: string }, by: GrantAuthor): AlwaysGrant[];
  /** Deleted sessions: grants set in them stop naming them. */
  forgetSessions(sessionIds: ReadonlySet<string>): void;
}

/** An "always" answer made ready: what the agent gets instead, and what to keep once it wins. */
export interface PreparedAlways {
  rules: GrantRule[];
  /** The allow-once response the agent is sent. */
  result: unknown;
}

/** The always-allow answers of the interaction flow. */
export class AlwaysKeeper {
  constructor(
    private readonly core: HubCore,
    private readonly keeper: GrantKeeper | undefined,
  ) {}

  /**
   * For an answer that picked the allow-always option: the grant to keep and the allow-once
   * result, or the refusal when the hub cannot keep it. Undefined for any other answer — and
   * when no store is configured or the option asks for more than allow rules (then the agent
   * gets the answer as it is, as before).
   */
  prepare(
    acp: AcpInteraction,
    answer: Extract<ZcodeAnswer, { type: 'answer' }>,
    person: string,
  ): PreparedAlways | AnswerRefusal | undefined {
    const option = alwaysOption(acp);
    if (this.keeper === undefined || option === undefined || answer.outcome !== option.optionId) return undefined;
    const rules = offeredRules(option);
    const once = onceInstead(acp);
    if (rules === undefined || once === undefined) return undefined;
    const why = this.keeper.refusal(rules, this.workspaceOf(acp.sessionId), person);
    return why === undefined ? { rules, result: once.result } : invalidAnswer(why);
  }

  private workspaceOf(sessionId: string): string {
    return this.core.findSession(sessionId)?.cwd ?? this.core.config.workspace;
  }

  /** The answer won: keeps the grant for the session's workspace and audits it. */
  keep(prepared: PreparedAlways, sessionId: string, by: { identity: Identity; local: boolean; client?: string | undefined }): void {
    if (this.keeper === undefined) return;
    const { identity } = by;
    const workspace = this.workspaceOf(sessionId);
    const author: GrantAuthor = {
      person: identity.person,
      device: identity.name,
      tokenId: identity.tokenId,
      // prepare() ran after the scope check: a view token never gets here.
      scope: identity.scope === 'admin' ? 'admin' : 'operate',
      local: by.local,
      ...(by.client === undefined ? {} : { client: by.client }),
    };
    let kept: AlwaysGrant[];
    try {
      kept = this.keeper.add(prepared.rules, { workspace, sessionId }, author);
    } catch (err) {
      // Only a failed write gets here (prepare checked the limits): the agent was allowed once.
      this.core.logger.warn({ err, sessionId }, 'an "always allow" grant could not be kept');
      return;
    }
    for (const g of kept)
      this.core.audit(by.client === undefined ? identity : { identity, clientName: by.client }, 'policy.grant.add', sessionId, {
        grant: {
          id: g.id,
          toolName: g.toolName,
          ...(g.ruleContent === undefined ? {} : { ruleContent: g.ruleContent }),
          workspace: g.workspace,
        },
      });
  }
}
