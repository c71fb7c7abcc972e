import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditLog } from '../../auth/audit-log.js';
import type { Limits } from '../../limits.js';
import { ApprovalState } from '../../policy/approval-state.js';
import type { PolicyChange, PolicyStore } from '../../policy/policy-store.js';
import { firstMatch, toolFacts, type RequestFacts } from '../../policy/rule-match.js';
import { policySchemas } from '../../policy/rule-schema.js';
import type { GrantStore } from '../../policy/grant-store.js';
import { grantRoutes } from './policy-grants.js';
import type { ZodApp } from './zod-app.js';

export interface PolicyRouteOptions {
  store: PolicyStore;
  /** The "always allow" grants; `/api/policy/grants` is mounted when given. */
  grants?: GrantStore | undefined;
  limits: Pick<Limits, 'policyRulesMax' | 'policyRuleTextMax' | 'policyQuorumMax'>;
  audit?: AuditLog | undefined;
  /** The workspace of a session the hub knows (a dry run names one); the default workspace otherwise. */
  workspaceOf: (sessionId: string | undefined) => string;
}

/** Audit details stay small (audit-log.ts bounds them): rule bodies only while they fit. */
const AUDIT_BODIES_MAX_CHARS = 3_000;

/** What a dry run asks about: a tool's permission, or a question or plan. */
const request = z.union([
  z.strictObject({
    kind: z.literal('permission').default('permission'),
    tool: z.string().min(1).max(256),
    input: z.record(z.string(), z.unknown()).default({}),
  }),
  z.strictObject({ kind: z.enum(['question', 'plan']) }),
]);
/** The rule that would decide, and who could answer. */
const checkResult = z.object({
  ruleId: z.string().nullable(),
  decision: z.enum(['allow', 'deny', 'ask']),
  approvers: z.object({
    waitingFor: z.string(),
    scopes: z.array(z.string()).optional(),
    people: z.array(z.string()).optional(),
    originator: z.boolean().optional(),
    quorum: z.number().int(),
    localOnly: z.boolean(),
  }),
});

/**
 * The approval rules over REST (docs/SECURITY.md "Approval rules"): read by operators (what will
 * happen to their requests), replaced and dry-run by admins; every replace is audited with its diff.
 */
export const policyRoutes: FastifyPluginAsync<PolicyRouteOptions> = async (app, opts) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  if (opts.grants) await app.register(grantRoutes, { grants: opts.grants, audit: opts.audit });
  rulesRoutes(r, opts);
  checkRoute(r, opts);
};

/** The rules in order, and replacing them (audited with their diff). */
function rulesRoutes(r: ZodApp, opts: PolicyRouteOptions): void {
  const { store } = opts;
  const { rules, policy } = policySchemas(opts.limits);
  r.get(
    '/api/policy',
    {
      config: { scope: 'operate' },
      schema: { summary: 'The approval rules, in order, and their revision', tags: ['policy'], response: { 200: policy } },
    },
    async () => store.current,
  );

  r.put(
    '/api/policy',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Replace the approval rules; 409 when `revision` is not the stored one',
        tags: ['policy'],
        body: z.strictObject({ rules, revision: z.number().int().min(0).optional() }),
        response: { 200: policy },
      },
    },
    async (req) => {
      const change = store.replace(req.body.rules, req.body.revision);
      if (req.identity) opts.audit?.record({ identity: req.identity, action: 'policy.change', detail: auditDetail(change) });
      return change.after;
    },
  );
}

/** A dry run: which rule would decide a request, and who could answer it. */
function checkRoute(r: ZodApp, opts: PolicyRouteOptions): void {
  const { store } = opts;
  r.post(
    '/api/policy/check',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Dry run: which rule would decide this request, and who could answer it',
        tags: ['policy'],
        body: z.strictObject({ sessionId: z.string().min(1).max(256).optional(), request }),
        response: { 200: checkResult },
      },
    },
    async (req) => {
      const { sessionId, request: q } = req.body;
      const workspace = opts.workspaceOf(sessionId);
      const facts: RequestFacts =
        q.kind === 'permission'
          ? { workspace, sessionId: sessionId ?? '', ...toolFacts(q.tool, q.input, workspace) }
          : { workspace, sessionId: sessionId ?? '', kind: q.kind };
      const rule = firstMatch(store.rules, facts);
      const ask = rule?.decide === 'ask' ? new ApprovalState(rule, undefined, q.kind !== 'question') : undefined;
      const a = rule?.approvers;
      return {
        ruleId: rule?.id ?? null,
        decision: rule?.decide ?? 'ask',
        approvers: {
          waitingFor: ask?.waitingFor() ?? (rule === undefined ? 'waiting for an operator' : 'nobody: the rule decides'),
          ...(a?.scopes === undefined ? {} : { scopes: a.scopes }),
          ...(a?.people === undefined ? {} : { people: a.people }),
          ...(a?.originator === undefined ? {} : { originator: a.originator }),
          quorum: ask?.quorum ?? 1,
          localOnly: rule?.localOnly === true,
        },
      };
    },
  );
}

function auditDetail(change: PolicyChange): Record<string, unknown> {
  const { diff, before, after } = change;
  const byId = (list: typeof before.rules, id: string) => list.find((x) => x.id === id);
  const bodies = {
    added: diff.added.map((id) => byId(after.rules, id)),
    removed: diff.removed.map((id) => byId(before.rules, id)),
    changed: diff.changed.map((id) => ({ before: byId(before.rules, id), after: byId(after.rules, id) })),
  };
  const detail = { revision: after.revision, from: before.revision, ...diff };
  return JSON.stringify(bodies).length <= AUDIT_BODIES_MAX_CHARS ? { ...detail, rules: bodies } : detail;
}
