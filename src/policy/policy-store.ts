/**
 * The approval rules on disk (docs/SECURITY.md "Approval rules"): `policy.json` in the state
 * dir, mode 0600, replaced atomically. Every change bumps the revision; a writer that names an
 * older revision than the stored one is refused (409), so two admins cannot overwrite each
 * other unseen. Read once at start (an unreadable file stops the start: rules an admin wrote
 * must not silently vanish) and kept in memory; the hub reads `current` on every request.
 */
import { HubError } from '../errors.js';
import { writeFileAtomic } from '../fs/secure-file.js';
import type { Limits } from '../limits.js';
import { describeIssues, policySchemas, type Policy, type Rule } from './rule-schema.js';
import { readStateFile } from './state-file.js';

/** What a replace changed, for the audit entry. */
export interface PolicyChange {
  before: Policy;
  after: Policy;
  /** Rule ids added, removed and changed (in place or moved). */
  diff: { added: string[]; removed: string[]; changed: string[]; moved: boolean };
}

/** The stored policy. */
export class PolicyStore {
  private policy: Policy;
  private readonly schemas: ReturnType<typeof policySchemas>;

  constructor(
    private readonly file: string,
    limits: Pick<Limits, 'policyRulesMax' | 'policyRuleTextMax' | 'policyQuorumMax'>,
  ) {
    this.schemas = policySchemas(limits);
    this.policy = readStateFile(file, this.schemas.policy, { revision: 0, rules: [] });
  }

  /** The policy in force (a copy). */
  get current(): Policy {
    return structuredClone(this.policy);
  }

  /** The rules in force, in order (not copied: read-only by contract). */
  get rules(): readonly Rule[] {
    return this.policy.rules;
  }

  /**
   * Replaces every rule. `expectedRevision`, when given, must be the stored one (else 409
   * HUB_ERR_CONFLICT naming the stored revision). Invalid rules are refused 400 naming the field.
   */
  replace(rules: unknown, expectedRevision?: number): PolicyChange {
    if (expectedRevision !== undefined && expectedRevision !== this.policy.revision)
      throw new HubError('HUB_ERR_CONFLICT', `The policy is at revision ${this.policy.revision}, not ${expectedRevision}: read it again`, {
        revision: this.policy.revision,
      });
    const parsed = this.schemas.rules.safeParse(rules);
    if (!parsed.success) throw new HubError('HUB_ERR_BAD_REQUEST', describeIssues(parsed.error, 'rules'));
    const before = this.current;
    const after: Policy = { revision: before.revision + 1, rules: parsed.data };
    writeFileAtomic(this.file, `${JSON.stringify(after, null, 2)}\n`);
    this.policy = after;
    return { before, after: this.current, diff: ruleDiff(before.rules, after.rules) };
  }
}

/** Which rule ids a change added, removed or changed. */
export function ruleDiff(before: readonly Rule[], after: readonly Rule[]): PolicyChange['diff'] {
  const old = new Map(before.map((r) => [r.id, JSON.stringify(r)]));
  const now = new Map(after.map((r) => [r.id, JSON.stringify(r)]));
  const kept = after.map((r) => r.id).filter((id) => old.has(id));
  return {
    added: [...now.keys()].filter((id) => !old.has(id)),
    removed: [...old.keys()].filter((id) => !now.has(id)),
    changed: kept.filter((id) => old.get(id) !== now.get(id)),
    moved:
      kept.join('\n') !==
      before
        .map((r) => r.id)
        .filter((id) => now.has(id))
        .join('\n'),
  };
}
