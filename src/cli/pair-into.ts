import QRCode from 'qrcode';
import { z } from 'zod';
import { normalisePeerOrigin } from '../http/security/peers.js';
import { callDaemon, type DaemonHandle } from './daemon-client.js';
import { isLoopbackUrl } from './pair-advice.js';
import { addPeer } from './peers.js';
import type { CliIo } from './command-args.js';

const codeSchema = z.object({ code: z.string(), url: z.string(), expiresAt: z.number() });
const meSchema = z.object({ hubId: z.string(), name: z.string() });

/** The link the home app opens to add this machine (docs/SECURITY.md, "Several machines"): everything rides in the fragment. */
export function addLink(home: string, p: { code: string; hub: string; name: string; scope: string; hubId: string }): string {
  return `${home}/#add=${p.code}&hub=${encodeURIComponent(p.hub)}&name=${encodeURIComponent(p.name)}&scope=${p.scope}&id=${p.hubId}`;
}

/** What `pair --into` adds when this machine's link only works on this computer but the home app is elsewhere. */
export function loopbackIntoAdvice(hubUrl: string, home: string): string {
  return [
    '',
    `Note: this machine's address ${new URL(hubUrl).host} is a loopback address; the app at ${home} cannot reach it from another device. Either:`,
    `  - on the same network: zcode-hub start --host 0.0.0.0 --public-url http://<this computer's LAN address>:${new URL(hubUrl).port || '8377'}`,
    '  - through a tunnel: zcode-hub public-url add https://<the tunnel name>',
    '  and run this command again.',
    '',
  ].join('\n');
}

/**
 * `zcode-hub pair --into <home app origin>`: makes the home app's origin a peer
 * of this hub, creates a one-time code and prints the link that opens the home app on
 * "Add <this machine>?". Returns the exit code.
 */
export async function runPairInto(
  daemon: DaemonHandle,
  stateDir: string,
  into: string,
  scope: 'view' | 'operate',
  opts: { json?: boolean; noQr?: boolean },
  io: CliIo,
): Promise<number> {
  let home: string;
  try {
    home = normalisePeerOrigin(into);
  } catch (err) {
    io.stderr.write(`zcode-hub pair: --into ${into}: ${(err as Error).message}\n`);
    return 2;
  }
  const { added } = await addPeer(daemon, stateDir, home, 'pair');
  const grant = codeSchema.parse(await callDaemon(daemon, 'POST', '/api/pair/codes', { scope }));
  const me = meSchema.parse(await callDaemon(daemon, 'GET', '/api/me'));
  const hub = grant.url.replace(/\/?#pair=.*$/, '');
  const link = addLink(home, { code: grant.code, hub, name: me.name, scope, hubId: me.hubId });
  if (opts.json) {
    io.stdout.write(
      `${JSON.stringify({ link, code: grant.code, hub, name: me.name, scope, hubId: me.hubId, expiresAt: grant.expiresAt, peerAdded: added })}\n`,
    );
  } else {
    io.stdout.write(
      added
        ? `Added ${home} to this hub's peers (zcode-hub peers remove ${home} undoes it).\n`
        : `${home} is already a peer of this hub.\n`,
    );
    const minutes = Math.max(1, Math.round((grant.expiresAt - Date.now()) / 60_000));
    io.stdout.write(
      `Add "${me.name}" (scope ${scope}) from the app at ${home}: code ${grant.code}, single use, valid for ${minutes} min\n`,
    );
    io.stdout.write(`Open on the phone: ${link}\n`);
    if (!opts.noQr) io.stdout.write(`\n${await QRCode.toString(link, { type: 'terminal', small: true })}\n`);
  }
  if (isLoopbackUrl(hub) && !isLoopbackUrl(home)) io.stderr.write(loopbackIntoAdvice(hub, home));
  return 0;
}
