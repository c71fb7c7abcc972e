import { parseArgs } from 'node:util';
import { z } from 'zod';
import { callDaemon, findDaemon } from './daemon-client.js';
import { resolveStateDir, type CliIo } from './token.js';

const USAGE = `Usage: zcode-hub public-url add URL | remove URL | list [--state-dir DIR]
Tells the running daemon another public address it answers to (e.g. a tunnel's
https://<name>.trycloudflare.com), without a restart. Kept across restarts.
`;

const listSchema = z.object({ configured: z.string().optional(), added: z.array(z.string()) });

/** `zcode-hub public-url add|remove|list`. Returns the exit code. */
export async function runPublicUrlCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { 'state-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    io.stderr.write(`zcode-hub public-url: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const [action, url] = parsed.positionals;
  if (!(action === 'list' || ((action === 'add' || action === 'remove') && url))) {
    io.stderr.write(USAGE);
    return 2;
  }
  const daemon = findDaemon(resolveStateDir(parsed.values['state-dir'], io.env));
  if (!daemon) {
    io.stderr.write(
      'zcode-hub public-url: no running daemon for this state dir; start it with `zcode-hub start --public-url URL` instead\n',
    );
    return 1;
  }
  try {
    const path = '/api/settings/public-urls';
    const body =
      action === 'add'
        ? await callDaemon(daemon, 'POST', path, { url })
        : action === 'remove'
          ? await callDaemon(daemon, 'DELETE', `${path}?url=${encodeURIComponent(url ?? '')}`)
          : await callDaemon(daemon, 'GET', path);
    const list = listSchema.parse(body);
    if (list.configured) io.stdout.write(`${list.configured}   (--public-url)\n`);
    for (const u of list.added) io.stdout.write(`${u}\n`);
    // An empty list says so: a silent `list` reads as a command that did nothing.
    if (!list.configured && list.added.length === 0)
      io.stdout.write('no public URL: the hub answers only at its own address (a tunnel: zcode-hub public-url add URL)\n');
    if (action === 'add') io.stdout.write('added; the hub answers to it now. Next: zcode-hub pair\n');
    return 0;
  } catch (err) {
    io.stderr.write(`zcode-hub public-url: ${(err as Error).message}\n`);
    return 1;
  }
}
