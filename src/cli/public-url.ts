import { z } from 'zod';
import { callDaemon, findDaemon } from './daemon-client.js';
import { parseCommand, type CliIo } from './command-args.js';
import { commandSpec } from './commands.js';
import { resolveStateDir } from './token.js';

const SPEC = commandSpec('public-url')!;

const listSchema = z.object({ configured: z.string().optional(), added: z.array(z.string()) });

/** `zcode-hub public-url add|remove|list`. Returns the exit code. */
export async function runPublicUrlCli(argv: string[], io: CliIo): Promise<number> {
  const line = parseCommand(SPEC, argv, io);
  if (typeof line === 'number') return line;
  const action = line.sub?.name;
  const [url] = line.args;
  if (action !== 'list' && !url) {
    io.stderr.write(`zcode-hub public-url ${action}: give the URL, e.g. zcode-hub public-url ${action} https://my-hub.trycloudflare.com\n`);
    return 2;
  }
  const daemon = findDaemon(resolveStateDir(line.string('state-dir'), io.env));
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
    io.stderr.write(`zcode-hub public-url ${action}: ${(err as Error).message}\n`);
    return 1;
  }
}
