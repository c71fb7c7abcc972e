import { z } from 'zod';
import { AuditLog } from '../auth/audit-log.js';
import { SCOPES, type Scope } from '../auth/identity.js';
import { ensureJwtSecret } from '../auth/jwt-secret.js';
import { ADMIN_IDENTITY, TokenManager } from '../auth/token-manager.js';
import { TokenRegistry } from '../auth/token-registry.js';
import { parseTtl } from '../auth/ttl.js';
import { personNameSchema } from '../auth/people.js';
import { ensureAdminToken } from '../auth/admin-token.js';
import { LIMITS } from '../limits.js';
import { tokenView, tokenViewSchema, type TokenView } from '../http/routes/tokens.js';
import { callDaemon, findDaemon } from './daemon-client.js';
import path from 'node:path';
import { configSchema } from '../config/schema.js';
import { parseCommand, type CliIo } from './command-args.js';
import { commandSpec } from './commands.js';

/** The state dir a sub-command works on: `--state-dir`, else ZCODE_HUB_STATE_DIR, else the config default. */
export function resolveStateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(configSchema.shape.stateDir.parse(flag ?? (env.ZCODE_HUB_STATE_DIR || undefined)));
}

const SPEC = commandSpec('token')!;

const createdSchema = z.object({ token: z.string(), info: tokenViewSchema });
const listSchema = z.object({ tokens: z.array(tokenViewSchema) });
const revokedSchema = z.object({ info: tokenViewSchema });

/** The offline path: the same token manager the daemon uses, on the state dir's files. */
export function offline(stateDir: string): { tokens: TokenManager; audit: AuditLog } {
  const adminToken = ensureAdminToken(stateDir);
  const tokens = new TokenManager({
    adminToken,
    secret: ensureJwtSecret(stateDir),
    registry: TokenRegistry.open(stateDir),
    expirySweepMs: LIMITS.tokenExpirySweepMs,
    verifiedTokensMax: LIMITS.verifiedTokensMax,
  });
  return { tokens, audit: new AuditLog(stateDir) };
}

export function date(ms: number | undefined): string {
  return ms === undefined ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function table(rows: TokenView[]): string {
  const head = ['ID', 'NAME', 'PERSON', 'SCOPE', 'STATE', 'CREATED', 'EXPIRES', 'LAST SEEN'];
  const cells = rows.map((t) => [t.id, t.name, t.person, t.scope, t.state, date(t.createdAt), date(t.expiresAt), date(t.lastSeenAt)]);
  return columns(head, cells);
}

/** Rows as space-padded columns under a header. */
export function columns(head: string[], cells: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  return [head, ...cells]
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `zcode-hub token create|list|revoke` (ARCHITECTURE.md §9). Returns the exit code. */
export async function runTokenCli(argv: string[], io: CliIo): Promise<number> {
  const line = parseCommand(SPEC, argv, io);
  if (typeof line === 'number') return line;
  const sub = line.sub?.name;
  const positionals = line.args;
  const values: TokenFlags = {
    scope: line.string('scope'),
    name: line.string('name'),
    person: line.string('person'),
    ttl: line.string('ttl'),
    json: line.flag('json'),
  };
  const stateDir = resolveStateDir(line.string('state-dir'), io.env);
  const daemon = findDaemon(stateDir);
  try {
    switch (sub) {
      case 'create':
        return await createToken(values, stateDir, daemon, io);
      case 'list': {
        const tokens = daemon
          ? listSchema.parse(await callDaemon(daemon, 'GET', '/api/tokens')).tokens
          : offline(stateDir)
              .tokens.list()
              .map((t) => tokenView(t));
        io.stdout.write(values.json ? `${JSON.stringify({ tokens })}\n` : `${table(tokens)}\n`);
        return 0;
      }
      case 'revoke': {
        const id = positionals[0];
        if (!id) {
          io.stderr.write('zcode-hub token revoke: give the token ID (see `zcode-hub token list`)\n');
          return 2;
        }
        const info = daemon
          ? revokedSchema.parse(await callDaemon(daemon, 'DELETE', `/api/tokens/${encodeURIComponent(id)}`)).info
          : revokeOffline(stateDir, id);
        if (!info) {
          io.stderr.write(`zcode-hub token revoke: no token ${id}\n`);
          return 1;
        }
        io.stdout.write(values.json ? `${JSON.stringify({ info })}\n` : `revoked ${info.id} '${info.name}'\n`);
        return 0;
      }
      default:
        throw new Error(`no such sub-command in the command table: ${sub}`);
    }
  } catch (err) {
    io.stderr.write(`zcode-hub token ${sub}: ${(err as Error).message}\n`);
    return 1;
  }
}

async function createOffline(
  stateDir: string,
  input: { name: string; person?: string; scope: Scope; ttlMs: number },
): Promise<{ token: string; info: TokenView }> {
  const { tokens, audit } = offline(stateDir);
  const issued = await tokens.create({ ...input, via: 'cli' });
  const { record } = issued;
  audit.record({
    identity: ADMIN_IDENTITY,
    action: 'token.create',
    detail: { id: record.id, name: record.name, person: record.person, scope: record.scope, expiresAt: record.expiresAt, offline: true },
  });
  return { token: issued.token, info: tokenView(issued.record) };
}

function revokeOffline(stateDir: string, id: string): TokenView | undefined {
  if (id === 'admin') throw new Error('the admin token is replaced by deleting <state-dir>/admin.token');
  const { tokens, audit } = offline(stateDir);
  const record = tokens.revoke(id);
  if (record) audit.record({ identity: ADMIN_IDENTITY, action: 'token.revoke', detail: { id, name: record.name, offline: true } });
  return record ? tokenView(record) : undefined;
}

/** The flags of `token create` and `token list`, as given. */
interface TokenFlags {
  scope: string | undefined;
  name: string | undefined;
  person: string | undefined;
  ttl: string | undefined;
  json: boolean;
}

/** `token create`: checks the flags, then asks the running daemon (or writes the token file itself when none runs). */
async function createToken(values: TokenFlags, stateDir: string, daemon: ReturnType<typeof findDaemon>, io: CliIo): Promise<number> {
  const scope = z.enum(SCOPES).safeParse(values.scope);
  if (!scope.success || !values.name) {
    io.stderr.write(`zcode-hub token create: --scope (view|operate|admin) and --name are required\n`);
    return 2;
  }
  const person = values.person === undefined ? undefined : personNameSchema.safeParse(values.person);
  if (person && !person.success) {
    io.stderr.write(`zcode-hub token create: --person: ${person.error.issues[0]?.message ?? 'not a person name'}\n`);
    return 2;
  }
  const ttlMs = values.ttl === undefined ? LIMITS.deviceTokenDefaultTtlMs : parseTtl(values.ttl);
  if (ttlMs === undefined) {
    io.stderr.write(`zcode-hub token create: --ttl must look like 30m, 12h, 7d or 2w (at most a year)\n`);
    return 2;
  }
  const created = daemon
    ? createdSchema.parse(
        await callDaemon(daemon, 'POST', '/api/tokens', {
          name: values.name,
          ...(person ? { person: person.data } : {}),
          scope: scope.data,
          ...(values.ttl ? { ttl: values.ttl } : {}),
        }),
      )
    : await createOffline(stateDir, { name: values.name, ...(person ? { person: person.data } : {}), scope: scope.data, ttlMs });
  if (values.json) {
    io.stdout.write(`${JSON.stringify(created)}\n`);
  } else {
    // The token alone on stdout (scriptable); the note on stderr.
    io.stdout.write(`${created.token}\n`);
    io.stderr.write(
      `token ${created.info.id} '${created.info.name}' (${created.info.scope}) of ${created.info.person} expires ${date(created.info.expiresAt)}; shown once, store it now\n`,
    );
  }
  return 0;
}
