/**
 * The approval rules' schema (docs/SECURITY.md "Approval rules"): one zod schema for the
 * policy file, `PUT /api/policy` and `zcode-hub policy set`, built with the configured limits
 * (policyRulesMax, policyRuleTextMax, policyQuorumMax) so every bound is refused with the field
 * it is about.
 */
import { z } from 'zod';
import type { Limits } from '../limits.js';

/** Why a rule field is refused on an `allow`/`deny` rule. */
export const ASK_ONLY = 'approvers, quorum, localOnly and always need decide "ask"';

/** ACP tool kinds (`ToolKind` of the ACP schema) plus the two interaction kinds that are no tool. */
export const RULE_KINDS = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
  'question',
  'plan',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** Who may answer an `ask` (docs/SECURITY.md "Approval rules"). */
export const APPROVER_SCOPES = ['operate', 'admin'] as const;

/** Why a quorum above 1 is refused on a rule whose kinds name "question" (docs/SECURITY.md "Approval rules"). */
export const QUORUM_ON_QUESTION =
  'a quorum counts people who allow, and a question has no allow: give match.kind without "question", or no quorum';

/**
 * True when a rule names questions among its kinds. A rule of every kind (no `kind`) keeps its
 * quorum for permissions and plans and lets the first eligible answer decide a question, so a
 * "two people approve everything" rule stays valid (docs/SECURITY.md "Approval rules").
 */
export function namesQuestion(match: { kind?: RuleKind | RuleKind[] }): boolean {
  return match.kind === 'question' || (Array.isArray(match.kind) && match.kind.includes('question'));
}

/** The schemas of a rule and a policy under the given limits. */
export function policySchemas(limits: Pick<Limits, 'policyRulesMax' | 'policyRuleTextMax' | 'policyQuorumMax'>) {
  const text = z.string().min(1).max(limits.policyRuleTextMax);
  const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(RULE_KINDS.length)]);
  const match = z
    .strictObject({
      kind: oneOrMany(z.enum(RULE_KINDS)).optional(),
      tool: text.optional(),
      command: text.optional(),
      path: text.optional(),
      workspace: text.optional(),
      session: text.optional(),
    })
    .describe('Every given field must match; an empty match matches every request');
  const approvers = z.strictObject({
    scopes: z.array(z.enum(APPROVER_SCOPES)).min(1).max(APPROVER_SCOPES.length).optional(),
    people: z.array(text).min(1).max(limits.policyRulesMax).optional(),
    originator: z.boolean().optional(),
  });
  const rule = z
    .strictObject({
      id: text.regex(/^[A-Za-z0-9._-]+$/, 'a rule id is letters, digits, ".", "_" and "-"'),
      description: text.optional(),
      match,
      decide: z.enum(['allow', 'deny', 'ask']),
      approvers: approvers.optional(),
      quorum: z.number().int().min(1).max(limits.policyQuorumMax).optional(),
      localOnly: z.boolean().optional(),
      always: z
        .union([z.literal(false), approvers])
        .optional()
        .describe('Who may pick "Always allow" on a request this rule asks: false = nobody; absent = admins and the originator'),
    })
    .superRefine((r, ctx) => {
      if (
        r.decide !== 'ask' &&
        (r.approvers !== undefined || r.quorum !== undefined || r.localOnly !== undefined || r.always !== undefined)
      )
        ctx.addIssue({ code: 'custom', path: ['decide'], message: ASK_ONLY });
      else if ((r.quorum ?? 1) > 1 && namesQuestion(r.match))
        ctx.addIssue({ code: 'custom', path: ['quorum'], message: QUORUM_ON_QUESTION });
    });
  const rules = z
    .array(rule)
    .max(limits.policyRulesMax)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((r, i) => {
        if (seen.has(r.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `rule id "${r.id}" is used twice` });
        seen.add(r.id);
      });
    });
  const policy = z.strictObject({ revision: z.number().int().min(0), rules });
  return { rule, rules, policy };
}

type Schemas = ReturnType<typeof policySchemas>;
export type Rule = z.infer<Schemas['rule']>;
export type Policy = z.infer<Schemas['policy']>;
export type Decision = Rule['decide'];

/** A zod error as one line that names the field: `rules.0.decide: Invalid option …`. */
export function describeIssues(error: z.ZodError, prefix = ''): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${[prefix, ...i.path.map(String)].filter((s) => s !== '').join('.') || '(body)'}: ${i.message}`)
    .join('; ');
}
