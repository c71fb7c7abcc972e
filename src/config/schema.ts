import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { LIMITS } from '../limits.js';

const limitKeys = Object.keys(LIMITS) as Array<keyof typeof LIMITS>;
/** Limits that are on by default but may be set to 0 to turn them off. */
const ZERO_TURNS_OFF: ReadonlySet<keyof typeof LIMITS> = new Set(['presenceCoalesceMs', 'sessionStateBatchMs', 'verifiedTokensMax']);
// A limit whose default is 0 is an optional policy that is off (e.g. interactionTimeoutMs), so 0 stays settable.
const limitsShape = Object.fromEntries(
  limitKeys.map((k) => [
    k,
    (LIMITS[k] === 0 || ZERO_TURNS_OFF.has(k) ? z.number().int().nonnegative() : z.number().int().positive()).optional(),
  ]),
) as {
  [K in keyof typeof LIMITS]: z.ZodOptional<z.ZodNumber>;
};

export const BACKEND_KINDS = ['auto', 'zcode', 'sim'] as const;
export const SESSION_MODES = ['plan', 'build', 'edit', 'yolo', 'guarded', 'auto'] as const;

/** The one schema for flags, environment and the optional config file (STYLE.md habit 8). */
export const configSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(8377),
    stateDir: z.string().min(1).default(path.join(os.homedir(), '.zcode-hub')),
    backend: z.enum(BACKEND_KINDS).default('auto'),
    zcodeCli: z.string().min(1).optional(),
    /** The Node.js that runs the ZCode CLI (default: one shipped beside it, else the hub's own). */
    zcodeNode: z.string().min(1).optional(),
    /** Default workspace for new sessions when a client names none; the first root when `workspaces` is given. */
    workspace: z.string().min(1).optional(),
    /**
     * Workspace roots (`--workspace` given more than once, or `workspaces` in the config file): a
     * session's cwd must be an existing directory inside one of them. Default:
     * the one `workspace`.
     */
    workspaces: z.array(z.string().min(1)).min(1).max(64).optional(),
    /** This machine's name in the app (`--name`; default the host name); the app tells machines apart by `hubId`. */
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[^\p{Cc}]+$/u, 'control characters are not allowed')
      .optional(),
    publicUrl: z.url().optional(),
    allowOrigins: z.array(z.url()).default([]),
    /** App origins this hub accepts (`--peer`); `allowOrigins` (`--allow-origin`) is an alias. More can be added at run time (`zcode-hub peers add`). */
    peers: z.array(z.url()).default([]),
    /** Simulator scenario (`--scenario`); `default` reads words in the prompt. */
    scenario: z.string().min(1).default('default'),
    /** Extra simulator flags (fault switches), for tests and benchmarks. */
    simArgs: z.array(z.string()).default([]),
    defaultMode: z.enum(SESSION_MODES).default('build'),
    /** Personal provider file passed to the app-server (APP-SERVER.md §9.4). */
    providerFile: z
      .string()
      .min(1)
      .default(path.join(os.homedir(), '.zcode', 'v2', 'provider_config.json')),
    /** Built-in provider file; defaults to the one shipped beside the CLI, else an empty one in the state dir. */
    builtinProviderFile: z.string().min(1).optional(),
    /** Let the agent auto-answer questions after 300 s (APP-SERVER.md §6.3). The hub holds them for people. */
    askUserQuestionAutoResolution: z.boolean().default(false),
    /** Read the admin token from this file (a container secret) instead of generating one. */
    adminTokenFile: z.string().min(1).optional(),
    tlsCert: z.string().min(1).optional(),
    tlsKey: z.string().min(1).optional(),
    /** Proxy hops to trust for the client address (a tunnel on loopback is 1); never `true`. */
    trustProxy: z.number().int().min(0).max(5).default(0),
    /** `--record-wire FILE`: every message between the hub and the agent child, redacted, as NDJSON (src/backend/wire-recorder.ts). */
    recordWire: z.string().min(1).optional(),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    limits: z.object(limitsShape).strict().default({}),
    /**
     * Test-only switches, read from the config file only (no flag, no environment variable):
     * `pushPrivateEndpoints` lets push endpoints sit on loopback and private addresses, so the
     * tests can run a push service on 127.0.0.1 (docs/SECURITY.md "Push endpoints"). Never set
     * it on a hub anyone else can reach: it lets any paired device make the hub call its LAN.
     */
    testOnly: z
      .object({ pushPrivateEndpoints: z.boolean().default(false) })
      .strict()
      .optional(),
  })
  .strict();

export type ConfigInput = z.input<typeof configSchema>;
export type ParsedConfig = z.output<typeof configSchema>;

/** The frozen configuration every part reads; limits are merged with their defaults. */
export type HubConfig = Readonly<
  Omit<ParsedConfig, 'limits' | 'workspace' | 'workspaces'> & {
    limits: Readonly<Record<keyof typeof LIMITS, number>>;
    /** The default workspace (absolute). */
    workspace: string;
    /** The workspace roots (absolute, at least one; `workspace` is inside one of them). */
    workspaces: readonly string[];
  }
>;
