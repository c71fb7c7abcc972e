import type { FastifyInstance } from 'fastify';
import type { AuditSink } from '../auth/audit-log.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Records every successful write of the routes in this (encapsulated) plugin in the audit log
 * (ARCHITECTURE.md §7: every settings change with the device that did it). Route params only —
 * never bodies, which may hold provider keys.
 */
export function auditWrites(app: FastifyInstance, audit: AuditSink | undefined, action: (method: string, url: string) => string): void {
  if (!audit) return;
  app.addHook('onResponse', async (req, reply) => {
    if (!WRITES.has(req.method) || reply.statusCode >= 300 || !req.identity) return;
    const url = req.routeOptions.url ?? '';
    const params = (req.params ?? {}) as Record<string, unknown>;
    audit({
      identity: req.identity,
      action: action(req.method, url),
      ...(typeof params.sessionId === 'string' ? { sessionId: params.sessionId } : {}),
      detail: { method: req.method, route: url, params },
    });
  });
}
