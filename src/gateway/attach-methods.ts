/**
 * The multi-client draft's vocabulary (ACP RFD "Multi-Client Session Attach", PR #533), accepted
 * as it stands today under extension names: `_session/attach` and `_session/detach` are the
 * draft's `session/attach` / `session/detach` with ACP's `_` prefix, so when the draft lands the
 * switch is a rename. Roles map onto scopes: `controller` = `operate` (prompt, cancel, answer),
 * `observer` = `view` (watch; interactions arrive as `_zcode/interaction_opened`). History
 * policies: `full` = `session/load`, `pending_only` = attach without history but with the
 * pending interactions, `none` = only what happens from now on, `after_message` = the history
 * after the message `messageId` names (ACP's chunk `messageId`, the agent's message ids), then the
 * running turn and the pending interactions; an id the replayable history does not hold is
 * refused (HUB_ERR_NOT_FOUND) rather than answered with a full replay the client would show twice.
 *
 * The draft's own names are served as well, so a client written to the draft works unchanged:
 * `session/attach` / `session/detach` are the same methods, and a client that calls
 * `session/attach` has opted into the draft's update kinds on this connection
 * (src/gateway/update-kinds.ts, src/domain/delivery/draft-updates.ts).
 */
import { z } from 'zod';
import { scopeAllows } from '../auth/identity.js';
import { HubError } from '../errors.js';
import { sessionIdParam } from '../zcode-ext/requests.js';
import { method, ReplyThen, type MethodSpec } from './method-spec.js';
import { ALL_DRAFT_KINDS, withDraftKinds } from './update-kinds.js';

export const ATTACH_ROLES = ['controller', 'observer'] as const;
export const HISTORY_POLICIES = ['full', 'pending_only', 'none', 'after_message'] as const;
export type AttachRole = (typeof ATTACH_ROLES)[number];
export type HistoryPolicy = (typeof HISTORY_POLICIES)[number];

const sessionId = sessionIdParam;

export const attachParams = z.object({
  sessionId,
  role: z.enum(ATTACH_ROLES).optional(),
  historyPolicy: z.enum(HISTORY_POLICIES).default('full'),
  /** With `after_message` (required there): the last message the client has; only what follows it is replayed. */
  messageId: z.string().min(1).max(256).optional(),
  clientInfo: z.looseObject({ name: z.string().max(128).optional(), version: z.string().max(64).optional() }).optional(),
  _meta: z.record(z.string(), z.unknown()).nullish(),
});
export const detachParams = z.object({ sessionId, _meta: z.record(z.string(), z.unknown()).nullish() });

/** `sessionCapabilities._meta.attach` for a token of this scope (the draft's `sessionCapabilities.attach`). */
export function attachCapability(scope: Parameters<typeof scopeAllows>[0]): { roles: AttachRole[]; historyPolicies: HistoryPolicy[] } {
  return { roles: scopeAllows(scope, 'operate') ? ['controller', 'observer'] : ['observer'], historyPolicies: [...HISTORY_POLICIES] };
}

/** `sessionCapabilities.attach`, where the draft puts it (typed loosely: ACP's schema has no such field yet). */
export function draftAttachCapability(scope: Parameters<typeof scopeAllows>[0]): object {
  return { attach: attachCapability(scope) };
}

/** The role a client gets: what it asked for, else what its scope allows; `controller` needs `operate`. */
export function resolveRole(scope: Parameters<typeof scopeAllows>[0], asked: AttachRole | undefined): AttachRole {
  const canControl = scopeAllows(scope, 'operate');
  if (asked === 'controller' && !canControl) throw new HubError('HUB_ERR_FORBIDDEN', "Attaching as controller needs the 'operate' scope");
  return asked ?? (canControl ? 'controller' : 'observer');
}

const attach = method(attachParams, 'view', async (ctx, conn, p) => {
  const role = resolveRole(conn.identity.scope, p.role);
  const history = p.historyPolicy === 'full' || p.historyPolicy === 'after_message';
  const after = p.historyPolicy === 'after_message' ? p.messageId : undefined;
  if (p.historyPolicy === 'after_message' && after === undefined)
    throw new HubError('HUB_ERR_BAD_REQUEST', 'historyPolicy "after_message" needs the messageId of the last message you have');
  const opened = await ctx.hub.loadSession(conn, p.sessionId, { history, role, ...(after === undefined ? {} : { afterMessageId: after }) });
  const result = {
    sessionId: opened.sessionId,
    role,
    historyPolicy: p.historyPolicy,
    // Verified authors (docs/CLIENT-PROTOCOL.md "Authors"): name, person, device, tokenId, client?.
    connectedClients: opened.clients().map((c) => ({
      clientId: c.clientId,
      name: c.name,
      ...(c.person === undefined ? {} : { person: c.person }),
      ...(c.device === undefined ? {} : { device: c.device }),
      ...(c.tokenId === undefined ? {} : { tokenId: c.tokenId }),
      ...(c.client === undefined ? {} : { client: c.client }),
      role: c.role,
    })),
    modes: opened.modes,
    configOptions: opened.configOptions,
    _meta: { zcode: { seq: opened.seq, epoch: opened.epoch, replayMeta: opened.replayMeta } },
  };
  // `none`: only what happens from now on — the pending interactions are not re-sent.
  return new ReplyThen(result, p.historyPolicy === 'none' ? () => undefined : () => ctx.hub.deliverPending(conn, p.sessionId));
});
const detach = method(detachParams, 'view', (ctx, conn, p) => {
  ctx.hub.detach(conn, p.sessionId);
  return { sessionId: p.sessionId, status: 'detached' };
});

export const ATTACH_METHODS: Record<string, MethodSpec> = {
  '_session/attach': attach,
  '_session/detach': detach,
  // The draft's names: the same methods; attaching by the draft's name opts into its update kinds.
  'session/attach': {
    ...attach,
    handle: (ctx, conn, p, name) => {
      conn.updateKinds = withDraftKinds(conn.updateKinds);
      conn.draftUpdates = ALL_DRAFT_KINDS;
      return attach.handle(ctx, conn, p, name);
    },
  },
  'session/detach': detach,
};
