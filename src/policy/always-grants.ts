/**
 * What an "Always allow" answer asks to remember, and which remembered grant covers a later
 * request (docs/SECURITY.md "Always allow"). The agent's allow-always option carries the project
 * rules it would persist (`permissionUpdates: [{type: "addRules", behavior: "allow", rules:
 * [{toolName, ruleContent?}]}]`, APP-SERVER.md §6.2); the hub keeps those rules itself instead,
 * and a later request is covered when the allow-always option the agent offers for it names
 * rules the hub keeps for the same workspace — the agent derives `ruleContent` the same way each
 * time, so the hub compares like with like and never re-implements the agent's matching. Exact
 * equality is the narrowest reading of a rule: a grant for `npm test` never covers `npm test &&
 * rm -rf ~`. Pure: no I/O.
 */
import { z } from 'zod';
import { acpOptionKind, type InteractionRecord as AcpInteraction, type ZCodePermissionOption } from '../acp/interactions.js';

/** One project rule as the agent offers it. */
export interface GrantRule {
  toolName: string;
  ruleContent?: string;
}

/** Who set a grant: the verified token at the time (never what the client says about itself). */
export interface GrantAuthor {
  person: string;
  device: string;
  tokenId: string;
  scope: 'operate' | 'admin';
  /** Whether the answer came from the hub's own machine (a `localOnly` rule asks). */
  local: boolean;
  /** Self-declared `clientInfo.name`, a label only. */
  client?: string;
}

/** An "always allow" the hub keeps and answers with. */
export interface AlwaysGrant extends GrantRule {
  id: string;
  /** The session's workspace when it was set: the grant holds for requests of sessions working there. */
  workspace: string;
  /** The session it was set in (shown; matching is by workspace, as the agent's project rule was); none once that session was deleted. */
  sessionId?: string;
  by: GrantAuthor;
  /** Epoch ms. */
  at: number;
}

const updatesSchema = z
  .array(
    z.looseObject({
      type: z.literal('addRules'),
      behavior: z.literal('allow'),
      rules: z.array(z.looseObject({ toolName: z.string().min(1), ruleContent: z.string().optional() })).min(1),
    }),
  )
  .min(1);

/** The allow-always option of a permission request, if the agent offered one. */
export function alwaysOption(acp: AcpInteraction): ZCodePermissionOption | undefined {
  return acp.kind === 'permission' ? acp.options.find((o) => acpOptionKind(o.kind) === 'allow_always') : undefined;
}

/**
 * The rules an allow-always option asks to persist, or undefined when it asks for something the
 * hub cannot keep as a grant (another update type, a deny rule): that answer then goes to the
 * agent as it is.
 */
export function offeredRules(option: ZCodePermissionOption): GrantRule[] | undefined {
  const parsed = updatesSchema.safeParse(option.response.permissionUpdates);
  if (!parsed.success) return undefined;
  return parsed.data.flatMap((u) =>
    u.rules.map((r) => ({ toolName: r.toolName, ...(r.ruleContent === undefined ? {} : { ruleContent: r.ruleContent }) })),
  );
}

/** The allow-once answer the agent gets instead of the allow-always one: the grant stays with the hub. */
export function onceInstead(acp: AcpInteraction): { result: unknown; outcome: string } | undefined {
  if (acp.kind !== 'permission') return undefined;
  const once = acp.options.find((o) => acpOptionKind(o.kind) === 'allow_once');
  return once === undefined ? undefined : { result: once.response, outcome: once.optionId };
}

function covers(grant: AlwaysGrant, workspace: string, rule: GrantRule): boolean {
  return grant.workspace === workspace && grant.toolName === rule.toolName && grant.ruleContent === rule.ruleContent;
}

/**
 * The grant that covers a request in a session working in `workspace`, if any: every rule its
 * allow-always option names is kept for that workspace (the first rule's grant is returned).
 * `usable` leaves out grants whose author may not set "always" on this request now.
 */
export function coveringGrant(
  grants: readonly AlwaysGrant[],
  acp: AcpInteraction,
  workspace: string,
  usable: (g: AlwaysGrant) => boolean,
): AlwaysGrant | undefined {
  const option = alwaysOption(acp);
  const rules = option === undefined ? undefined : offeredRules(option);
  if (rules === undefined) return undefined;
  const found = rules.map((r) => grants.find((g) => covers(g, workspace, r) && usable(g)));
  return found.every((g) => g !== undefined) ? found[0] : undefined;
}
