import { HubError } from '../../errors.js';

/**
 * Parses an admin- or app-given http(s) address, refusing with HUB_ERR_BAD_REQUEST and the reason:
 * not a URL, another scheme, credentials in it. Callers add their own rules on path/query.
 */
export function parseHttpUrl(input: string): URL {
  let u: URL;
  try {
    u = new URL(input.trim());
  } catch {
    throw new HubError('HUB_ERR_BAD_REQUEST', 'Not a URL: give it as https://name.example.com');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new HubError('HUB_ERR_BAD_REQUEST', 'Only http:// and https:// addresses');
  if (u.username || u.password) throw new HubError('HUB_ERR_BAD_REQUEST', 'No user or password in the address');
  return u;
}
