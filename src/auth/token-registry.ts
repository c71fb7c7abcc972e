import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';
import { SCOPES } from './identity.js';

/** File name of the device-token registry in the state dir (mode 0600). */
export const TOKENS_FILE = 'tokens.json';

/**
 * `lastSeenAt` reaches the file at most this long after a use: the uses of every token within it
 * are written together, once, so busy tokens do not rewrite the file per request.
 */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

export const tokenRecordSchema = z.object({
  /** The token's `jti`. */
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  /** Whose device this is (docs/SECURITY.md "People"); records written before people existed read as their name. */
  person: z.string().min(1).max(200),
  scope: z.enum(SCOPES),
  createdAt: z.number(),
  expiresAt: z.number(),
  lastSeenAt: z.number().optional(),
  revokedAt: z.number().optional(),
  /** How it was made: `token create` / `POST /api/tokens`, or a pairing code. */
  via: z.enum(['cli', 'api', 'pairing']),
  /** DPoP-bound: the thumbprint of the device's key; the token is refused without a proof by it. */
  jkt: z.string().min(1).max(100).optional(),
  /** The app origin a cross-origin pairing came from. */
  origin: z.string().max(2048).optional(),
});
export type TokenRecord = z.infer<typeof tokenRecordSchema>;

/** A record as stored: one from before people existed has no `person` and migrates to its name. */
const storedRecordSchema = tokenRecordSchema.extend({ person: tokenRecordSchema.shape.person.optional() });
const registryFileSchema = z.object({ version: z.literal(1), tokens: z.array(storedRecordSchema) });

/** Thrown when tokens.json exists but is not ours: the hub refuses to overwrite it blindly. */
export class TokenRegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenRegistryError';
  }
}

/**
 * The persisted list of issued device tokens (name, scope, created, last seen, revoked).
 * Every change is written atomically (temp + fsync + rename, 0600); revocation is by `jti`.
 */
export class TokenRegistry {
  private readonly file: string;
  private readonly records = new Map<string, TokenRecord>();
  /** The write of the `lastSeenAt` values of the uses since the last one. */
  private seenWrite: NodeJS.Timeout | undefined;

  private constructor(
    stateDir: string,
    private readonly onError: (err: unknown) => void,
  ) {
    this.file = path.join(stateDir, TOKENS_FILE);
  }

  /** Opens (or starts) the registry of a state dir; `onError` hears a failed write of last-seen times (nothing waits on it). */
  static open(stateDir: string, onError: (err: unknown) => void = () => undefined): TokenRegistry {
    ensurePrivateDir(stateDir);
    const registry = new TokenRegistry(stateDir, onError);
    registry.load();
    return registry;
  }

  private load(): void {
    const text = readFileIfExists(this.file);
    if (text === undefined) return;
    if ((fs.statSync(this.file).mode & 0o077) !== 0) fs.chmodSync(this.file, 0o600);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new TokenRegistryError(`${this.file} is not valid JSON; fix or remove it`);
    }
    const parsed = registryFileSchema.safeParse(json);
    if (!parsed.success) throw new TokenRegistryError(`${this.file} does not match the token registry schema; fix or remove it`);
    let migrated = false;
    for (const stored of parsed.data.tokens) {
      migrated ||= stored.person === undefined;
      this.records.set(stored.id, { ...stored, person: stored.person ?? stored.name });
    }
    if (migrated) this.persist();
  }

  private persist(): void {
    const body = { version: 1 as const, tokens: [...this.records.values()] };
    writeFileAtomic(this.file, `${JSON.stringify(body, null, 2)}\n`);
  }

  /** Every record, newest first. */
  list(): TokenRecord[] {
    return [...this.records.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  get(id: string): TokenRecord | undefined {
    return this.records.get(id);
  }

  /** Adds a record and persists it before the token is handed out. */
  add(record: TokenRecord): void {
    this.records.set(record.id, tokenRecordSchema.parse(record));
    this.persist();
  }

  /** Marks a record revoked; returns it, or undefined when unknown. Idempotent. */
  revoke(id: string, now: number): TokenRecord | undefined {
    const record = this.records.get(id);
    if (!record) return undefined;
    if (record.revokedAt === undefined) {
      record.revokedAt = now;
      this.persist();
    }
    return record;
  }

  /** Gives a token to another person; returns the person it had, or undefined when the id is unknown. */
  setPerson(id: string, person: string): { from: string; record: TokenRecord } | undefined {
    const record = this.records.get(id);
    if (!record) return undefined;
    const from = record.person;
    if (from !== person) {
      record.person = person;
      this.persist();
    }
    return { from, record };
  }

  /** Every person who holds a token (revoked and expired ones included: their history still names them). */
  people(): Set<string> {
    return new Set([...this.records.values()].map((r) => r.person));
  }

  /** Records a use; on disk within LAST_SEEN_RESOLUTION_MS, with every other use of that time (one write). */
  touch(id: string, now: number): void {
    const record = this.records.get(id);
    if (!record) return;
    record.lastSeenAt = now;
    if (this.seenWrite) return;
    this.seenWrite = setTimeout(() => {
      this.seenWrite = undefined;
      this.persistSeen();
    }, LAST_SEEN_RESOLUTION_MS);
    this.seenWrite.unref();
  }

  /** Writes the last-seen times still waiting for their write (at stop). */
  close(): void {
    if (!this.seenWrite) return;
    clearTimeout(this.seenWrite);
    this.seenWrite = undefined;
    this.persistSeen();
  }

  private persistSeen(): void {
    try {
      this.persist();
    } catch (err) {
      // Last-seen times are a convenience: the next use schedules another write.
      this.onError(err);
    }
  }
}
