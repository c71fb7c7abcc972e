/**
 * Peers: the app origins this hub accepts, the editable successor of
 * `--allow-origin`. A listed origin gets CORS on `/api/*` (bearer or DPoP, never cookies) and
 * passes the Origin check, including the WebSocket upgrade; cross-origin pairing
 * (`delivery: 'token'`) is accepted only from one. Origins given with `--peer`/`--allow-origin`
 * are listed as `via: 'flag'` and live as long as the flag (not written to the file, not
 * removable at run time); the rest are kept in `<state-dir>/peers.json` (0600, atomic) and
 * take effect on the next request, without a restart.
 */
import { z } from 'zod';
import { HubError } from '../../errors.js';
import { ListFile } from '../../fs/list-file.js';
import { normalisePublicUrl } from './public-urls.js';

export const PEERS_FILE = 'peers.json';
export const PEER_VIA = ['flag', 'cli', 'api', 'pair'] as const;
export type PeerVia = (typeof PEER_VIA)[number];

export const peerEntrySchema = z.object({ origin: z.string(), addedAt: z.number(), via: z.enum(PEER_VIA) });
export type PeerEntry = z.infer<typeof peerEntrySchema>;

/** `peers.json`: `{version: 1, peers: [...]}`; an origin that no longer normalises is dropped on read. */
function peersFile(file: string | undefined): ListFile<PeerEntry> {
  return new ListFile(file, {
    key: 'peers',
    version: 1,
    versions: { 1: peerEntrySchema },
    normalise: (p) => ({ ...p, origin: normalisePeerOrigin(p.origin) }),
  });
}

/** `scheme://host[:port]` of an app origin; throws HUB_ERR_BAD_REQUEST saying why. */
export function normalisePeerOrigin(input: string): string {
  return normalisePublicUrl(input);
}

/** Reads a peers file; an unreadable one yields [] and a message (the hub still starts). */
export function readPeersFile(file: string, onBadFile: (message: string) => void = () => undefined): PeerEntry[] {
  return peersFile(file).read(onBadFile);
}

export class Peers {
  private readonly configured: PeerEntry[];
  private stored: PeerEntry[];
  private readonly now: () => number;
  private readonly store: ListFile<PeerEntry>;

  /** `file` undefined = in memory only; `configured` = the `--peer`/`--allow-origin` origins. */
  constructor(
    file: string | undefined,
    private readonly max: number,
    configured: readonly string[] = [],
    onBadFile: (message: string) => void = () => undefined,
    now: () => number = Date.now,
  ) {
    this.now = now;
    this.store = peersFile(file);
    const started = now();
    const origins = [
      ...new Set(
        configured.flatMap((c) => {
          try {
            return [normalisePeerOrigin(c)];
          } catch {
            return [];
          }
        }),
      ),
    ];
    this.configured = origins.map((origin) => ({ origin, addedAt: started, via: 'flag' as const }));
    this.stored = this.store
      .read(onBadFile)
      .filter((p) => !origins.includes(p.origin))
      .slice(0, max);
  }

  /** Every peer: the flag ones first, then the added ones, oldest first. */
  list(): PeerEntry[] {
    return [...this.configured, ...this.stored].map((p) => ({ ...p }));
  }

  /** True when `origin` (as a browser sends it) is a peer. */
  has(origin: string): boolean {
    return this.configured.some((p) => p.origin === origin) || this.stored.some((p) => p.origin === origin);
  }

  /** Adds a peer (idempotent: an origin already listed keeps its entry); refuses past `max`. */
  add(input: string, via: Exclude<PeerVia, 'flag'>): { entry: PeerEntry; added: boolean } {
    const origin = normalisePeerOrigin(input);
    const existing = [...this.configured, ...this.stored].find((p) => p.origin === origin);
    if (existing) return { entry: { ...existing }, added: false };
    if (this.stored.length >= this.max)
      throw new HubError('HUB_ERR_LIMIT', `At most ${this.max} peers; remove one first`, { limit: this.max });
    const entry: PeerEntry = { origin, addedAt: this.now(), via };
    this.stored = [...this.stored, entry];
    this.save();
    return { entry: { ...entry }, added: true };
  }

  /** Removes an added peer; `configured` when it comes from a flag (restart without it instead). */
  remove(input: string): 'removed' | 'missing' | 'configured' {
    const origin = normalisePeerOrigin(input);
    if (this.configured.some((p) => p.origin === origin)) return 'configured';
    if (!this.stored.some((p) => p.origin === origin)) return 'missing';
    this.stored = this.stored.filter((p) => p.origin !== origin);
    this.save();
    return 'removed';
  }

  /** Flag peers are never stored: they live as long as the flag. */
  private save(): void {
    this.store.write(this.stored.filter((p) => p.via !== 'flag'));
  }
}
