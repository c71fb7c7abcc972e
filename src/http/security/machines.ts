/**
 * Machines (issue 18 item 2, home side): the other hubs the web app served from this hub talks
 * to. The app records one when it adds a machine; this hub's Content-Security-Policy
 * `connect-src` then allows that machine's origin and its ws(s) form, and nothing else. The
 * list holds no credentials (those stay in the browser, bound to a key). Kept in
 * `<state-dir>/machines.json` (0600, atomic).
 */
import { z } from 'zod';
import { HubError } from '../../errors.js';
import { readFileIfExists, writeFileAtomic } from '../../fs/secure-file.js';
import { parseHttpUrl } from './http-url.js';

export const MACHINES_FILE = 'machines.json';

const HUB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const hubIdSchema = z.string().regex(HUB_ID, 'a hub id is a lower-case UUID');
export const machineSchema = z.object({ hubId: hubIdSchema, url: z.string(), name: z.string(), addedAt: z.number() });
export type Machine = z.infer<typeof machineSchema>;

const fileSchema = z.object({ version: z.literal(1), machines: z.array(machineSchema) });

/** A machine's base URL: http(s), no credentials, query or fragment; a trailing slash is dropped. */
export function normaliseMachineUrl(input: string): string {
  const u = parseHttpUrl(input);
  if (u.search || u.hash) throw new HubError('HUB_ERR_BAD_REQUEST', 'No query or fragment in the address');
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export class Machines {
  private machines: Machine[] = [];

  constructor(
    private readonly file: string | undefined,
    private readonly max: number,
    onBadFile: (message: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    const text = file ? readFileIfExists(file) : undefined;
    if (text === undefined) return;
    try {
      this.machines = fileSchema.parse(JSON.parse(text)).machines.slice(0, max);
    } catch (err) {
      onBadFile(`ignoring unreadable ${file}: ${(err as Error).message}`);
    }
  }

  list(): Machine[] {
    return this.machines.map((m) => ({ ...m }));
  }

  /** Origins the home app may connect to (for CSP `connect-src`). */
  origins(): string[] {
    return [...new Set(this.machines.map((m) => new URL(m.url).origin))];
  }

  /** Adds or updates a machine by id (its URL or name may change); refuses past `max`. */
  put(hubId: string, input: { url: string; name: string }): { machine: Machine; created: boolean } {
    const url = normaliseMachineUrl(input.url);
    const existing = this.machines.find((m) => m.hubId === hubId);
    if (!existing && this.machines.length >= this.max)
      throw new HubError('HUB_ERR_LIMIT', `At most ${this.max} machines; remove one first`, { limit: this.max });
    const machine: Machine = { hubId, url, name: input.name, addedAt: existing?.addedAt ?? this.now() };
    this.machines = existing ? this.machines.map((m) => (m.hubId === hubId ? machine : m)) : [...this.machines, machine];
    this.save();
    return { machine: { ...machine }, created: !existing };
  }

  remove(hubId: string): boolean {
    const before = this.machines.length;
    this.machines = this.machines.filter((m) => m.hubId !== hubId);
    if (this.machines.length === before) return false;
    this.save();
    return true;
  }

  private save(): void {
    if (this.file) writeFileAtomic(this.file, `${JSON.stringify({ version: 1, machines: this.machines }, null, 2)}\n`);
  }
}
