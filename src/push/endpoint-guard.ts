/**
 * Where the hub may send a push (docs/SECURITY.md "Push endpoints"): https on a public address.
 * A subscription names any URL a paired device likes, so without this check the hub would POST
 * to its own loopback, the LAN or a cloud metadata service for anyone holding a `view` token.
 * Checked when a subscription is registered and again on every connection the hub opens for a
 * push (a name may resolve elsewhere later), through a `lookup` that refuses the addresses.
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an endpoint is refused; `undefined` = it may be used. */
export type EndpointRefusal = string | undefined;

/** True when `address` (an IP literal) is an ordinary public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns ::ffff:10.0.0.1 into 10.0.0.1, so a mapped private address is seen as private.
  const ip = ipaddr.process(address);
  // Everything ipaddr.js names (loopback, private, linkLocal incl. 169.254.169.254, uniqueLocal,
  // carrierGradeNat, multicast, reserved, 6to4, teredo, NAT64 …) is refused: only 'unicast' is public.
  return ip.range() === 'unicast';
}

/** The host of an endpoint URL without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The shape checks that need no DNS: https, no credentials in the URL. */
export function endpointShapeRefusal(endpoint: string): EndpointRefusal {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint is not a URL';
  }
  if (url.protocol !== 'https:') return 'endpoint must be https';
  if (url.username || url.password) return 'endpoint must not carry credentials';
  return undefined;
}

/**
 * Checks an endpoint before it is stored: https, and every address its host resolves to public
 * (unless `allowPrivate`, the test-only config option `testOnly.pushPrivateEndpoints`).
 */
export async function endpointRefusal(endpoint: string, allowPrivate: boolean): Promise<EndpointRefusal> {
  const shape = endpointShapeRefusal(endpoint);
  if (shape || allowPrivate) return shape;
  const host = hostOf(new URL(endpoint));
  if (ipaddr.isValid(host)) return isPublicAddress(host) ? undefined : `endpoint address ${host} is not public`;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return `endpoint host ${host} does not resolve`;
  }
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (addresses.length === 0) return `endpoint host ${host} does not resolve`;
  return bad ? `endpoint host ${host} resolves to ${bad.address}, which is not public` : undefined;
}

/** The `code` of a PrivateAddressError (it may reach the request re-wrapped by the socket). */
export const PRIVATE_ADDRESS = 'HUB_PUSH_PRIVATE_ADDRESS';

/** The error a guarded connection fails with when its host resolves to a refused address. */
export class PrivateAddressError extends Error {
  readonly code = PRIVATE_ADDRESS;
}

/**
 * A `lookup` for https.request that resolves as usual and fails the connection when any address
 * is not public, so the address checked is the address connected to (no rebinding in between).
 * An IP-literal host never reaches a lookup: callers check it with `isPublicAddress` first.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad || addresses.length === 0) {
      const refused = new PrivateAddressError(`push endpoint ${hostname} resolves to ${bad?.address ?? 'nothing'}, which is not public`);
      return callback(refused as NodeJS.ErrnoException, '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    const [first] = addresses;
    return callback(null, first?.address ?? '', first?.family ?? 4);
  });
};

/** The host of an endpoint when it is an IP literal (checked directly: no lookup runs for it). */
export function literalHost(endpoint: string): string | undefined {
  const host = hostOf(new URL(endpoint));
  return ipaddr.isValid(host) ? host : undefined;
}
