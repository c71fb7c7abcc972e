import { z } from 'zod';
import { ADMIN_IDENTITY } from '../auth/token-manager.js';
import { personNameSchema } from '../auth/people.js';
import { groupByPerson, personViewSchema, type PersonView } from '../http/routes/people.js';
import { tokenView, tokenViewSchema, type TokenView } from '../http/routes/tokens.js';
import { callDaemon, findDaemon } from './daemon-client.js';
import { parseCommand, type CliIo } from './command-args.js';
import { commandSpec } from './commands.js';
import { columns, date, offline, resolveStateDir } from './token.js';

const SPEC = commandSpec('people')!;

const listSchema = z.object({ people: z.array(personViewSchema) });
const changedSchema = z.object({ info: tokenViewSchema });

function table(people: PersonView[]): string {
  const cells = people.map((p) => [
    p.person,
    `${p.active}/${p.tokens.length}${p.admin ? ' + admin token' : ''}`,
    date(p.lastSeenAt),
    p.tokens.map((t) => t.name).join(', ') || '-',
  ]);
  return columns(['PERSON', 'ACTIVE/TOKENS', 'LAST SEEN', 'DEVICES'], cells);
}

/** `zcode-hub people list|set` (docs/SECURITY.md "People"). Returns the exit code. */
export async function runPeopleCli(argv: string[], io: CliIo): Promise<number> {
  const line = parseCommand(SPEC, argv, io);
  if (typeof line === 'number') return line;
  const sub = line.sub?.name;
  const args = line.args;
  const values = { json: line.flag('json') };
  const stateDir = resolveStateDir(line.string('state-dir'), io.env);
  const daemon = findDaemon(stateDir);
  try {
    switch (sub) {
      case 'list': {
        const people = daemon
          ? listSchema.parse(await callDaemon(daemon, 'GET', '/api/people')).people
          : groupByPerson(
              offline(stateDir)
                .tokens.list()
                .map((t) => tokenView(t)),
            );
        io.stdout.write(values.json ? `${JSON.stringify({ people })}\n` : `${table(people)}\n`);
        return 0;
      }
      case 'set': {
        const [id, rawPerson] = args;
        if (!id || rawPerson === undefined) {
          io.stderr.write('zcode-hub people set: give the token ID (see `zcode-hub token list`) and the person, e.g. set 1f… ann\n');
          return 2;
        }
        if (id === 'admin') {
          io.stderr.write("zcode-hub people set: the admin token's person is always admin\n");
          return 2;
        }
        const person = personNameSchema.safeParse(rawPerson);
        if (!person.success) {
          io.stderr.write(`zcode-hub people set: ${person.error.issues[0]?.message ?? 'not a person name'}\n`);
          return 2;
        }
        const info = daemon
          ? changedSchema.parse(await callDaemon(daemon, 'PATCH', `/api/tokens/${encodeURIComponent(id)}`, { person: person.data })).info
          : setOffline(stateDir, id, person.data);
        if (!info) {
          io.stderr.write(`zcode-hub people set: no token ${id}\n`);
          return 1;
        }
        io.stdout.write(values.json ? `${JSON.stringify({ info })}\n` : `${info.id} '${info.name}' is now ${info.person}'s\n`);
        return 0;
      }
      default:
        throw new Error(`no such sub-command in the command table: ${sub}`);
    }
  } catch (err) {
    io.stderr.write(`zcode-hub people ${sub}: ${(err as Error).message}\n`);
    return 1;
  }
}

function setOffline(stateDir: string, id: string, person: string): TokenView | undefined {
  const { tokens, audit } = offline(stateDir);
  const changed = tokens.setPerson(id, person);
  if (!changed) return undefined;
  audit.record({
    identity: ADMIN_IDENTITY,
    action: 'token.person',
    detail: { id, name: changed.record.name, from: changed.from, to: person, offline: true },
  });
  return tokenView(changed.record);
}
