/**
 * People (docs/SECURITY.md "People"): every device token belongs to one person, set by an admin
 * (`token create --person`, `pair --person`, `PATCH /api/tokens/:id`), never by a client. The
 * hub shows an author as "person · device"; both halves come from the token registry.
 */
import { z } from 'zod';

/** The person of the state-dir admin token. */
export const ADMIN_PERSON = 'admin';

/** The separator of a shown author ("ann · Ann phone · zed"); refused inside names so no name can fake a second half. */
export const LABEL_SEPARATOR = ' · ';

/** A person's name: printable, bounded, without the label separator. */
export const personNameSchema = z
  .string()
  .trim()
  .min(1, 'a person needs a name')
  .max(64, 'a person name is at most 64 characters')
  .regex(/^[^\p{Cc}·]+$/u, 'control characters and "·" are not allowed in a person name');

/** "person · device", or the person alone when the device is named after them (the default). */
export function authorLabel(person: string, device: string): string {
  return person === device ? person : `${person}${LABEL_SEPARATOR}${device}`;
}

/**
 * The person of a token a device names itself (pairing without `--person`): its own name,
 * unless that is already someone's (or a reserved name), then the first free "name (2)", "name (3)"
 * — a device that calls itself "admin" or "ann" does not become admin or Ann.
 */
export function freshPerson(wanted: string, taken: ReadonlySet<string>): string {
  const base = personNameSchema.safeParse(wanted).success ? wanted.trim() : 'paired device';
  if (!taken.has(base) && base !== ADMIN_PERSON) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 58)} (${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}
