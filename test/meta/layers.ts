/**
 * The intended layering of src/, in one place (ARCHITECTURE.md §2).
 * test/meta/layering.test.ts is generated from this table: it walks every import of every
 * file under src/ (and web/src/) and fails on any arrow the table does not allow. To add an
 * arrow, add it here with the reason — the diff then shows the design change.
 *
 * A "unit" is a folder directly under src/ (`domain`) or a root module (`errors.ts`). Each unit
 * sits in one of the LAYERS; an arrow never points to a higher layer, and the layer table of
 * docs/ARCHITECTURE.md §2 lists the same units per layer (the test compares them).
 */

/** Packages that make code transport- or process-bound. */
const SERVER = [/^fastify/, /^@fastify\//, /^ws$/];
const PROCESS = [/^(node:)?child_process$/];

export interface PackageBan {
  /** As docs/ARCHITECTURE.md §2 writes it in the layer table's last column. */
  label: string;
  patterns: readonly RegExp[];
  why: string;
}

export interface LayerRule {
  /** What the layer deals in, in a line. */
  role: string;
  /** Packages no unit of the layer may import. */
  forbiddenPackages?: PackageBan;
}

/**
 * The layers, bottom up. The protocol layer translates and types the two wires; the domain
 * (the hub) calls it — domain → protocol, never the reverse; the transports call the domain;
 * the roots build and wire everything.
 */
export const LAYERS = {
  foundation: {
    role: 'errors, limits, logging, private files, config, the `_zcode/*` names, the ports',
    forbiddenPackages: {
      label: 'fastify, ws, child_process',
      patterns: [...SERVER, ...PROCESS],
      why: 'the foundation is imported by everyone and binds nobody to a transport or a process',
    },
  },
  protocol: {
    role: 'zod schemas of both wires, ZCode → ACP translation, the typed app-server client',
    forbiddenPackages: {
      label: 'fastify, ws, child_process',
      patterns: [...SERVER, ...PROCESS],
      why: 'translation and typed calls are pure protocol code over the BackendPort seam',
    },
  },
  child: {
    role: 'the child side: spawn and supervise the app-server, ndjson, JSON-RPC peer; the simulator; git children',
    forbiddenPackages: { label: 'fastify, ws', patterns: SERVER, why: 'the link knows the child, not clients' },
  },
  domain: {
    role: 'sessions, journal, turns, prompt queue, interactions, identities, rules, settings stores, checks',
    forbiddenPackages: {
      label: 'fastify, ws, child_process',
      patterns: [...SERVER, ...PROCESS],
      why: 'the domain knows sessions and interactions, not sockets, HTTP or processes',
    },
  },
  transport: {
    role: 'the client side: WebSocket and HTTP endpoints, REST routes, how clients find the daemon',
    forbiddenPackages: { label: 'child_process', patterns: PROCESS, why: 'transport, not processes' },
  },
  root: { role: 'programs: the composition root, the CLI, the `acp` bridge, the service units' },
} as const satisfies Record<string, LayerRule>;
export type Layer = keyof typeof LAYERS;
/** Bottom up: a unit may import units of its own layer or of one listed before it. */
export const LAYER_ORDER = Object.keys(LAYERS) as Layer[];

export interface UnitRule {
  /** The layer it sits in. */
  layer: Layer;
  /** What the unit is for, in a line. */
  role: string;
  /** Units it may import (itself always). */
  imports: readonly string[];
  /** Files of another unit it may import even though the unit is not in `imports`. */
  alsoFiles?: readonly string[];
}

const FOUNDATION = [
  'errors.ts',
  'limits.ts',
  'json-depth.ts',
  'logger.ts',
  'trace-context.ts',
  'version.ts',
  'compat-instance.ts',
  'zcode-ext',
  'wire',
  'fs',
  'config',
  'ports',
] as const;

export const UNITS: Record<string, UnitRule> = {
  // Foundation: imported by anyone, importing nothing above it.
  'errors.ts': { layer: 'foundation', role: 'the error catalog: codes → HTTP, JSON-RPC, close code', imports: [] },
  'backend-errors.ts': {
    layer: 'foundation',
    role: 'the one mapping of app-server failures into the catalog',
    imports: ['errors.ts', 'ports'],
  },
  'limits.ts': { layer: 'foundation', role: 'every named bound', imports: [] },
  'json-depth.ts': {
    layer: 'foundation',
    role: 'the nesting bound every JSON entry checks (client frames, REST bodies, child lines)',
    imports: [],
  },
  'logger.ts': { layer: 'foundation', role: 'the pino logger and its redaction', imports: ['trace-context.ts'] },
  'trace-context.ts': {
    layer: 'foundation',
    role: 'W3C trace context of the request being handled (AsyncLocalStorage), read by logs and the child link',
    imports: [],
  },
  'version.ts': { layer: 'foundation', role: 'the package version', imports: [] },
  'zcode-ext': {
    layer: 'foundation',
    role: 'the `_zcode/*` extension protocol: method names (dependency-free) and payload schemas',
    imports: [],
  },
  wire: {
    layer: 'foundation',
    role: "the app-server wire's messages, each defined once with a strict (the simulator's) and a lenient (the hub's) reading",
    imports: [],
  },
  'compat-instance.ts': {
    layer: 'foundation',
    role: 'the id zcode-acp-remote knows this daemon by (gateway query, REST compat routes)',
    imports: [],
  },
  fs: { layer: 'foundation', role: 'private files: atomic writes, modes, versioned list files', imports: ['errors.ts'] },
  config: { layer: 'foundation', role: 'one config schema, parsed once; the state-dir layout', imports: ['limits.ts', 'fs'] },
  ports: { layer: 'foundation', role: 'interfaces between layers (BackendPort), no behaviour', imports: ['errors.ts'] },

  // Protocol: wire schemas and translation, no sockets, no processes.
  acp: { layer: 'protocol', role: 'pure ZCode → ACP translation', imports: ['errors.ts', 'limits.ts', 'wire'] },
  'app-server': {
    layer: 'protocol',
    role: 'the one typed client of the app-server: a method per call, zod result schemas, checked v4 ACKs, typed errors',
    imports: ['errors.ts', 'backend-errors.ts', 'ports', 'acp', 'wire'],
  },

  // The child side: the only units that spawn processes (or are one).
  simulator: {
    layer: 'child',
    role: 'the fake app-server: a separate program that shares nothing of the hub but the foundation',
    imports: ['errors.ts', 'limits.ts', 'logger.ts', 'version.ts', 'fs', 'wire'],
  },
  backend: {
    layer: 'child',
    role: 'spawn and supervise the app-server, ndjson, JSON-RPC peer, reverse requests',
    imports: [...FOUNDATION, 'backend-errors.ts'],
    alsoFiles: ['simulator/launcher.ts'],
  },
  git: {
    layer: 'child',
    role: 'read-only git of a workspace: one child per call (execFile, sanitised env, time limit, output cap), porcelain parsing',
    imports: ['errors.ts'],
  },

  // Domain: sessions, interactions, identities, settings — no transport, no processes.
  auth: { layer: 'domain', role: 'device tokens, pairing, scopes, audit, the admin token', imports: [...FOUNDATION] },
  settings: {
    layer: 'domain',
    role: 'provider file store and workflow proxy (their routes live in src/http/routes)',
    imports: [...FOUNDATION, 'backend-errors.ts', 'app-server'],
  },
  domain: {
    layer: 'domain',
    role: 'the hub: sessions, journal, broadcast, prompts, the interaction race',
    imports: [...FOUNDATION, 'backend-errors.ts', 'app-server', 'acp', 'auth', 'policy'],
  },
  policy: {
    layer: 'domain',
    role: 'approval rules: their schema, file, matching and the vote state machine of one request',
    imports: [...FOUNDATION, 'acp', 'auth'],
  },
  metrics: { layer: 'domain', role: 'Prometheus metrics', imports: [...FOUNDATION] },
  push: { layer: 'domain', role: 'Web Push notifications', imports: [...FOUNDATION] },
  doctor: {
    layer: 'domain',
    role: "health and exposure checks; the --probe conversation runs its own child through src/backend and reads answers with the hub's own client and schemas",
    imports: [...FOUNDATION, 'backend', 'settings', 'app-server', 'acp', 'domain'],
  },

  // Transport: two siblings that never import each other; the composition root mounts both.
  gateway: {
    layer: 'transport',
    role: 'the WebSocket endpoint: connections, dispatch, heartbeat, profiles',
    imports: [...FOUNDATION, 'backend-errors.ts', 'domain', 'acp', 'auth', 'policy'],
  },
  http: {
    layer: 'transport',
    role: 'the fastify app: security hooks, REST routes, static web app',
    imports: [...FOUNDATION, 'backend-errors.ts', 'app-server', 'domain', 'settings', 'auth', 'doctor', 'metrics', 'push', 'policy', 'git'],
  },
  'daemon-files': {
    layer: 'transport',
    role: 'how clients find, start and call a running daemon (hub.json, node flags)',
    imports: [...FOUNDATION, 'auth'],
  },

  // Roots: programs that wire everything; nothing imports them but the CLI.
  bridge: {
    layer: 'root',
    role: 'the `zcode-hub acp` stdio ↔ WebSocket bridge, a client of the daemon (it may start one)',
    imports: [...FOUNDATION, 'daemon-files'],
  },
  daemon: {
    layer: 'root',
    role: 'the composition root',
    imports: [
      ...FOUNDATION,
      'backend-errors.ts',
      'app-server',
      'acp',
      'backend',
      'auth',
      'settings',
      'domain',
      'policy',
      'metrics',
      'push',
      'doctor',
      'gateway',
      'http',
      'daemon-files',
    ],
  },
  service: { layer: 'root', role: 'systemd / launchd unit files', imports: [...FOUNDATION, 'daemon', 'daemon-files'] },
  cli: { layer: 'root', role: 'command-line entry points', imports: ['*'] },
};

/**
 * Files that form a unit of their own inside another folder, because they sit below it: a
 * client of the daemon (the bridge, the CLI) finds and calls it without importing the
 * composition root.
 */
export const FILE_UNITS: Record<string, string> = {
  'daemon/state-files.ts': 'daemon-files',
  'daemon/node-flags.ts': 'daemon-files',
  'cli/daemon-client.ts': 'daemon-files',
};

/** Finer rules inside src/backend: which of its files may touch what. */
export const BACKEND_FILES = {
  /** The only files that may import node:child_process (node-runtime.ts: `node --version` of the child's runtime at start). */
  process: ['child-transport.ts', 'pidfile.ts', 'node-runtime.ts'],
  /** The protocol half (bytes → messages → correlation → answers): no processes, files or network. */
  protocol: [
    'ndjson.ts',
    'envelope.ts',
    'rpc-peer.ts',
    'reverse-router.ts',
    'interaction-dedupe.ts',
    'backoff.ts',
    'rate-limit.ts',
    'transport.ts',
    'transport-tap.ts',
    'stderr-ring.ts',
    'bounds.ts',
    'spawn-env.ts',
    'server-output.ts',
    // The simulator in this process: streams, no spawn (tests run the domain without a child).
    'in-process-transport.ts',
  ],
  protocolForbidden: /^(node:)?(child_process|fs|net|http|https)$/,
};

/** The web app is its own build: from src/ it may only take types (`import type`)… */
export const WEB_MAY_IMPORT_SRC = 'type-only' as const;

/** …and values from these dependency-free modules, so it never hard-codes what they define. */
export const WEB_SHARED_MODULES: readonly string[] = ['src/gateway/close-codes.ts', 'src/zcode-ext/methods.ts'];

/**
 * Arrows that break the table today and are being removed, each with the reason it is still
 * here (none now). The test fails on any violation not listed and on a listed one that no
 * longer occurs.
 */
export const KNOWN_VIOLATIONS: Record<string, string> = {};
