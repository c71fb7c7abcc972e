/**
 * How the app shows an author (docs/CLIENT-PROTOCOL.md "Authors"): the hub's verified `name`
 * ("person · device"), then the connection's self-declared `client` as a secondary label when it
 * adds something ("ann · Ann phone · zed"). The client label is never shown alone.
 */
import { rec, str } from '../wire.js';

/** The separator of the hub's "person · device" (the hub refuses it inside names). */
const SEPARATOR = ' · ';

/** The text for an author object of the hub, or undefined when it has no name. */
export function authorText(by: unknown): string | undefined {
  const r = rec(by);
  const name = str(r?.['name']);
  if (!name) return undefined;
  const client = str(r?.['client'])?.trim();
  return client && client !== str(r?.['device']) && client !== name ? `${name}${SEPARATOR}${client}` : name;
}

/**
 * This device as the hub names it in its authors ("person · device", the person alone when the
 * device is named after them), so a prompt sent here reads the same live as after any reload,
 * when the hub's replay names it. Without a person (an older hub) the device name.
 */
export function selfText(me: { name: string; device?: string; person?: string } | undefined): string | undefined {
  if (!me) return undefined;
  const device = me.device ?? me.name;
  return me.person && me.person !== device && me.name !== 'admin' ? `${me.person}${SEPARATOR}${device}` : device;
}

/** The token id of an author object (tells this device's own prompts apart). */
export function authorTokenId(by: unknown): string | undefined {
  return str(rec(by)?.['tokenId']);
}

/**
 * True when an author is a rule or an "always allow" grant, not a person (`{name: "allowed by rule
 * r …", rule: "r"}`, `{…, grant: "<id>"}`): its name is a whole phrase, shown without "Answered by".
 */
export function settledByRule(by: unknown): boolean {
  const r = rec(by);
  return str(r?.['rule']) !== undefined || str(r?.['grant']) !== undefined;
}
