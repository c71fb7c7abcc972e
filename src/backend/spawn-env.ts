/**
 * The child's environment is an allow-list (STYLE.md, MCP SDK): the hub's own secrets
 * (`ZCODE_HUB_*`, tokens, API keys of other tools) and code-injection knobs (`NODE_OPTIONS`)
 * never reach the app-server. Only what a Node CLI needs to run, find its home, reach the
 * network and select the ZCode endpoint is passed on (APP-SERVER.md §9.4).
 */
export const ENV_ALLOW_LIST: readonly string[] = [
  // process basics
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'TZ',
  'LANG',
  'LANGUAGE',
  'TMPDIR',
  'TMP',
  'TEMP',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  // network: proxies and corporate CAs (the CLI calls model APIs)
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // ZCode selection (§9.4); the provider variables are set by the hub itself
  'ZCODE_DATA_BASE_DIR',
  'ZCODE_ENV',
  'ZCODE_BASE_URL',
  'ZCODE_APP_VERSION',
  'ZCODE_RUNTIME_ENV',
  // Windows
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'USERNAME',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS',
  'OS',
];

/** Prefixes passed on as a family (`LC_ALL`, `LC_CTYPE`, …). */
export const ENV_ALLOW_PREFIXES: readonly string[] = ['LC_'];

/** Prefixes passed on only to the simulator (its fault switches read `ZCODE_SIM_*`). */
export const SIM_ENV_PREFIXES: readonly string[] = ['ZCODE_SIM_'];

export interface ChildEnvOptions {
  platform: NodeJS.Platform;
  /** Extra allowed prefixes (e.g. SIM_ENV_PREFIXES for the simulator). */
  extraPrefixes?: readonly string[];
  /** Set last; wins over anything inherited. */
  set: Record<string, string>;
}

/**
 * Filters `base` through the allow-list and adds `set`. Windows names match case-insensitively;
 * values that look like exported shell functions (`() {…`) are dropped, as the MCP SDK does.
 */
export function buildChildEnv(base: NodeJS.ProcessEnv, options: ChildEnvOptions): NodeJS.ProcessEnv {
  const win = options.platform === 'win32';
  const norm = (k: string): string => (win ? k.toUpperCase() : k);
  const allowed = new Set(ENV_ALLOW_LIST.map(norm));
  const prefixes = [...ENV_ALLOW_PREFIXES, ...(options.extraPrefixes ?? [])].map(norm);
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || value.startsWith('()')) continue;
    const k = norm(key);
    if (allowed.has(k) || prefixes.some((p) => k.startsWith(p))) out[key] = value;
  }
  for (const [key, value] of Object.entries(options.set)) out[key] = value;
  return out;
}
