import { scopeAllows } from '../auth/identity.js';
import {
  PROTOCOL_VERSION,
  type InitializeResponse,
  type ListSessionsResponse,
  type LoadSessionResponse,
  type NewSessionResponse,
  type PromptResponse,
} from '@agentclientprotocol/sdk';
import type { z } from 'zod';
import { HubError } from '../errors.js';
import { describeIssues, paramIssues } from './param-issues.js';
import {
  attachMeta,
  authenticateParams,
  deleteSessionParams,
  cancelParams,
  closeSessionParams,
  initializeParams,
  listSessionsMeta,
  listSessionsParams,
  loadSessionParams,
  newSessionMeta,
  newSessionParams,
  promptParams,
  resumeSessionParams,
  setConfigOptionMeta,
  setConfigOptionParams,
  setModeParams,
  zcodeMeta,
} from './acp-schemas.js';
import { attachCapability, draftAttachCapability, resolveRole } from './attach-methods.js';
import type { ClientConnection } from './client-connection.js';
import { announcedSessionUpdates, draftKindsAnnounced, updateKindsFor } from './update-kinds.js';
import type { ReplayMeta, SessionOpened } from './hub-api.js';
import { method, ReplyThen, type DispatchContext, type MethodSpec } from './method-spec.js';

/** `_meta.zcode` capabilities advertised at `initialize` (docs/CLIENT-PROTOCOL.md). */
const ZCODE_CAPABILITIES = {
  loadEarlier: true,
  interactions: true,
  fork: true,
  compact: true,
  goal: true,
  backgroundTasks: true,
  replay: { afterSeq: true, limit: true },
  /** `clientCapabilities._meta.zcode.sessionUpdates` is honoured (update-kinds.ts). */
  sessionUpdates: true,
  /** Requests sent behind `initialize`, before its answer, are served after it in order (dispatch.ts). */
  pipelining: true,
} as const;

const CONFIG_IDS = ['model', 'mode', 'thought_level'] as const;
type ConfigId = (typeof CONFIG_IDS)[number];

function badParams(message: string, path: string): HubError {
  return new HubError('HUB_ERR_BAD_REQUEST', message, { issues: [{ path, message }] });
}

/** A `-32602`-shaped failure for a `_meta.zcode` block that does not parse: each field named by its path, as for the params. */
function metaOrThrow<T>(result: z.ZodSafeParseResult<T>): T {
  if (result.success) return result.data;
  const issues = paramIssues(result.error).map((i) => ({ ...i, path: ['_meta.zcode', i.path].filter(Boolean).join('.') }));
  throw new HubError('HUB_ERR_BAD_REQUEST', describeIssues(issues), { issues });
}

/** The ACP shape of an opened session plus its `_meta.zcode` position. */
function openedResult(opened: SessionOpened, extra: Record<string, unknown> = {}): NewSessionResponse {
  return {
    sessionId: opened.sessionId,
    ...(opened.modes ? { modes: opened.modes } : {}),
    ...(opened.configOptions ? { configOptions: opened.configOptions } : {}),
    _meta: { zcode: { seq: opened.seq, epoch: opened.epoch, ...extra } },
  };
}

/** `session/load` / `session/resume`: the replay, then the result, then the pending interactions. */
async function attach(
  ctx: DispatchContext,
  conn: ClientConnection,
  p: { sessionId: string; _meta?: { [k: string]: unknown } | null },
  history: boolean,
): Promise<ReplyThen> {
  const { role, ...meta } = metaOrThrow(zcodeMeta(attachMeta, p));
  const opened = await ctx.hub.loadSession(conn, p.sessionId, {
    ...meta,
    history,
    ...(role ? { role: resolveRole(conn.identity.scope, role) } : {}),
  });
  const { sessionId: _sid, ...result } = openedResult(opened, { replayMeta: opened.replayMeta });
  const after = (): void => ctx.hub.deliverPending(conn, p.sessionId);
  if (conn.profile !== 'legacy') return new ReplyThen(result satisfies LoadSessionResponse, after);
  // zcode-acp-remote reads `replayMeta` at the top level of the result, with `turnActive` telling
  // it to restore its running UI (ARCHITECTURE.md §5.1).
  const turnActive = (ctx.hub.getSession(p.sessionId)?.state ?? 'idle') !== 'idle';
  const legacy: LoadSessionResponse & { replayMeta: ReplayMeta & { turnActive: boolean } } = {
    ...result,
    replayMeta: { ...opened.replayMeta, turnActive },
  };
  return new ReplyThen(legacy, after);
}

/** The standard ACP methods the hub serves (ARCHITECTURE.md §5), by wire name. */
export const ACP_METHODS: Record<string, MethodSpec> = {
  initialize: method(initializeParams, 'view', (ctx, conn, p): InitializeResponse => {
    conn.elicitationForm = Boolean(p.clientCapabilities?.elicitation?.form);
    const clientName = p.clientInfo?.name?.trim();
    if (clientName) conn.clientName = clientName.slice(0, 128);
    // The update kinds it can parse (update-kinds.ts). zcode-acp-remote's profile keeps what it
    // always got: every v1 kind, no replay_complete.
    const sessionUpdates = conn.profile === 'acp' ? announcedSessionUpdates(p.clientCapabilities) : undefined;
    const announced =
      conn.profile === 'acp'
        ? {
            protocolVersion: p.protocolVersion,
            hasClientInfo: p.clientInfo !== undefined && p.clientInfo !== null,
            ...(sessionUpdates === undefined ? {} : { sessionUpdates }),
          }
        : { protocolVersion: 1, hasClientInfo: true };
    conn.updateKinds = updateKindsFor(announced);
    conn.draftUpdates = draftKindsAnnounced(announced);
    const status = ctx.hub.status();
    const result: InitializeResponse = {
      // ACP: the agent answers with the version it speaks; a client that cannot speak it disconnects.
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
        sessionCapabilities: {
          list: {},
          resume: {},
          close: {},
          delete: {},
          // The multi-client draft's place for it (not in ACP's schema yet), and the hub's extension place (attach-methods.ts).
          ...draftAttachCapability(conn.identity.scope),
          _meta: { attach: attachCapability(conn.identity.scope) },
        },
        // zcode-acp-remote shows its Files button only on `fs: true` (its ADR 0005).
        _meta: { zcode: conn.profile === 'legacy' ? { ...ZCODE_CAPABILITIES, fs: true } : ZCODE_CAPABILITIES },
      },
      agentInfo: { name: 'zcode-hub', title: 'zcode-hub', version: ctx.version },
      authMethods: [],
      // The RFD's connection id, also in the body (zcode-acp-remote's legacy profile never had it).
      ...(conn.profile === 'acp' ? { connectionId: conn.connectionId } : {}),
      _meta: {
        zcode: {
          hubVersion: ctx.version,
          // Which machine this is: the app dedupes machines by hubId, never by URL.
          ...(ctx.hubIdentity ? { hub: { hubId: ctx.hubIdentity.hubId, name: ctx.hubIdentity.name, version: ctx.version } } : {}),
          epoch: status.epoch,
          clientId: conn.clientId,
          identity: {
            name: conn.identity.name,
            scope: conn.identity.scope,
            person: conn.identity.person,
            tokenId: conn.identity.tokenId,
          },
          backend: { state: status.backend.state },
          ...(ctx.defaultWorkspace ? { defaultWorkspace: ctx.defaultWorkspace } : {}),
          // Where session/new may open sessions; only for clients that may open them.
          ...(ctx.workspaces && scopeAllows(conn.identity.scope, 'operate') ? { workspaces: [...ctx.workspaces] } : {}),
        },
      },
    };
    return result;
  }),

  'session/new': method(newSessionParams, 'operate', async (ctx, conn, p) => {
    const meta = metaOrThrow(zcodeMeta(newSessionMeta, p));
    const opened = await ctx.hub.newSession(conn, { cwd: p.cwd, ...meta });
    // Once the client knows the session: the agent's slash commands (domain/sessions/command-notices.ts).
    return new ReplyThen(openedResult(opened), () => ctx.hub.deliverPending(conn, opened.sessionId));
  }),

  'session/list': method(listSessionsParams, 'view', async (ctx, _conn, p): Promise<ListSessionsResponse> => {
    const meta = metaOrThrow(zcodeMeta(listSessionsMeta, p));
    const rows = await ctx.hub.listSessions({
      ...(p.cwd ? { cwd: p.cwd } : {}),
      ...(meta.includeArchived ? { includeArchived: true } : {}),
    });
    return {
      sessions: rows.map((s) => ({
        sessionId: s.sessionId,
        cwd: s.cwd,
        ...(s.title !== undefined ? { title: s.title } : {}),
        ...(s.updatedAt !== undefined ? { updatedAt: new Date(s.updatedAt).toISOString() } : {}),
        // ACP's SessionInfo has title and updatedAt (the last activity); the rest is ours.
        _meta: {
          zcode: {
            state: s.state,
            model: s.model ?? null,
            clients: s.clients,
            pendingInteractions: s.pendingInteractions,
            runningTasks: s.runningTasks,
            archived: s.archived,
            ...(s.preview ? { preview: s.preview } : {}),
          },
        },
      })),
    };
  }),

  'session/load': method(loadSessionParams, 'view', (ctx, conn, p) => attach(ctx, conn, p, true)),
  'session/resume': method(resumeSessionParams, 'view', (ctx, conn, p) => attach(ctx, conn, p, false)),

  // Withdrawable with `$/cancel_request` while it waits in the queue (withdrawable-requests.ts).
  'session/prompt': method(
    promptParams,
    'operate',
    async (ctx, conn, p, _method, withdrawn): Promise<PromptResponse> => {
      const r = await ctx.hub.prompt(conn, p.sessionId, p.prompt, withdrawn);
      const zcode: Record<string, unknown> = {};
      if (r.turnId !== undefined) zcode.turnId = r.turnId;
      if (r.usage !== undefined) zcode.usage = r.usage;
      if (r.queuedBehind !== undefined) zcode.queuedBehind = r.queuedBehind;
      return { stopReason: r.stopReason, ...(Object.keys(zcode).length ? { _meta: { zcode } } : {}) };
    },
    { withdrawable: true },
  ),

  // A notification in ACP; also accepted as a request (then answered `{}`).
  'session/cancel': method(cancelParams, 'operate', async (ctx, conn, p) => {
    await ctx.hub.cancel(conn, p.sessionId);
    return {};
  }),

  'session/set_mode': method(setModeParams, 'operate', async (ctx, conn, p) => {
    await ctx.hub.setMode(conn, p.sessionId, p.modeId);
    return {};
  }),

  'session/set_config_option': method(setConfigOptionParams, 'operate', async (ctx, conn, p) => {
    if (!(CONFIG_IDS as readonly string[]).includes(p.configId))
      throw badParams(`configId must be one of ${CONFIG_IDS.join(', ')}`, 'configId');
    const value = (p as { value?: unknown }).value;
    if (typeof value !== 'string') throw badParams('value must be a value id (string)', 'value');
    const meta = metaOrThrow(zcodeMeta(setConfigOptionMeta, p));
    return { configOptions: await ctx.hub.setConfigOption(conn, p.sessionId, p.configId as ConfigId, value, meta.thoughtLevel) };
  }),

  'session/close': method(closeSessionParams, 'view', (ctx, conn, p) => {
    ctx.hub.detach(conn, p.sessionId);
    return {};
  }),

  'session/delete': method(deleteSessionParams, 'operate', async (ctx, conn, p) => {
    await ctx.hub.deleteSession(p.sessionId, {
      identity: conn.identity,
      clientId: conn.clientId,
      ...(conn.clientName === undefined ? {} : { client: conn.clientName }),
    });
    return {};
  }),

  // The hub advertises no `authMethods`: the credential travels with the connection (bearer,
  // cookie), so any method id a client names is unknown. Answered rather than left -32601.
  authenticate: method(authenticateParams, 'view', (_ctx, _conn, p) => {
    throw badParams(
      `Unknown authentication method '${String(p.methodId).slice(0, 64)}': this agent advertises none; the connection's token already authenticates it`,
      'methodId',
    );
  }),
};
