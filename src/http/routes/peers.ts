import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditLog } from '../../auth/audit-log.js';
import type { Identity } from '../../auth/identity.js';
import { HubError } from '../../errors.js';
import { hubIdSchema, machineSchema, type Machines } from '../security/machines.js';
import { normalisePeerOrigin, peerEntrySchema, type Peers } from '../security/peers.js';
import { deviceNameSchema } from './tokens.js';
import type { ZodApp } from './zod-app.js';

export interface PeerRouteOptions {
  peers: Peers;
  machines: Machines;
  audit?: AuditLog | undefined;
  /** Called after a peer is removed: its open connections close at once; returns how many. */
  onPeerRemoved?: (origin: string) => number | undefined;
}

const peersView = z.object({ peers: z.array(peerEntrySchema) });

/**
 * Admin: the app origins this hub accepts (`/api/peers`), applied on the next
 * request. Operate: the machines the home app talks to (`/api/machines`), which widen this
 * hub's CSP `connect-src`; they hold no credentials.
 */
export const peerRoutes: FastifyPluginAsync<PeerRouteOptions> = async (app, opts) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  originRoutes(r, opts);
  machineRoutes(r, opts);
};

/** The app origins this hub accepts: list, add, remove (its open connections close). */
function originRoutes(r: ZodApp, opts: PeerRouteOptions): void {
  const { peers } = opts;
  r.get(
    '/api/peers',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'App origins this hub accepts (CORS, the Origin check, cross-origin pairing)',
        tags: ['peers'],
        response: { 200: peersView },
      },
    },
    async () => ({ peers: peers.list() }),
  );

  r.post(
    '/api/peers',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Accept another app origin (no restart)',
        tags: ['peers'],
        body: z.object({ origin: z.string().min(1).max(2048), via: z.enum(['api', 'cli', 'pair']).default('api') }).strict(),
        response: { 201: peersView.extend({ peer: peerEntrySchema, added: z.boolean() }) },
      },
    },
    async (req, reply) => {
      const { entry, added } = peers.add(req.body.origin, req.body.via);
      if (added && req.identity)
        opts.audit?.record({ identity: req.identity, action: 'peer.add', detail: { origin: entry.origin, via: entry.via } });
      reply.code(201);
      return { peer: entry, added, peers: peers.list() };
    },
  );

  r.delete(
    '/api/peers/:origin',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Stop accepting an app origin (give it URL-encoded); its next request is refused',
        tags: ['peers'],
        params: z.object({ origin: z.string().min(1).max(2048) }),
        response: { 200: peersView },
      },
    },
    async (req) => {
      const outcome = peers.remove(req.params.origin);
      if (outcome === 'missing') throw new HubError('HUB_ERR_NOT_FOUND', 'Not a peer');
      if (outcome === 'configured')
        throw new HubError('HUB_ERR_CONFLICT', 'This peer comes from --peer/--allow-origin; restart the hub without it');
      // The audit entry says how many open connections (WebSockets, Streamable HTTP) the removal closed.
      const closedConnections = opts.onPeerRemoved?.(normalisePeerOrigin(req.params.origin)) ?? 0;
      if (req.identity)
        opts.audit?.record({ identity: req.identity, action: 'peer.remove', detail: { origin: req.params.origin, closedConnections } });
      return { peers: peers.list() };
    },
  );
}

/** The machines the calling device's app talks to: list, record, forget. */
function machineRoutes(r: ZodApp, opts: PeerRouteOptions): void {
  const { machines } = opts;
  r.get(
    '/api/machines',
    {
      config: { scope: 'view' },
      schema: {
        summary: "The machines this device's app talks to (no credentials; each device has its own list)",
        tags: ['peers'],
        response: { 200: z.object({ machines: z.array(machineSchema) }) },
      },
    },
    async (req) => ({ machines: machines.list(owner(req.identity)) }),
  );

  r.put(
    '/api/machines/:hubId',
    {
      config: { scope: 'operate' },
      schema: {
        summary: "Record a machine the app talks to; this hub's CSP connect-src then allows its origin",
        tags: ['peers'],
        params: z.object({ hubId: hubIdSchema }),
        body: z.object({ url: z.string().min(1).max(2048), name: deviceNameSchema }).strict(),
        response: { 200: z.object({ machine: machineSchema }), 201: z.object({ machine: machineSchema }) },
      },
    },
    async (req, reply) => {
      const { machine, created } = machines.put(owner(req.identity), req.params.hubId, req.body);
      if (req.identity)
        opts.audit?.record({
          identity: req.identity,
          action: 'machine.put',
          detail: { hubId: machine.hubId, url: machine.url, name: machine.name },
        });
      reply.code(created ? 201 : 200);
      return { machine };
    },
  );

  r.delete(
    '/api/machines/:hubId',
    {
      config: { scope: 'operate' },
      schema: {
        summary: "Forget one of this device's machines (its origin leaves connect-src unless another device still has it)",
        tags: ['peers'],
        params: z.object({ hubId: hubIdSchema }),
        response: { 200: z.object({ machines: z.array(machineSchema) }) },
      },
    },
    async (req) => {
      const device = owner(req.identity);
      if (!machines.remove(device, req.params.hubId)) throw new HubError('HUB_ERR_NOT_FOUND', 'No such machine');
      if (req.identity) opts.audit?.record({ identity: req.identity, action: 'machine.remove', detail: { hubId: req.params.hubId } });
      return { machines: machines.list(device) };
    },
  );
}

/** Whose machine list a request reads and writes: the calling device's token. */
function owner(identity: Identity | undefined): string {
  if (!identity) throw new HubError('HUB_ERR_UNAUTHENTICATED', 'Sign in first');
  return identity.tokenId;
}
