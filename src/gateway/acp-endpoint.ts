import type { FastifyInstance } from 'fastify';
import { gatewayPlugin } from './acp-route.js';
import { GatewayServer, type GatewayServerDeps } from './gateway-server.js';

/** `/acp` as the composition root hands it to buildApp: src/http mounts it without importing the gateway. */
export interface AcpEndpoint {
  /** Registers the `/acp` routes on the app (after its security and auth hooks). */
  mount(app: FastifyInstance): Promise<void>;
  /** Live connections, for /api/status and the doctor. */
  connectionCount(): number;
  /** Closes the connections opened from an app origin that stopped being a peer; returns how many. */
  closeOrigin(origin: string): number;
}

/** The gateway's `/acp` endpoint, ready to be mounted by buildApp. */
export function acpEndpoint(deps: GatewayServerDeps): AcpEndpoint {
  const gateway = new GatewayServer(deps);
  return {
    mount: async (app) => {
      await app.register(gatewayPlugin, { gateway, config: deps.config });
    },
    connectionCount: () => gateway.size,
    closeOrigin: (origin) => gateway.closeOrigin(origin, 'origin no longer a peer'),
  };
}
