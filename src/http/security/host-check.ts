import type { FastifyInstance } from 'fastify';
import { HubError } from '../../errors.js';
import { allowedHostnames, parseHostHeader } from './allowed-hosts.js';
import type { PublicUrls } from './public-urls.js';

/**
 * First hook of every route and of the WebSocket upgrade: a request whose `Host` is not one of
 * ours is refused 403 (DNS rebinding: a foreign page re-pointing its own name at 127.0.0.1).
 * Addresses an admin added at run time (public-urls.ts) count too. The raw `Host` header (HTTP/2: `:authority`) is used, never `X-Forwarded-Host`, which any client can send.
 */
export function installHostCheck(app: FastifyInstance, config: { host: string; publicUrl?: string | undefined }, added?: PublicUrls): void {
  const allowed = allowedHostnames(config);
  app.addHook('onRequest', async (req) => {
    // HTTP/2 names the host in `:authority` (copied to Host when absent, protocol-switch.ts); a Host that differs is refused.
    const authority = req.headers[':authority'];
    if (typeof authority === 'string' && authority.toLowerCase() !== (req.headers.host ?? '').toLowerCase())
      throw new HubError('HUB_ERR_HOST');
    const host = parseHostHeader(req.headers.host);
    if (!host || !(allowed.has(host.hostname) || added?.hasHost(host.hostname))) throw new HubError('HUB_ERR_HOST');
  });
}
