/**
 * The composition root's HTTP half: every stateful part the REST routes and the security hooks
 * use, built once with everything it needs (ARCHITECTURE.md §2). `startDaemon` builds these; a
 * test that builds the app without a daemon builds them here too, so it wires what a daemon wires.
 */
import path from 'node:path';
import { DpopVerifier } from '../auth/dpop.js';
import type { HubIdentity } from '../auth/hub-id.js';
import type { Authenticator } from '../auth/identity.js';
import { WsTickets } from '../auth/ws-tickets.js';
import type { HubConfig } from '../config/schema.js';
import { ProbeJob } from '../doctor/probe-job.js';
import { probeBackend } from '../doctor/probe-run.js';
import { SecretPaths } from '../fs/secret-paths.js';
import { WorkspaceRoots } from '../fs/workspace-roots.js';
import type { HttpState } from '../http/http-state.js';
import { MACHINES_FILE, Machines } from '../http/security/machines.js';
import { PEERS_FILE, Peers } from '../http/security/peers.js';
import { PublicUrls } from '../http/security/public-urls.js';
import type { Logger } from '../logger.js';

/** The hub's secrets and its workspace roots: one of each, shared by the hub and the REST routes. */
export function workspaceParts(config: HubConfig): { secrets: SecretPaths; roots: WorkspaceRoots } {
  const secrets = new SecretPaths(config);
  return { secrets, roots: new WorkspaceRoots(config.workspaces, secrets) };
}

/** The HTTP side's state; `close` stops following token revocations. */
export function buildHttpState(p: {
  config: HubConfig;
  logger: Logger;
  identity: HubIdentity;
  /** A revoked or expired device's machines leave with it (and their origins leave connect-src). */
  authenticator: Authenticator;
  workspace: { secrets: SecretPaths; roots: WorkspaceRoots };
}): HttpState & { close(): void } {
  const { config, logger } = p;
  const l = config.limits;
  const warn = (m: string) => logger.warn(m);
  const publicUrls = new PublicUrls(path.join(config.stateDir, 'public-urls.json'), l.publicUrlsMax, warn);
  const peers = new Peers(path.join(config.stateDir, PEERS_FILE), l.peersMax, [...config.peers, ...config.allowOrigins], warn);
  const machines = new Machines(path.join(config.stateDir, MACHINES_FILE), l.machinesMax, warn, Date.now, l.machineEntriesMax);
  // The probe runs a child of its own; the daemon's --record-wire file is the daemon's, the probe does not write into it.
  const { recordWire: _ownRecording, ...probeConfig } = config;
  const probeLogger = logger.child({ component: 'doctor-probe' });
  const probe = new ProbeJob((o) => probeBackend({ config: probeConfig, logger: probeLogger, prompt: o.prompt, signal: o.signal }));
  const unsubscribe = p.authenticator.onRevoked?.((tokenId) => machines.removeToken(tokenId));
  return {
    identity: p.identity,
    publicUrls,
    peers,
    machines,
    dpop: new DpopVerifier({ maxAgeMs: l.dpopProofMaxAgeMs, replayCacheMax: l.dpopReplayCacheMax }),
    tickets: new WsTickets({ ttlMs: l.wsTicketTtlMs, max: l.wsTicketsMax }),
    probe,
    ...p.workspace,
    close: () => unsubscribe?.(),
  };
}
