import net from 'node:net';
import type { HubConfig } from '../config/schema.js';
import { ensureAdminToken } from './admin-token.js';
import { ensureJwtSecret } from './jwt-secret.js';

/** Refusal to start: the daemon would be reachable from the network without a usable secret. */
export class BindSafetyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BindSafetyError';
  }
}

/** True for names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  if (net.isIPv6(h)) return h === '::1' || /^::ffff:127\./.test(h);
  return false;
}

/**
 * Start-up exposure check (ARCHITECTURE.md §7, SEC-01). There is no way to disable auth; on a
 * non-loopback host the admin token and the JWT key must exist or be creatable, else this
 * throws BindSafetyError. Returns warnings to log (exposed without TLS or an https tunnel).
 */
export function checkBindSafety(config: Pick<HubConfig, 'host' | 'stateDir' | 'publicUrl' | 'tlsCert' | 'tlsKey' | 'adminTokenFile'>): {
  warnings: string[];
} {
  if (isLoopbackHost(config.host)) return { warnings: [] };
  try {
    ensureAdminToken(config.stateDir, config.adminTokenFile);
    ensureJwtSecret(config.stateDir);
  } catch (err) {
    throw new BindSafetyError(
      `refusing to listen on ${config.host}: no admin token or signing key could be created in ${config.stateDir} (${(err as Error).message}). ` +
        'Fix the state directory, or bind to 127.0.0.1 and expose the hub through a tunnel with --public-url.',
    );
  }
  const tls = Boolean(config.tlsCert && config.tlsKey);
  if (tls) return { warnings: [] };
  // An https --public-url protects the traffic that goes through the tunnel, not the plain HTTP
  // this bind serves on every interface.
  if (config.publicUrl?.startsWith('https://')) {
    return {
      warnings: [
        `listening on ${config.host} without TLS: plain HTTP is served on that address, although --public-url is https (${config.publicUrl}); anyone on the network can bypass the tunnel. ` +
          'A tunnel needs only --host 127.0.0.1; otherwise give --tls-cert/--tls-key.',
      ],
    };
  }
  return {
    warnings: [
      `listening on ${config.host} without TLS: tokens and prompts cross the network in clear text. ` +
        'Prefer --host 127.0.0.1 with a tunnel (--public-url https://…), or give --tls-cert/--tls-key.',
    ],
  };
}
