const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** Longest token lifetime accepted (`--ttl`): a year; longer-lived access should be re-issued. */
export const MAX_TTL_MS = 366 * UNIT_MS.d;

/** Parses a lifetime like `30m`, `12h`, `7d`, `2w` (or plain seconds) into ms; undefined when invalid. */
export function parseTtl(text: string): number | undefined {
  const m = /^\s*(\d{1,6})\s*([smhdw]?)\s*$/i.exec(text);
  if (!m?.[1]) return undefined;
  const unit = (m[2] || 's').toLowerCase() as keyof typeof UNIT_MS;
  const ms = Number(m[1]) * UNIT_MS[unit];
  return ms > 0 && ms <= MAX_TTL_MS ? ms : undefined;
}
