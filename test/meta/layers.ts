/**
 * The intended layering of src/, in one place (ARCHITECTURE.md §2, STYLE.md habit 2).
 * test/meta/layering.test.ts is generated from this table: it walks every import of every
 * file under src/ (and web/src/) and fails on any arrow the table does not allow. To add an
 * arrow, add it here with the reason — the diff then shows the design change.
 *
 * A "unit" is a folder directly under src/ (`domain`) or a root module (`errors.ts`).
 */

/** Packages that make code transport- or process-bound. */
const SERVER = [/^fastify/, /^@fastify\//, /^ws$/];
const PROCESS = [/^(node:)?child_process$/];

export interface UnitRule {
  /** What the unit is for, in a line. */
  role: string;
  /** Units it may import (itself always). */
  imports: readonly string[];
  /** Packages it must not import, with why. */
  forbiddenPackages?: { patterns: readonly RegExp[]; why: string };
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
  'fs',
  'config',
  'ports',
] as const;

export const UNITS: Record<string, UnitRule> = {
  // Foundation: imported by anyone, importing nothing above it.
  'errors.ts': { role: 'the error catalog: codes → HTTP, JSON-RPC, close code', imports: [] },
  'backend-errors.ts': { role: 'the one mapping of app-server failures into the catalog', imports: ['errors.ts', 'ports'] },
  'limits.ts': { role: 'every named bound', imports: [] },
  'json-depth.ts': { role: 'the nesting bound every JSON entry checks (client frames, REST bodies, child lines)', imports: [] },
  'logger.ts': { role: 'the pino logger and its redaction', imports: ['trace-context.ts'] },
  'trace-context.ts': {
    role: 'W3C trace context of the request being handled (AsyncLocalStorage), read by logs and the child link',
    imports: [],
  },
  'version.ts': { role: 'the package version', imports: [] },
  'zcode-ext': { role: 'the `_zcode/*` extension protocol: method names (dependency-free) and payload schemas', imports: [] },
  'compat-instance.ts': { role: 'the id zcode-acp-remote knows this daemon by (gateway query, REST compat routes)', imports: [] },
  fs: { role: 'private files: atomic writes, modes', imports: ['errors.ts'] },
  config: { role: 'one config schema, parsed once; the state-dir layout', imports: ['limits.ts', 'fs'] },
  ports: {
    role: 'interfaces between layers (BackendPort), no behaviour',
    imports: ['errors.ts'],
    forbiddenPackages: { patterns: [...SERVER, ...PROCESS], why: 'a port is a type seam' },
  },

  // Protocol: wire schemas and translation, no sockets, no processes.
  acp: {
    role: 'pure ZCode → ACP translation',
    imports: ['errors.ts', 'limits.ts'],
    forbiddenPackages: { patterns: [...SERVER, ...PROCESS], why: 'translation is pure protocol code' },
  },
  'app-server': {
    role: 'the one typed client of the app-server: a method per call, zod result schemas, checked v4 ACKs, typed errors',
    imports: ['errors.ts', 'backend-errors.ts', 'ports', 'acp'],
    forbiddenPackages: { patterns: [...SERVER, ...PROCESS], why: 'a client over the BackendPort seam, not the link itself' },
  },
  simulator: {
    role: 'the fake app-server: a separate program that shares nothing of the hub but the foundation',
    imports: ['errors.ts', 'limits.ts', 'logger.ts', 'version.ts', 'fs'],
    forbiddenPackages: { patterns: SERVER, why: 'it speaks stdio only' },
  },

  // The link to the child: the only place that spawns processes.
  backend: {
    role: 'spawn and supervise the app-server, ndjson, JSON-RPC peer, reverse requests',
    imports: [...FOUNDATION, 'backend-errors.ts'],
    alsoFiles: ['simulator/launcher.ts'],
    forbiddenPackages: { patterns: SERVER, why: 'the link knows the child, not clients' },
  },

  // Domain: sessions, interactions, identities, settings — no transport, no processes.
  auth: {
    role: 'device tokens, pairing, scopes, audit, the admin token',
    imports: [...FOUNDATION],
    forbiddenPackages: { patterns: [...SERVER, ...PROCESS], why: 'identities are domain code' },
  },
  settings: {
    role: 'provider file store and workflow proxy',
    imports: [...FOUNDATION, 'backend-errors.ts', 'app-server'],
    forbiddenPackages: { patterns: [...SERVER, ...PROCESS], why: 'settings stores are domain code; their routes live in src/http/routes' },
  },
  domain: {
    role: 'the hub: sessions, journal, broadcast, prompts, the interaction race',
    imports: [...FOUNDATION, 'backend-errors.ts', 'app-server', 'acp', 'auth', 'policy'],
    forbiddenPackages: {
      patterns: [...SERVER, ...PROCESS],
      why: 'the domain knows sessions and interactions, not sockets, HTTP or processes',
    },
  },
  policy: {
    role: 'approval rules: their schema, file, matching and the vote state machine of one request',
    imports: [...FOUNDATION, 'acp', 'auth'],
    forbiddenPackages: { patterns: [...SERVER, ...PROCESS], why: 'rules are domain code; their routes live in src/http/routes' },
  },
  metrics: {
    role: 'Prometheus metrics',
    imports: [...FOUNDATION],
    forbiddenPackages: { patterns: [...SERVER, ...PROCESS], why: 'counters, no transport' },
  },
  push: {
    role: 'Web Push notifications',
    imports: [...FOUNDATION],
    forbiddenPackages: { patterns: [...SERVER, ...PROCESS], why: 'a sender, no transport' },
  },
  doctor: {
    role: "health and exposure checks; the --probe conversation reads answers with the hub's own client and schemas",
    imports: [...FOUNDATION, 'backend', 'settings', 'app-server', 'acp', 'domain'],
    forbiddenPackages: { patterns: SERVER, why: 'checks, not a server' },
  },

  git: {
    role: 'read-only git of a workspace: one child per call (execFile, sanitised env, time limit, output cap), porcelain parsing',
    imports: ['errors.ts'],
    forbiddenPackages: { patterns: SERVER, why: "runs git, knows no transport; confinement is the caller's" },
  },

  // Transport: two siblings that never import each other; the composition root mounts both.
  gateway: {
    role: 'the WebSocket endpoint: connections, dispatch, heartbeat, profiles',
    imports: [...FOUNDATION, 'backend-errors.ts', 'domain', 'acp', 'auth', 'policy'],
    forbiddenPackages: { patterns: PROCESS, why: 'transport, not processes' },
  },
  http: {
    role: 'the fastify app: security hooks, REST routes, static web app',
    imports: [...FOUNDATION, 'backend-errors.ts', 'app-server', 'domain', 'settings', 'auth', 'doctor', 'metrics', 'push', 'policy', 'git'],
    forbiddenPackages: { patterns: PROCESS, why: 'transport, not processes' },
  },
  bridge: { role: 'the `zcode-hub acp` stdio ↔ WebSocket bridge, a client of the daemon', imports: [...FOUNDATION, 'daemon-files'] },

  // Roots: wire everything; nothing imports them but the CLI.
  'daemon-files': { role: 'how clients find, start and call a running daemon (hub.json, node flags)', imports: [...FOUNDATION, 'auth'] },
  daemon: {
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
  service: { role: 'systemd / launchd unit files', imports: [...FOUNDATION, 'daemon', 'daemon-files'] },
  cli: { role: 'command-line entry points', imports: ['*'] },
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
