import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { configSchema, type ConfigInput, type HubConfig } from './schema.js';

/** Command-line flags of `zcode-hub start` (ARCHITECTURE.md §9), mapped onto config keys. */
export const START_FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'state-dir': { type: 'string' },
  backend: { type: 'string' },
  'zcode-cli': { type: 'string' },
  'zcode-node': { type: 'string' },
  workspace: { type: 'string', multiple: true },
  name: { type: 'string' },
  'public-url': { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  peer: { type: 'string', multiple: true },
  scenario: { type: 'string' },
  'sim-arg': { type: 'string', multiple: true },
  'default-mode': { type: 'string' },
  'provider-file': { type: 'string' },
  'builtin-provider-file': { type: 'string' },
  'admin-token-file': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'trust-proxy': { type: 'string' },
  'log-level': { type: 'string' },
  'record-wire': { type: 'string' },
  config: { type: 'string' },
} as const;

const ENV_KEYS: Record<string, keyof ConfigInput> = {
  ZCODE_HUB_HOST: 'host',
  ZCODE_HUB_PORT: 'port',
  ZCODE_HUB_STATE_DIR: 'stateDir',
  ZCODE_HUB_BACKEND: 'backend',
  ZCODE_HUB_ZCODE_CLI: 'zcodeCli',
  ZCODE_HUB_ZCODE_NODE: 'zcodeNode',
  ZCODE_HUB_WORKSPACE: 'workspace',
  ZCODE_HUB_NAME: 'name',
  ZCODE_HUB_PUBLIC_URL: 'publicUrl',
  ZCODE_HUB_ALLOW_ORIGIN: 'allowOrigins',
  ZCODE_HUB_PEER: 'peers',
  ZCODE_HUB_SCENARIO: 'scenario',
  ZCODE_HUB_DEFAULT_MODE: 'defaultMode',
  ZCODE_HUB_PROVIDER_FILE: 'providerFile',
  ZCODE_HUB_TRUST_PROXY: 'trustProxy',
  ZCODE_HUB_LOG_LEVEL: 'logLevel',
  ZCODE_HUB_ADMIN_TOKEN_FILE: 'adminTokenFile',
  ZCODE_HUB_TLS_CERT: 'tlsCert',
  ZCODE_HUB_TLS_KEY: 'tlsKey',
  ZCODE_HUB_RECORD_WIRE: 'recordWire',
};

const NUMERIC: ReadonlySet<string> = new Set(['port', 'trustProxy']);

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function coerce(key: string, value: string): unknown {
  if (NUMERIC.has(key)) return value.trim() === '' ? value : Number(value);
  if (key === 'allowOrigins' || key === 'peers')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return value;
}

/**
 * node:util parseArgs's error as one short clause: `unknown option '--x'`, `option '--port
 * <value>' argument missing` (its own text for an unknown option goes on about positionals).
 */
export function parseArgsMessage(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const quoted = /'([^']+)'/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) return `unknown option '${quoted}'`;
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && quoted !== undefined) return `unexpected argument '${quoted}'`;
  return e.message.charAt(0).toLowerCase() + e.message.slice(1);
}

/** Error thrown when configuration is invalid; the message lists every issue with its path. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** Reads an optional JSON config file through the same schema (partial). */
function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not JSON: ${(err as Error).message}`);
  }
  const result = z.record(z.string(), z.unknown()).safeParse(parsed);
  if (!result.success) throw new ConfigError(`config file ${file} must hold a JSON object`);
  return result.data;
}

/**
 * Builds the frozen config from (lowest to highest precedence) defaults, the config file,
 * the environment and the flags. Throws ConfigError with every issue listed.
 */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): HubConfig {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: START_FLAGS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new ConfigError(parseArgsMessage(err));
  }
  const fromFlags: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(values)) {
    if (value === undefined || flag === 'config') continue;
    if (flag === 'workspace' && Array.isArray(value)) {
      // `--workspace` names the roots; the first is the default for sessions that name none.
      fromFlags.workspaces = value;
      fromFlags.workspace = value[0];
      continue;
    }
    const key = flag === 'allow-origin' ? 'allowOrigins' : flag === 'sim-arg' ? 'simArgs' : flag === 'peer' ? 'peers' : camel(flag);
    fromFlags[key] = Array.isArray(value) ? value : coerce(key, String(value));
  }
  const fromEnv: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value !== undefined && value !== '') fromEnv[key] = coerce(key, value);
  }
  // ZCODE_HUB_WORKSPACE is one root, like a single `--workspace`.
  if (typeof fromEnv.workspace === 'string') fromEnv.workspaces = [fromEnv.workspace];
  const configFile = typeof values.config === 'string' ? values.config : env.ZCODE_HUB_CONFIG;
  const fromFile = configFile ? readConfigFile(configFile) : {};
  return buildConfig({ ...fromFile, ...fromEnv, ...fromFlags });
}

/** Parses an already-merged input object (tests build configs this way). */
export function buildConfig(input: ConfigInput | Record<string, unknown>): HubConfig {
  const result = configSchema.safeParse(input);
  if (!result.success) throw new ConfigError(`invalid configuration: ${formatIssues(result.error)}`);
  const parsed = result.data;
  const roots = (parsed.workspaces ?? [parsed.workspace ?? process.cwd()]).map((w) => path.resolve(w));
  const workspace = path.resolve(parsed.workspace ?? roots[0] ?? process.cwd());
  if (!roots.some((r) => workspace === r || workspace.startsWith(r.endsWith(path.sep) ? r : r + path.sep))) {
    throw new ConfigError(`invalid configuration: workspace ${workspace} is not inside any of the workspace roots (${roots.join(', ')})`);
  }
  const limits = Object.freeze({ ...LIMITS, ...Object.fromEntries(Object.entries(parsed.limits).filter(([, v]) => v !== undefined)) });
  return Object.freeze({
    ...parsed,
    stateDir: path.resolve(parsed.stateDir),
    workspace,
    workspaces: Object.freeze([...new Set(roots)]) as readonly string[],
    providerFile: path.resolve(parsed.providerFile),
    allowOrigins: Object.freeze([...parsed.allowOrigins]) as string[],
    peers: Object.freeze([...parsed.peers]) as string[],
    simArgs: Object.freeze([...parsed.simArgs]) as string[],
    limits,
  });
}
