import { parseArgs } from 'node:util';
import QRCode from 'qrcode';
import { z } from 'zod';
import { SCOPES } from '../auth/identity.js';
import { personNameSchema } from '../auth/people.js';
import { callDaemon, findDaemon } from './daemon-client.js';
import { isLoopbackUrl, loopbackAdvice } from './pair-advice.js';
import { runPairInto } from './pair-into.js';
import { resolveStateDir, type CliIo } from './token.js';

const USAGE = `Usage: zcode-hub pair [--scope view|operate|admin] [--person PERSON] [--into ORIGIN] [--state-dir DIR] [--json] [--no-qr]
Asks the running daemon for a one-time pairing code (5 minutes, single use) and prints it with
a URL and a QR code. Open the URL on the device, or type the code into the web app.
--person PERSON makes the paired device PERSON's (default: a new person named after the device).
--into ORIGIN adds this machine to the app served at ORIGIN (another hub's web app): ORIGIN
becomes a peer of this hub and the link opens that app on "Add <this machine>?" (scope
operate or view; never admin).
`;

const codeSchema = z.object({
  code: z.string(),
  url: z.string(),
  scope: z.enum(SCOPES),
  person: z.string().optional(),
  expiresAt: z.number(),
});

/** `zcode-hub pair` (ARCHITECTURE.md §7, §9). Returns the exit code. */
export async function runPairCli(argv: string[], io: CliIo): Promise<number> {
  let values: { 'state-dir'?: string; scope?: string; person?: string; into?: string; json?: boolean; 'no-qr'?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'state-dir': { type: 'string' },
        scope: { type: 'string' },
        person: { type: 'string' },
        into: { type: 'string' },
        json: { type: 'boolean' },
        'no-qr': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    io.stderr.write(`zcode-hub pair: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
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
  const stateDir = resolveStateDir(values['state-dir'], io.env);
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
        { json: values.json ?? false, noQr: values['no-qr'] ?? false },
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
