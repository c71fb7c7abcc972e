/**
 * WebSocket tickets. Browsers cannot set headers on a WebSocket, so a client
 * whose token is DPoP-bound (or any client that would otherwise put its token in the URL)
 * first asks `POST /api/ws-ticket` — with its proof — and opens `/acp?ticket=…`. A ticket is
 * random (256 bits), single use, lives `wsTicketTtlMs`, is bound to the Origin it was asked
 * from, and is kept only as a hash, beside the credential it stands for (re-checked when it is
 * used, so a token revoked in between opens nothing). It is never logged.
 */
import { createHash, randomBytes } from 'node:crypto';

interface Entry {
  credential: string;
  origin: string | undefined;
  expiresAt: number;
}

function hashOf(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

export class WsTickets {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(private readonly opts: { ttlMs: number; max: number; now?: () => number }) {
    this.now = opts.now ?? Date.now;
  }

  /** A new ticket for `credential`, usable once from `origin` (undefined = a client that sends none). */
  issue(credential: string, origin: string | undefined): { ticket: string; expiresAt: number } {
    this.prune();
    const ticket = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + this.opts.ttlMs;
    this.entries.set(hashOf(ticket), { credential, origin, expiresAt });
    // Past `max` the oldest outstanding ticket is dropped (Maps iterate in insertion order).
    while (this.entries.size > this.opts.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return { ticket, expiresAt };
  }

  /** Consumes a ticket: its credential once, when unexpired and used from the Origin it was issued to. */
  redeem(ticket: string, origin: string | undefined): string | undefined {
    this.prune();
    const key = hashOf(ticket);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Used up even when the Origin is wrong: a ticket that leaked to another page is gone.
    this.entries.delete(key);
    return entry.origin === origin ? entry.credential : undefined;
  }

  get size(): number {
    this.prune();
    return this.entries.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
