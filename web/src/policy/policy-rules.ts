/**
 * The approval rules as the phone edits them (docs/SECURITY.md "Approval rules"): reading
 * `GET /api/policy` field by field, and the same checks as the hub's schema
 * (src/policy/rule-schema.ts) so the form names a bad field before the hub has to. The bundle
 * carries no zod (wire.ts); test/web/policy-rules.test.ts keeps both checks in agreement.
 */
import { arr, bool, num, rec, str } from '../wire.js';

/** The rule kinds and approver scopes of src/policy/rule-schema.ts. */
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
export const APPROVER_SCOPES = ['operate', 'admin'] as const;
export const DECISIONS = ['allow', 'deny', 'ask'] as const;
export const MATCH_FIELDS = ['tool', 'command', 'path', 'workspace', 'session'] as const;

/** The hub's ASK_ONLY (src/policy/rule-schema.ts), word for word. */
export const ASK_ONLY = 'approvers, quorum, localOnly and always need decide "ask"';

/** The hub's QUORUM_ON_QUESTION (src/policy/rule-schema.ts), word for word. */
export const QUORUM_ON_QUESTION =
  'a quorum counts people who allow, and a question has no allow: give match.kind without "question", or no quorum';

/** The hub's default bounds (src/limits.ts policyRulesMax, policyRuleTextMax, policyQuorumMax); the hub still decides. */
export const POLICY_LIMITS = { rulesMax: 200, textMax: 512, quorumMax: 16 };

export type RuleKind = (typeof RULE_KINDS)[number];
export interface Approvers {
  scopes?: string[];
  people?: string[];
  originator?: boolean;
}
export type MatchField = (typeof MATCH_FIELDS)[number];
export interface Rule {
  id: string;
  description?: string;
  match: { kind?: string | string[] } & { [K in MatchField]?: string };
  decide: string;
  approvers?: Approvers;
  quorum?: number;
  localOnly?: boolean;
  /** Who may pick "Always allow" on a request the rule asks: false = nobody; absent = admins and the originator. */
  always?: false | Approvers;
}
export interface Policy {
  revision: number;
  rules: Rule[];
}
/** A bad field of a rule: `path` inside the rule (`id`, `match.kind`, `approvers.people`). */
export interface FieldError {
  path: string;
  message: string;
}

const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');

function parseApprovers(v: unknown): Approvers | undefined {
  const a = rec(v);
  if (!a) return undefined;
  const out: Approvers = {};
  if (Array.isArray(a['scopes'])) out.scopes = strings(a['scopes']);
  if (Array.isArray(a['people'])) out.people = strings(a['people']);
  const originator = bool(a['originator']);
  if (originator !== undefined) out.originator = originator;
  return out;
}

function parseRule(x: unknown): Rule[] {
  const r = rec(x);
  const id = str(r?.['id']);
  const decide = str(r?.['decide']);
  if (!r || id === undefined || decide === undefined) return [];
  const m = rec(r['match']) ?? {};
  const match: Rule['match'] = {};
  const kind = m['kind'];
  if (typeof kind === 'string') match.kind = kind;
  else if (Array.isArray(kind)) match.kind = strings(kind);
  for (const f of MATCH_FIELDS) {
    const v = str(m[f]);
    if (v !== undefined) match[f] = v;
  }
  const rule: Rule = { id, match, decide };
  const description = str(r['description']);
  if (description !== undefined) rule.description = description;
  const approvers = parseApprovers(r['approvers']);
  if (approvers) rule.approvers = approvers;
  const always = r['always'] === false ? false : parseApprovers(r['always']);
  if (always !== undefined) rule.always = always;
  const quorum = num(r['quorum']);
  if (quorum !== undefined) rule.quorum = quorum;
  const localOnly = bool(r['localOnly']);
  if (localOnly !== undefined) rule.localOnly = localOnly;
  return [rule];
}

/** `GET /api/policy` / `PUT /api/policy` answers, or undefined when it is not one. */
export function parsePolicy(body: unknown): Policy | undefined {
  const r = rec(body);
  const revision = num(r?.['revision']);
  if (!r || revision === undefined) return undefined;
  return { revision, rules: arr(r['rules']).flatMap(parseRule) };
}

/** The kinds a rule matches, as a list (none = every kind). */
export function kindsOf(rule: Rule): string[] {
  const k = rule.match.kind;
  return k === undefined ? [] : Array.isArray(k) ? k : [k];
}

function textError(path: string, v: string | undefined, out: FieldError[]): void {
  if (v === undefined) return;
  if (v.length < 1) out.push({ path, message: 'must not be empty' });
  else if (v.length > POLICY_LIMITS.textMax) out.push({ path, message: `at most ${POLICY_LIMITS.textMax} characters` });
}

function approversErrors(field: string, a: Approvers | undefined, out: FieldError[]): void {
  if (a?.scopes !== undefined) {
    if (a.scopes.length < 1 || a.scopes.length > APPROVER_SCOPES.length)
      out.push({ path: `${field}.scopes`, message: 'one or both of operate, admin' });
    else if (a.scopes.some((s) => !(APPROVER_SCOPES as readonly string[]).includes(s)))
      out.push({ path: `${field}.scopes`, message: 'a scope is operate or admin' });
  }
  if (a?.people !== undefined) {
    if (a.people.length < 1 || a.people.length > POLICY_LIMITS.rulesMax)
      out.push({ path: `${field}.people`, message: `one to ${POLICY_LIMITS.rulesMax} people` });
    else for (const p of a.people) textError(`${field}.people`, p, out);
  }
}

/** What the hub's schema refuses in one rule; `otherIds` are the ids of the other rules (an id is used once). */
export function ruleErrors(rule: Rule, otherIds: readonly string[] = []): FieldError[] {
  const out: FieldError[] = [];
  textError('id', rule.id, out);
  if (out.length === 0 && !/^[A-Za-z0-9._-]+$/.test(rule.id))
    out.push({ path: 'id', message: 'a rule id is letters, digits, ".", "_" and "-"' });
  if (out.length === 0 && otherIds.includes(rule.id)) out.push({ path: 'id', message: `rule id "${rule.id}" is used twice` });
  textError('description', rule.description, out);
  const kinds = kindsOf(rule);
  if (Array.isArray(rule.match.kind) && (kinds.length < 1 || kinds.length > RULE_KINDS.length))
    out.push({ path: 'match.kind', message: `one to ${RULE_KINDS.length} kinds` });
  else if (kinds.some((k) => !(RULE_KINDS as readonly string[]).includes(k)))
    out.push({ path: 'match.kind', message: `a kind is one of ${RULE_KINDS.join(', ')}` });
  for (const f of MATCH_FIELDS) textError(`match.${f}`, rule.match[f], out);
  if (!(DECISIONS as readonly string[]).includes(rule.decide)) out.push({ path: 'decide', message: 'allow, deny or ask' });
  const a = rule.approvers;
  approversErrors('approvers', a, out);
  // The hub refuses a bad `always` as a whole (it is `false` or approvers): named on `always`.
  if (rule.always !== undefined && rule.always !== false) {
    const found: FieldError[] = [];
    approversErrors('always', rule.always, found);
    out.push(...found.map((e) => ({ ...e, path: 'always' })));
  }
  const q = rule.quorum;
  if (q !== undefined && (!Number.isInteger(q) || q < 1 || q > POLICY_LIMITS.quorumMax))
    out.push({ path: 'quorum', message: `a whole number from 1 to ${POLICY_LIMITS.quorumMax}` });
  if (rule.decide !== 'ask' && (a !== undefined || q !== undefined || rule.localOnly !== undefined || rule.always !== undefined))
    out.push({ path: 'decide', message: ASK_ONLY });
  // A question's answer is no allow: a quorum on a rule that names questions is refused (the hub's namesQuestion).
  else if (q !== undefined && q > 1 && kinds.includes('question')) out.push({ path: 'quorum', message: QUORUM_ON_QUESTION });
  return out;
}

/**
 * A hub 400 answer as errors per rule index: the schema's issues (`{path: "body.rules.2.match.kind",
 * message}`, src/http/error-handler.ts), else the message's `rules.N.field: …` parts
 * (describeIssues, src/policy/rule-schema.ts); what names no rule goes under -1.
 */
export function apiFieldErrors(body: unknown, message: string): Map<number, FieldError[]> {
  const issues = arr(rec(rec(rec(body)?.['error'])?.['details'])?.['issues']).flatMap((i) => {
    const path = str(rec(i)?.['path']);
    const msg = str(rec(i)?.['message']);
    return path !== undefined && msg !== undefined ? [`${path}: ${msg}`] : [];
  });
  const byRule = new Map<number, FieldError[]>();
  for (const part of issues.length > 0 ? issues : message.split('; ')) {
    const m = /^(?:body\.)?rules\.(\d+)\.([^:]+): (.*)$/s.exec(part);
    const index = m ? Number(m[1]) : -1;
    const err = m ? { path: (m[2] ?? '').replace(/(\.\d+)+$/, ''), message: m[3] ?? '' } : { path: '', message: part };
    byRule.set(index, [...(byRule.get(index) ?? []), err]);
  }
  return byRule;
}

/** Moves the rule at `from` by `by` places (−1 up, +1 down); the same list when it cannot move. */
export function moveRule<T>(list: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
