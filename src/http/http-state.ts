/**
 * The stateful parts the HTTP side reads and writes, built once by the composition root
 * (`daemon/http-parts.ts`) and handed to `buildApp`, which only wires routes to them.
 */
import type { DpopVerifier } from '../auth/dpop.js';
import type { HubIdentity } from '../auth/hub-id.js';
import type { WsTickets } from '../auth/ws-tickets.js';
import type { ProbeJob } from '../doctor/probe-job.js';
import type { SecretPaths } from '../fs/secret-paths.js';
import type { WorkspaceRoots } from '../fs/workspace-roots.js';
import type { Machines } from './security/machines.js';
import type { Peers } from './security/peers.js';
import type { PublicUrls } from './security/public-urls.js';

export interface HttpState {
  /** This hub's id and name (`/api/me`, `/api/health`, the cookie name). */
  readonly identity: HubIdentity;
  /** Public addresses an admin adds at run time (tunnels); read by the Host/Origin checks and pairing. */
  readonly publicUrls: PublicUrls;
  /** The app origins this hub accepts (Origin check, CORS). */
  readonly peers: Peers;
  /** The hubs this hub's own app talks to (CSP `connect-src`). */
  readonly machines: Machines;
  /** DPoP proofs of key-bound tokens, with their replay cache. */
  readonly dpop: DpopVerifier;
  /** Single-use tickets for the `/acp` upgrade. */
  readonly tickets: WsTickets;
  /** Where sessions and REST calls may work (the hub checks the same instance). */
  readonly roots: WorkspaceRoots;
  /** The hub's own files, never served. */
  readonly secrets: SecretPaths;
  /** `doctor --probe` from the admin API: one backend child of its own at a time. */
  readonly probe: ProbeJob;
}
