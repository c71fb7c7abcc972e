/** The shapes around BackendLink: what it spawns, how it is configured, what it reports. */
import type { HubConfig } from '../config/schema.js';
import type { Logger } from '../logger.js';
import type { CliDetection, CliRuntime, CliVersion } from '../ports/backend-port.js';
import type { ProcessInspector } from './pidfile.js';
import type { InProcessServer } from './in-process-transport.js';
import type { LineRing } from './stderr-ring.js';
import type { Transport } from './transport.js';
import type { TransportTap } from './transport-tap.js';

/** What to spawn (src/backend/spawn-plan.ts). */
export interface SpawnPlan {
  kind: 'zcode' | 'sim';
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** The CLI entry shown in the status (zcode.cjs, or the simulator). */
  entry: string;
  /** The simulator's own flags (kind `sim`), what an in-process simulator is started with. */
  simArgs?: string[];
}

/** A transport plus the pid it runs as (status, pidfile) and its counters (diagnostics). */
export type LinkTransport = Transport & { readonly pid?: number; readonly queuedBytes?: number; readonly junkLines?: number };

/** Counters of the current child, for /api/status, doctor and leak tests. */
export interface BackendDiagnostics {
  /** Forward requests waiting for an answer. */
  pendingRequests: number;
  /** Interaction requests waiting for the domain's answer. */
  pendingInteractions: number;
  /** Bytes queued for the child's stdin. */
  stdinQueuedBytes: number;
  /** stdout lines skipped as junk by this child. */
  junkLines: number;
}

export interface BackendLinkOptions {
  /** Prepares a spawn (may write the built-in provider file); called before every spawn, so a restart picks up fixes. */
  plan: () => SpawnPlan | Promise<SpawnPlan>;
  /** The kind reported before the plan exists. */
  kind: 'zcode' | 'sim';
  limits: HubConfig['limits'];
  askUserQuestionAutoResolution: boolean;
  logger: Logger;
  /** `<stateDir>/backend.pid`; no pidfile when omitted. */
  pidfile?: string;
  /**
   * Runs a `sim` plan inside this process instead of as a child (in-process-transport.ts): the
   * simulator's `startSimulatorInProcess`, passed in by whoever builds the link.
   */
  inProcessServer?: InProcessServer;
  /** Replaces the child process (unit tests pair the link with an in-memory server). */
  transportFactory?: (plan: SpawnPlan, stderrRing: LineRing, logger: Logger) => LinkTransport;
  processInspector?: ProcessInspector;
  /** The real CLI's version (cli-version.ts), reported in the status. */
  cliVersion?: CliVersion;
  /** How the CLI was chosen at start (cli-candidates.ts), reported in the status for doctor. */
  cliDetection?: CliDetection;
  /** The Node.js that runs the CLI and why (node-runtime.ts), reported in the status for doctor. */
  cliRuntime?: CliRuntime;
  /** Taps every child's transport (`--record-wire`, wire-recorder.ts; the doctor probe); closed with the link. */
  wireRecorder?: TransportTap;
  random?: () => number;
  now?: () => number;
}
