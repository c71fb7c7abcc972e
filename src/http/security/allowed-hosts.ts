import net from 'node:net';

/** Names every hub answers to: loopback only (ARCHITECTURE.md §7). */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'] as const;

/** Wildcard bind addresses: they name no host a client could use, so they allow nothing extra. */
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** Splits a Host header into a lower-case hostname (IPv6 without brackets) and port; undefined when malformed. */
export function parseHostHeader(value: string | undefined): { hostname: string; port?: number } | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  const m = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::(\d{1,5}))?$/.exec(v);
  if (!m) return undefined;
  const hostname = m[1] ?? m[2];
  if (!hostname) return undefined;
  if (m[1] !== undefined && !net.isIPv6(m[1])) return undefined;
  const port = m[3] === undefined ? undefined : Number(m[3]);
  if (port !== undefined && port > 65535) return undefined;
  return port === undefined ? { hostname } : { hostname, port };
}

/**
 * Hostnames accepted in `Host` (the DNS-rebinding defence, ARCHITECTURE.md §7): loopback names,
 * the bound address when it is a specific one, and the `--public-url` host.
 */
export function allowedHostnames(config: { host: string; publicUrl?: string | undefined }): ReadonlySet<string> {
  const names = new Set<string>(LOOPBACK_NAMES);
  const bound = config.host.replace(/^\[|\]$/g, '').toLowerCase();
  if (!WILDCARDS.has(bound) && net.isIP(bound) !== 0) names.add(bound);
  if (config.publicUrl) names.add(new URL(config.publicUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase());
  return names;
}

/** Loopback hostnames, for the hub's own origins. */
export function loopbackNames(): readonly string[] {
  return LOOPBACK_NAMES;
}
