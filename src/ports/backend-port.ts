/**
 * What the domain, the settings and the routes need from the app-server link (implemented in
 * src/backend, wired by the composition root). It lives in src/ports, below both sides, so the
 * backend does not import the domain and the domain never imports src/backend — it stays free
 * of node:child_process (ARCHITECTURE.md §2, test/meta/layers.ts).
 */

/** Lifecycle of the child as the hub reports it (`_zcode/backend_state`, /api/health). */
export type BackendState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';

export interface BackendStatus {
  state: BackendState;
  /** `zcode` for a real CLI, `sim` for the bundled simulator. */
  kind: 'zcode' | 'sim';
  pid?: number;
  /** Increments on every (re)spawn; interactions of an older epoch are `lost`. */
  epoch: number;
  /** Crashes since the daemon started. */
  restarts: number;
  /** Milliseconds until the next respawn attempt while `restarting`. */
  nextRetryMs?: number;
  /**
   * The last child that went away; `epoch` is its epoch (absent when no child was spawned).
   * Reported with the status of its exit, so the domain answers that child's work at once,
   * ready or not, whatever the restart backoff does next.
   */
  lastExit?: { code: number | null; signal: string | null; at: number; reason?: string; epoch?: number };
  /** The CLI entry that was spawned (zcode.cjs, or the simulator). */
  command?: string;
  /** The real CLI's version and whether the hub was verified against it (absent for the simulator). */
  cliVersion?: CliVersion;
  /** How the CLI was chosen at start (absent with `--backend sim`): src/backend/cli-candidates.ts. */
  cliDetection?: CliDetection;
  /** The Node.js that runs the CLI and why it was chosen (absent for the simulator and a single executable). */
  cliRuntime?: CliRuntime;
}

/** The child's runtime as doctor reports it (src/backend/node-runtime.ts). */
export interface CliRuntime {
  path: string;
  version: string;
  source: 'flag' | 'shipped' | 'hub' | 'desktop-electron';
  /** One sentence: why this one. */
  reason: string;
}

/** Where a ZCode CLI candidate comes from, in the order they are looked at (docs/APP-SERVER.md §17). */
export type CliSource = 'explicit' | 'path' | 'npm-global' | 'npx-cache' | 'desktop';

/** `node`: `node <entry> app-server`; `direct`: `<entry> app-server` (a single executable). */
export type CliLaunch = 'node' | 'direct';

export interface CliCandidate {
  source: CliSource;
  /** Where the hub looked. */
  path: string;
  status: 'found' | 'missing' | 'not-runnable';
  /** What it is, or why it cannot be used. */
  note: string;
  /** When found: the file the hub runs, and how. */
  entry?: string;
  launch?: CliLaunch;
}

export interface CliDetection {
  picked?: CliCandidate;
  /** One sentence: why this one (or why none). */
  reason: string;
  /** Every candidate looked at, in order. */
  candidates: CliCandidate[];
}

/** A ZCode CLI version as read at start (src/backend/cli-version.ts). */
export interface CliVersion {
  /** Undefined when it could not be read. */
  version?: string;
  /** True when the version is in the table the hub was verified against (docs/APP-SERVER.md §16.1). */
  verified: boolean;
  /** When not verified: one sentence saying so and what to run. */
  warning?: string;
}

/** A notification from the child (`session/event`, `state.updated`, …), unparsed beyond the envelope. */
export interface BackendNotification {
  method: string;
  params: unknown;
  /** `performance.timeOrigin + performance.now()` when its line was read; for latency figures. */
  receivedAt: number;
}

/** An interaction reverse request (permission, AskUserQuestion, plan approval, MCP elicitation). */
export interface BackendInteractionRequest {
  method: 'interaction/requestPermission' | 'interaction/requestUserInput';
  /** `params` as sent by the child; `params.requestId` is the stable id (APP-SERVER.md §1.7 rule 5). */
  params: unknown;
  requestId: string;
  sessionId: string;
  /** Backend epoch the request belongs to. */
  epoch: number;
}

/**
 * Handler for interaction reverse requests. Called once per `params.requestId` per epoch
 * (re-announcements are de-duplicated by the link). The resolved value is written to the child
 * as the result — and re-used for any later re-announcement of the same requestId.
 */
export type InteractionHandler = (request: BackendInteractionRequest) => Promise<unknown>;

export interface BackendRequestOptions {
  timeoutMs?: number;
  /** Skip the automatic resume-and-retry on -32004 (used by session/resume itself). */
  noResumeRetry?: boolean;
}

/** The error a forward request rejects with when the child answered with a JSON-RPC error. */
export class BackendRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly method: string;
  constructor(method: string, code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'BackendRpcError';
    this.method = method;
    this.code = code;
    this.data = data;
  }
}

/** Local failures: the child is gone, did not answer in time, or cannot take more input. */
export type BackendFailureKind = 'gone' | 'timeout' | 'overloaded' | 'not_running' | 'closed' | 'too_large';

export class BackendFailure extends Error {
  readonly kind: BackendFailureKind;
  readonly method: string;
  constructor(kind: BackendFailureKind, method: string, message: string) {
    super(message);
    this.name = 'BackendFailure';
    this.kind = kind;
    this.method = method;
  }
}

export interface BackendPort {
  /** Current status (a fresh object each call). */
  status(): BackendStatus;
  /**
   * A forward request. Session-scoped methods that fail with -32004 (not active) are resumed
   * once and retried once; concurrent resumes of one session share one promise.
   */
  request(method: string, params?: unknown, options?: BackendRequestOptions): Promise<unknown>;
  /** Every notification from the child, in order. Returns an unsubscribe function. */
  onNotification(listener: (notification: BackendNotification) => void): () => void;
  /** Status changes (spawned, crashed, restarting, failed, stopped). */
  onStatus(listener: (status: BackendStatus) => void): () => void;
  /** A session was resumed by the link (after -32004); the domain re-subscribes it. */
  onSessionResumed(listener: (sessionId: string, snapshot: unknown) => void): () => void;
  /** Registers the one interaction handler (the domain's race). */
  setInteractionHandler(handler: InteractionHandler): void;
  /** Starts the child (idempotent). */
  start(): Promise<void>;
  /** Manual restart: also leaves `failed`. */
  restart(): Promise<void>;
  /** Stops the child with the stop ladder; memoised. */
  close(): Promise<void>;
  /** Recent stderr lines of the child, for diagnostics. */
  stderrTail(): string[];
}

/** The link without its calls: lifecycle and notifications. Calls go through the typed client (src/app-server). */
export type BackendLifecycle = Omit<BackendPort, 'request'>;
