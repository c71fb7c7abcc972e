/**
 * The personal provider file store (ARCHITECTURE.md §6, APP-SERVER.md §9). Reads are lock-free
 * (the file is only ever replaced atomically, so a read sees a whole version) and carry an
 * ETag = hash of the bytes. Every write:
 *   lock (`<file>.lock`, shared with the desktop app) → re-read → If-Match check → edit the
 *   draft → validate the whole result strictly (§9.2) → canonical bytes (§9.3) → back up the
 *   old bytes → temp + fsync + rename + fsync dir (0600) → unlock.
 * A file that is invalid on disk is reported and only replaced by a result that validates.
 * The store never rewrites on read: canonicalising someone else's file is the CLI's business.
 */
import { jsonSyntaxProblem } from './json-error.js';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HubError } from '../errors.js';
import type { Logger } from '../logger.js';
import { atomicWritePrivateFile, cleanStaleTempFiles, ensurePrivateDir } from './atomic-write.js';
import { BackupStore, DEFAULT_BACKUPS_KEPT, type BackupInfo } from './backups.js';
import { FileLockTimeoutError, withFileLock, type FileLockOptions } from './file-lock.js';
import { emptyDraft, toDraft, type ProviderDraft } from './provider-draft.js';
import type { ProviderFileHealth } from './provider-resource.js';
import { encodeProviderDocument, validateProviderDocument, type PersonalProviderFile, type ProviderIssue } from './provider-schema.js';

export interface ProviderStoreOptions {
  /** The personal provider file (`ZCODE_PERSONAL_PROVIDER_CONFIG_FILE`, §9.4). */
  filePath: string;
  /** Where previous versions go; default `<dir>/.<file>.backups`. */
  backupDir?: string;
  backupsKept?: number;
  lock?: FileLockOptions;
  logger?: Logger;
}

/** One observed version of the file. */
export interface ProviderSnapshot {
  etag: string;
  exists: boolean;
  health: ProviderFileHealth;
  /** Lenient structure (null when not even the skeleton parses); an empty draft for a missing file. */
  draft: ProviderDraft | null;
  /** The strictly valid document, when it is valid. */
  doc: PersonalProviderFile | null;
}

export interface WriteOptions {
  /** The ETag the client read; a mismatch is a 412 (optimistic concurrency). */
  ifMatch?: string | undefined;
}

/** ETag of the missing file. */
export const ABSENT_ETAG = '"absent"';

/** Strong ETag of the file's bytes. */
export function etagOf(bytes: Uint8Array | null): string {
  if (bytes === null) return ABSENT_ETAG;
  return `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;
}

/** `If-Match` semantics (RFC 9110 §13.1.1), strong comparison; `*` matches any existing file. */
export function etagMatches(ifMatch: string, current: string, exists: boolean): boolean {
  return ifMatch
    .split(',')
    .map((t) => t.trim())
    .some((t) => (t === '*' ? exists : t === current || `"${t}"` === current));
}

function errno(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** Builds a snapshot from raw bytes (pure apart from hashing). */
export function snapshotOf(bytes: Buffer | null): ProviderSnapshot {
  const etag = etagOf(bytes);
  if (bytes === null) return { etag, exists: false, health: { status: 'missing', issues: [] }, draft: emptyDraft(), doc: null };
  let raw: unknown;
  const text = bytes.toString('utf8');
  try {
    raw = JSON.parse(text);
  } catch (error) {
    // Never the parser's message: it quotes the file, and the file holds keys.
    return {
      etag,
      exists: true,
      health: { status: 'invalid', issues: [{ path: '', message: jsonSyntaxProblem(error, text) }] },
      draft: null,
      doc: null,
    };
  }
  const result = validateProviderDocument(raw);
  const draft = toDraft(raw);
  if (result.ok) return { etag, exists: true, health: { status: 'valid', issues: [] }, draft, doc: result.value };
  return { etag, exists: true, health: { status: 'invalid', issues: result.issues }, draft, doc: null };
}

export class ProviderStore {
  readonly filePath: string;
  readonly backups: BackupStore;
  private readonly lockOptions: FileLockOptions;
  private readonly logger: Logger | undefined;
  /** Serializes this process's writers so they queue here instead of polling the lock directory. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(options: ProviderStoreOptions) {
    this.filePath = options.filePath;
    const backupDir = options.backupDir ?? join(dirname(options.filePath), `.${basename(options.filePath)}.backups`);
    this.backups = new BackupStore(backupDir, options.backupsKept ?? DEFAULT_BACKUPS_KEPT);
    this.lockOptions = options.lock ?? {};
    this.logger = options.logger;
  }

  /** Start-up: create the directory (0700) if missing and remove temp files of dead writers (CFG-01). */
  async start(): Promise<{ removedTempFiles: string[] }> {
    await ensurePrivateDir(dirname(this.filePath));
    const removedTempFiles = await cleanStaleTempFiles(this.filePath);
    if (removedTempFiles.length > 0) this.logger?.warn({ count: removedTempFiles.length }, 'removed stale provider temp files');
    return { removedTempFiles };
  }

  /** The current version of the file (no lock needed: versions are replaced atomically). */
  async read(): Promise<ProviderSnapshot> {
    return snapshotOf(await this.readBytes());
  }

  /** Applies `edit` to the current draft and writes the result if it validates. */
  async update(edit: (draft: ProviderDraft) => ProviderDraft, options: WriteOptions = {}): Promise<ProviderSnapshot> {
    return this.write((current) => {
      if (current.draft === null) {
        throw new HubError(
          'HUB_ERR_CONFLICT',
          'The provider file on disk is not a readable provider document; fix it by hand or restore a backup',
          {
            reason: 'file_invalid',
            issues: current.health.issues,
          },
        );
      }
      return edit(current.draft);
    }, options);
  }

  /** Replaces the whole document (used by restore); it must validate. */
  async replace(doc: unknown, options: WriteOptions = {}): Promise<ProviderSnapshot> {
    return this.write(() => doc, options);
  }

  /** Previous versions, newest first. */
  async listBackups(): Promise<(BackupInfo & { valid: boolean })[]> {
    const out: (BackupInfo & { valid: boolean })[] = [];
    for (const info of await this.backups.list()) {
      const bytes = await this.backups.read(info.id);
      out.push({ ...info, valid: bytes !== null && snapshotOf(bytes).health.status === 'valid' });
    }
    return out;
  }

  /** Writes a backup back as the current version (itself backed up first). */
  async restoreBackup(id: string, options: WriteOptions = {}): Promise<ProviderSnapshot> {
    const bytes = await this.backups.read(id);
    if (bytes === null) throw new HubError('HUB_ERR_NOT_FOUND', `No backup ${id}`, { backupId: id });
    const snapshot = snapshotOf(bytes);
    if (snapshot.doc === null) {
      throw new HubError('HUB_ERR_UNPROCESSABLE', `Backup ${id} is not a valid provider file`, {
        reason: 'backup_invalid',
        issues: snapshot.health.issues,
      });
    }
    return this.replace(snapshot.doc, options);
  }

  private async readBytes(): Promise<Buffer | null> {
    try {
      return await readFile(this.filePath);
    } catch (error) {
      if (errno(error) === 'ENOENT') return null;
      throw error;
    }
  }

  private write(produce: (current: ProviderSnapshot) => unknown, options: WriteOptions): Promise<ProviderSnapshot> {
    const run = this.chain.then(() => this.writeLocked(produce, options));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async writeLocked(produce: (current: ProviderSnapshot) => unknown, options: WriteOptions): Promise<ProviderSnapshot> {
    await ensurePrivateDir(dirname(this.filePath));
    try {
      return await withFileLock(this.filePath, () => this.commit(produce, options), this.lockOptions);
    } catch (error) {
      if (error instanceof FileLockTimeoutError) {
        throw new HubError('HUB_ERR_CONFLICT', 'The provider file is locked by another process; try again', { reason: 'locked' });
      }
      throw error;
    }
  }

  private async commit(produce: (current: ProviderSnapshot) => unknown, options: WriteOptions): Promise<ProviderSnapshot> {
    const bytes = await this.readBytes();
    const current = snapshotOf(bytes);
    if (options.ifMatch !== undefined && !etagMatches(options.ifMatch, current.etag, current.exists)) {
      throw new HubError('HUB_ERR_PRECONDITION', undefined, { etag: current.etag });
    }
    const next = produce(current);
    const result = validateProviderDocument(next);
    if (!result.ok) throw this.rejection(current, result.issues);
    const encoded = Buffer.from(encodeProviderDocument(result.value), 'utf8');
    if (bytes !== null && encoded.equals(bytes)) return current;
    if (bytes !== null) await this.backups.save(bytes);
    await atomicWritePrivateFile(this.filePath, encoded);
    // A key that left the file (its provider deleted, or the key replaced) must not live on in a
    // backup: it is taken out of every backup (a restore brings the provider back keyless).
    if (bytes !== null) {
      const kept = secretValues(result.value);
      const gone = [...secretValues(parseLoose(bytes))].filter((v) => !kept.has(v));
      if (gone.length > 0) {
        const scrubbed = await this.backups.scrubValues(gone);
        this.logger?.info({ scrubbed }, 'a removed key was taken out of the backups');
      }
    }
    this.logger?.info(
      { etag: etagOf(encoded), providers: result.value.config.providerConfigRules.providerRules.length },
      'provider file written',
    );
    return snapshotOf(encoded);
  }

  /** A result that does not validate: the request's fault on a valid file, the file's fault otherwise. */
  private rejection(current: ProviderSnapshot, issues: ProviderIssue[]): HubError {
    if (current.health.status === 'invalid') {
      return new HubError(
        'HUB_ERR_CONFLICT',
        'The provider file on disk is invalid and this change would not make it valid; it was left untouched',
        {
          reason: 'file_invalid',
          issues,
        },
      );
    }
    return new HubError('HUB_ERR_BAD_REQUEST', 'The change would make the provider file invalid', { reason: 'schema', issues });
  }
}

/** Keys whose string values are credentials, at any depth of a provider document. */
const SECRET_FIELD = /api[-_]?key|secret|token|password|authorization/i;

/** Every credential value in a document (strings of 8+ characters under a credential-named key). */
export function secretValues(doc: unknown): Set<string> {
  const out = new Set<string>();
  const stack: unknown[] = [doc];
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    if (v === null || typeof v !== 'object') continue;
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      if (typeof child === 'string' && child.length >= 8 && SECRET_FIELD.test(k)) out.add(child);
      else if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return out;
}

function parseLoose(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
}
