/**
 * Whether a connection comes from the hub's own machine, for `localOnly` rules (docs/SECURITY.md
 * "Approval rules"): the TCP peer is a loopback address and the request carries no forwarding
 * header. A tunnel or reverse proxy on this machine connects from loopback too, but says whom it
 * forwards (`X-Forwarded-For`, `Forwarded`, …); any such header, trusted or not, makes the
 * connection remote — a client can only lose the right by sending one, never gain it.
 */
import ipaddr from 'ipaddr.js';

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'cf-connecting-ip', 'true-client-ip', 'x-forwarded-host'];

/** True for a loopback TCP peer that forwards nobody. */
export function isLocalPeer(remoteAddress: string | undefined, headers: Record<string, string | string[] | undefined>): boolean {
  if (remoteAddress === undefined || !ipaddr.isValid(remoteAddress)) return false;
  if (ipaddr.process(remoteAddress).range() !== 'loopback') return false;
  return FORWARDING_HEADERS.every((h) => headers[h] === undefined);
}
