/**
 * Who did something, as the hub shows and records it (docs/CLIENT-PROTOCOL.md "Authors"): the
 * person and device of the authenticated token, never what the client says. The client's own
 * `clientInfo.name` rides along as `client`, a secondary label only (docs/SECURITY.md "People").
 */
import type { Identity } from '../../auth/identity.js';
import { authorLabel } from '../../auth/people.js';

/** `_meta.zcode.promptedBy` / `answeredBy`, `resolvedBy`, `deletedBy`, a presence or queue entry. */
export interface Author {
  clientId?: string;
  /** "person · device" (or the person alone): what clients that know nothing newer show. Verified. */
  name: string;
  /** The token's person. Verified. */
  person: string;
  /** The token's name. Verified. */
  device: string;
  tokenId: string;
  /** Self-declared `clientInfo.name`: show it beside the verified name, never instead of it. */
  client?: string;
}

/** An author on a connection (turns and queued prompts always have one). */
export type ConnectionAuthor = Author & { clientId: string };

/** The author for an identity: every field but `client` from the token. */
export function authorOf(identity: Identity, clientId?: string, client?: string): Author {
  return {
    ...(clientId === undefined ? {} : { clientId }),
    name: authorLabel(identity.person, identity.name),
    person: identity.person,
    device: identity.name,
    tokenId: identity.tokenId,
    ...(client === undefined ? {} : { client }),
  };
}

/** The author of a connected client. */
export function connectionAuthor(c: { clientId: string; identity: Identity; clientName?: string | undefined }): ConnectionAuthor {
  return { ...authorOf(c.identity, c.clientId, c.clientName), clientId: c.clientId };
}
