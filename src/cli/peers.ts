import path from 'node:path';
import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { Peers, PEERS_FILE, peerEntrySchema, type PeerEntry } from '../http/security/peers.js';
import { callDaemon, findDaemon, type DaemonHandle } from './daemon-client.js';
import { parseCommand, type CliIo } from './command-args.js';
import { commandSpec } from './commands.js';
import { resolveStateDir } from './token.js';

const SPEC = commandSpec('peers')!;

const listSchema = z.object({ peers: z.array(peerEntrySchema) });

/** Adds `origin` as a peer through the daemon (applied at once) or the file; returns the entry and whether it is new. */
export async function addPeer(
  daemon: DaemonHandle | undefined,
  stateDir: string,
  origin: string,
  via: 'cli' | 'pair',
): Promise<{ peer: PeerEntry; added: boolean }> {
  if (daemon)
    return z.object({ peer: peerEntrySchema, added: z.boolean() }).parse(await callDaemon(daemon, 'POST', '/api/peers', { origin, via }));
  const { entry, added } = new Peers(path.join(stateDir, PEERS_FILE), LIMITS.peersMax).add(origin, via);
  return { peer: entry, added };
}

function printList(io: CliIo, peers: readonly PeerEntry[], json: boolean | undefined): void {
  if (json) {
    io.stdout.write(`${JSON.stringify({ peers })}\n`);
    return;
  }
  if (peers.length === 0) io.stdout.write("no peers: only this hub's own pages may call it\n");
  for (const p of peers)
    io.stdout.write(`${p.origin}   (${p.via === 'flag' ? '--peer' : `added ${new Date(p.addedAt).toISOString()} via ${p.via}`})\n`);
}

/** `zcode-hub peers add|list|remove`. Returns the exit code. */
export async function runPeersCli(argv: string[], io: CliIo): Promise<number> {
  const line = parseCommand(SPEC, argv, io);
  if (typeof line === 'number') return line;
  const action = line.sub?.name;
  const [origin] = line.args;
  if (action !== 'list' && !origin) {
    io.stderr.write(`zcode-hub peers ${action}: give the ORIGIN, e.g. zcode-hub peers ${action} https://home.example.net\n`);
    return 2;
  }
  const stateDir = resolveStateDir(line.string('state-dir'), io.env);
  const daemon = findDaemon(stateDir);
  const file = path.join(stateDir, PEERS_FILE);
  try {
    if (action === 'add' && origin) {
      const { peer, added } = await addPeer(daemon, stateDir, origin, 'cli');
      io.stdout.write(
        added
          ? `added peer ${peer.origin}${daemon ? '; the hub accepts it now' : '; the hub accepts it from its next start'}\n`
          : `${peer.origin} is already a peer\n`,
      );
      return 0;
    }
    if (action === 'remove' && origin) {
      if (daemon) {
        listSchema.parse(await callDaemon(daemon, 'DELETE', `/api/peers/${encodeURIComponent(origin)}`));
      } else {
        const outcome = new Peers(file, LIMITS.peersMax).remove(origin);
        if (outcome === 'missing') throw new Error(`${origin} is not a peer`);
      }
      io.stdout.write(`removed peer ${origin}${daemon ? '; its next request is refused' : ''}\n`);
      return 0;
    }
    const peers = daemon ? listSchema.parse(await callDaemon(daemon, 'GET', '/api/peers')).peers : new Peers(file, LIMITS.peersMax).list();
    printList(io, peers, line.flag('json'));
    return 0;
  } catch (err) {
    io.stderr.write(`zcode-hub peers ${action}: ${(err as Error).message}\n`);
    return 1;
  }
}
