import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processExited } from '../fs/process-alive.js';
import { LIMITS } from '../limits.js';
import { parseCommand, type CliIo } from './command-args.js';
import { commandSpec } from './commands.js';
import { callDaemon, failureReason, findDaemon } from './daemon-client.js';
import { resolveStateDir } from './token.js';

const SPEC = commandSpec('stop')!;
const POLL_MS = 100;

/**
 * `zcode-hub stop`: SIGTERM to the daemon of the state dir — after it answered as that hub with
 * the admin token, so a pid hub.json names but another program now holds is never signalled —
 * then waits for it to exit, up to `waitMs`. Returns the exit code.
 */
export async function runStopCli(argv: string[], io: CliIo, waitMs: number = LIMITS.stopWaitMs): Promise<number> {
  const line = parseCommand(SPEC, argv, io);
  if (typeof line === 'number') return line;
  const stateDir = resolveStateDir(line.string('state-dir'), io.env);
  const daemon = findDaemon(stateDir);
  if (!daemon) {
    io.stdout.write(`no hub is running for state dir ${stateDir}\n`);
    return 0;
  }
  const { pid, url } = daemon.hub;
  try {
    await callDaemon(daemon, 'GET', '/api/me');
  } catch (err) {
    io.stderr.write(
      `zcode-hub stop: process ${pid} named in ${path.join(stateDir, 'hub.json')} does not answer as this hub at ${url} ` +
        `(${failureReason(err)}); not stopping it. If it is the hub, \`kill ${pid}\` stops it.\n`,
    );
    return 1;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (processExited(pid)) {
      io.stdout.write(`stopped the hub on ${url} (pid ${pid})\n`);
      return 0;
    }
    if (Date.now() >= deadline) break;
    await sleep(POLL_MS);
  }
  io.stderr.write(
    `zcode-hub stop: the hub (pid ${pid}) was asked to stop but still runs after ${waitMs / 1000} s; ` +
      `its log says why (${path.join(stateDir, 'daemon.log')} when an editor started it); \`kill -9 ${pid}\` ends it at once.\n`,
  );
  return 1;
}
