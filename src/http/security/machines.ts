/**
 * Machines (home side): the other hubs the web app served from this hub talks
 * to. The app records one when it adds a machine; this hub's Content-Security-Policy
 * `connect-src` then allows that machine's origin and its ws(s) form, and nothing else. The
 * list holds no credentials (those stay in the browser, bound to a key). Kept per device in
 * `<state-dir>/machines.json` (0600, atomic).
 */
import { z } from 'zod';
import { HubError } from '../../errors.js';
import { ListFile } from '../../fs/list-file.js';
import { parseHttpUrl } from './http-url.js';

export const MACHINES_FILE = 'machines.json';

const HUB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const hubIdSchema = z.string().regex(HUB_ID, 'a hub id is a lower-case UUID');
export const machineSchema = z.object({ hubId: hubIdSchema, url: z.string(), name: z.string(), addedAt: z.number() });
export type Machine = z.infer<typeof machineSchema>;

/** Entries of the first file version belonged to no device: they are kept as shared ones. */
export const SHARED = '*';
const entrySchema = machineSchema.extend({ tokenId: z.string().min(1).max(256) });
type Entry = z.infer<typeof entrySchema>;

/** `machines.json`: `{version: 2, machines: [...]}`, each entry with its device; a version 1 file is read as shared entries. */
function machinesFile(file: string | undefined): ListFile<Entry> {
  return new ListFile<Entry>(file, {
    key: 'machines',
    version: 2,
    versions: { 1: machineSchema.transform((m) => ({ ...m, tokenId: SHARED })), 2: entrySchema },
  });
}

/** A machine's base URL: http(s), no credentials, query or fragment; a trailing slash is dropped. */
export function normaliseMachineUrl(input: string): string {
  const u = parseHttpUrl(input);
  if (u.search || u.hash) throw new HubError('HUB_ERR_BAD_REQUEST', 'No query or fragment in the address');
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/**
 * Kept per device (the calling token's id): one phone removing a machine must not cut another
 * phone off it, so each device has its own list, CSP `connect-src` is the union of all, and a
 * revoked or expired device's entries go with it (`removeToken`).
 */
export class Machines {
  private entries: Entry[];
  private readonly store: ListFile<Entry>;

  /** `max`: machines per device; `totalMax`: entries over all devices. */
  constructor(
    file: string | undefined,
    private readonly max: number,
    onBadFile: (message: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
    private readonly totalMax: number = Number.POSITIVE_INFINITY,
  ) {
    this.store = machinesFile(file);
    this.entries = this.store.read(onBadFile).slice(0, this.totalMax);
  }

  /** The machines of one device (and the shared ones of a first-version file). */
  list(tokenId: string): Machine[] {
    return this.entries
      .filter(
        (e) => e.tokenId === tokenId || (e.tokenId === SHARED && !this.entries.some((o) => o.tokenId === tokenId && o.hubId === e.hubId)),
      )
      .map(({ hubId, url, name, addedAt }) => ({ hubId, url, name, addedAt }));
  }

  /** Origins the home app may connect to (for CSP `connect-src`): every device's machines. */
  origins(): string[] {
    return [...new Set(this.entries.map((m) => new URL(m.url).origin))];
  }

  /** Adds or updates one device's machine by id (its URL or name may change); refuses past the limits. */
  put(tokenId: string, hubId: string, input: { url: string; name: string }): { machine: Machine; created: boolean } {
    const url = normaliseMachineUrl(input.url);
    const existing = this.entries.find((m) => m.tokenId === tokenId && m.hubId === hubId);
    if (!existing && this.entries.filter((m) => m.tokenId === tokenId).length >= this.max)
      throw new HubError('HUB_ERR_LIMIT', `At most ${this.max} machines; remove one first`, { limit: this.max });
    if (!existing && this.entries.length >= this.totalMax)
      throw new HubError('HUB_ERR_LIMIT', `At most ${this.totalMax} machine entries over all devices`, { limit: this.totalMax });
    const entry: Entry = { hubId, url, name: input.name, addedAt: existing?.addedAt ?? this.now(), tokenId };
    this.entries = existing ? this.entries.map((m) => (m === existing ? entry : m)) : [...this.entries, entry];
    this.save();
    const { tokenId: _owner, ...machine } = entry;
    return { machine, created: !existing };
  }

  /** Removes one device's machine (or a shared one it sees); false when it has none of that id. */
  remove(tokenId: string, hubId: string): boolean {
    const own = this.entries.find((m) => m.tokenId === tokenId && m.hubId === hubId);
    const target = own ?? this.entries.find((m) => m.tokenId === SHARED && m.hubId === hubId);
    if (!target) return false;
    this.entries = this.entries.filter((m) => m !== target);
    this.save();
    return true;
  }

  /** Drops every machine of a revoked or expired device. */
  removeToken(tokenId: string): void {
    const before = this.entries.length;
    this.entries = this.entries.filter((m) => m.tokenId !== tokenId);
    if (this.entries.length !== before) this.save();
  }

  private save(): void {
    this.store.write(this.entries);
  }
}
