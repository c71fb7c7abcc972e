import QRCode from 'qrcode';
import { z } from 'zod';
import { SCOPES } from '../auth/identity.js';
import { personNameSchema } from '../auth/people.js';
import { callDaemon, findDaemon } from './daemon-client.js';
import { isLoopbackUrl, loopbackAdvice } from './pair-advice.js';
import { runPairInto } from './pair-into.js';
import { parseCommand, type CliIo } from './command-args.js';
import { commandSpec } from './commands.js';
import { resolveStateDir } from './token.js';

const SPEC = commandSpec('pair')!;

const codeSchema = z.object({
  code: z.string(),
  url: z.string(),
  scope: z.enum(SCOPES),
  person: z.string().optional(),
  expiresAt: z.number(),
});

/** `zcode-hub pair` (ARCHITECTURE.md §7, §9). Returns the exit code. */
export async function runPairCli(argv: string[], io: CliIo): Promise<number> {
  const line = parseCommand(SPEC, argv, io);
  if (typeof line === 'number') return line;
  const values = {
    scope: line.string('scope'),
    person: line.string('person'),
    into: line.string('into'),
    json: line.flag('json'),
    'no-qr': line.flag('no-qr'),
  };
  const scope = z.enum(SCOPES).safeParse(values.scope ?? 'operate');
  if (!scope.success) {
    io.stderr.write(`zcode-hub pair: --scope must be view, operate or admin\n`);
    return 2;
  }
  if (values.into !== undefined && scope.data === 'admin') {
    io.stderr.write('zcode-hub pair: --into pairs operate or view only; admin is never paired from another origin\n');
    return 2;
  }
  const person = values.person === undefined ? undefined : personNameSchema.safeParse(values.person);
  if (person && !person.success) {
    io.stderr.write(`zcode-hub pair: --person: ${person.error.issues[0]?.message ?? 'not a person name'}\n`);
    return 2;
  }
  if (person && values.into !== undefined) {
    io.stderr.write('zcode-hub pair: --person is for a device paired to this hub; --into adds this hub to another app\n');
    return 2;
  }
  const stateDir = resolveStateDir(line.string('state-dir'), io.env);
  const daemon = findDaemon(stateDir);
  if (!daemon) {
    io.stderr.write(
      'zcode-hub pair: no running daemon for this state dir (pairing codes live in the daemon); start it with `zcode-hub start`\n',
    );
    return 1;
  }
  try {
    if (values.into !== undefined)
      return await runPairInto(
        daemon,
        stateDir,
        values.into,
        scope.data === 'view' ? 'view' : 'operate',
        { json: values.json, noQr: values['no-qr'] },
        io,
      );
    const grant = codeSchema.parse(
      await callDaemon(daemon, 'POST', '/api/pair/codes', { scope: scope.data, ...(person ? { person: person.data } : {}) }),
    );
    if (values.json) {
      io.stdout.write(`${JSON.stringify(grant)}\n`);
      return 0;
    }
    const minutes = Math.max(1, Math.round((grant.expiresAt - Date.now()) / 60_000));
    const whose = grant.person === undefined ? '' : `, for ${grant.person}`;
    io.stdout.write(`Pairing code: ${grant.code}   (scope ${grant.scope}${whose}, single use, valid for ${minutes} min)\n`);
    io.stdout.write(`Open on the device: ${grant.url}\n`);
    if (!values['no-qr']) io.stdout.write(`\n${await QRCode.toString(grant.url, { type: 'terminal', small: true })}\n`);
    // A loopback link and QR code look fine and open nowhere but here: say so, with the fixes.
    if (isLoopbackUrl(grant.url)) io.stderr.write(loopbackAdvice(grant.url));
    return 0;
  } catch (err) {
    io.stderr.write(`zcode-hub pair: ${(err as Error).message}\n`);
    return 1;
  }
}
