import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ADMIN_IDENTITY } from '../auth/token-manager.js';
import { personNameSchema } from '../auth/people.js';
import { groupByPerson, personViewSchema, type PersonView } from '../http/routes/people.js';
import { tokenView, tokenViewSchema, type TokenView } from '../http/routes/tokens.js';
import { callDaemon, findDaemon } from './daemon-client.js';
import { columns, date, offline, resolveStateDir, type CliIo } from './token.js';

const USAGE = `Usage:
  zcode-hub people [list] [--json]        people and their device tokens
  zcode-hub people set TOKEN_ID PERSON    give a device token to another person
Common: [--state-dir DIR]. Talks to the running daemon; works on the state dir directly when
no daemon runs. A token's person is who the hub shows beside its prompts and answers
(docs/SECURITY.md "People"); only an admin sets it.
`;

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
  let values: { 'state-dir'?: string; json?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { 'state-dir': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    io.stderr.write(`zcode-hub people: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [sub = 'list', ...args] = positionals;
  if (values.help || sub === 'help') {
    io.stdout.write(USAGE);
    return 0;
  }
  const stateDir = resolveStateDir(values['state-dir'], io.env);
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
        if (!id || rawPerson === undefined || args.length > 2) {
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
        io.stderr.write(`zcode-hub people: unknown sub-command '${sub}'\n\n${USAGE}`);
        return 2;
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
