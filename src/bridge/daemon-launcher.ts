import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePrivateDir, openRegularFile, OWN_FILE_FLAGS, readFileIfExists } from '../fs/secure-file.js';
import { processAlive } from '../fs/process-alive.js';
import { findDaemon, type DaemonHandle } from '../cli/daemon-client.js';
import type { Logger } from '../logger.js';
import { DAEMON_NODE_FLAGS } from '../daemon/node-flags.js';
import { readLastAddress } from '../daemon/state-files.js';
import { configSchema } from '../config/schema.js';

/** How long to wait for a daemon we started (or another editor started) to write hub.json. */
export const DAEMON_START_TIMEOUT_MS = 20_000;
const POLL_MS = 100;

function binPath(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'zcode-hub.js');
}

/**
 * Waits until a live daemon answers for `stateDir`, or the deadline passes. `signal` (the editor
 * went away) ends the wait at once with an AbortError.
 */
export async function waitForDaemon(stateDir: string, timeoutMs: number, signal?: AbortSignal): Promise<DaemonHandle | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    const handle = findDaemon(stateDir);
    if (handle) {
      try {
        const timeout = AbortSignal.timeout(1_000);
        const res = await fetch(new URL('/api/health', handle.hub.url), { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
        if (res.ok) return handle;
      } catch {
        // Listening is imminent once hub.json exists; poll again.
      }
    }
    await sleep(POLL_MS, undefined, signal ? { signal } : {});
  }
  return undefined;
}

/** Flags that choose where the daemon listens; when the editor gives none, its last address is reused. */
const ADDRESS_FLAGS = ['--host', '--port', '--config'];

/**
 * `--host H --port P` of the state dir's last run when neither the bridge's flags nor the
 * environment choose an address: a phone bookmarked on that port finds the hub the bridge starts.
 */
export function lastAddressArgs(stateDir: string, startArgs: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const chosen = startArgs.some((a) => ADDRESS_FLAGS.some((f) => a === f || a.startsWith(`${f}=`)));
  if (chosen || env.ZCODE_HUB_HOST || env.ZCODE_HUB_PORT) return [];
  const last = readLastAddress(stateDir);
  return last ? ['--host', last.host, '--port', String(last.port)] : [];
}

/**
 * What the bridge tells the person reading the editor's log when it started the daemon itself:
 * a sentence, not a log record — the daemon outlives the editor, so they must learn where it
 * runs and how to stop it.
 */
export function startedNotice(handle: DaemonHandle, stateDir: string, onLastAddress: boolean): string {
  const where = onLastAddress ? ", where this state dir's hub last ran" : '';
  // The state dir is named unless it is the default one, so the command works as printed.
  const defaultDir = path.resolve(configSchema.shape.stateDir.parse(undefined));
  const stopArgs = path.resolve(stateDir) === defaultDir ? '' : ` --state-dir ${/[^\w./~-]/.test(stateDir) ? `'${stateDir}'` : stateDir}`;
  return (
    `zcode-hub acp: no hub was running, so I started one on ${handle.hub.url}${where} (state dir ${stateDir}, ` +
    `log ${path.join(stateDir, 'daemon.log')}); it keeps running after this editor closes — stop it with \`zcode-hub stop${stopArgs}\`.\n`
  );
}

/**
 * Returns the running daemon, starting it detached when none runs. A start lock in the state
 * dir makes two editors launching at once start one daemon: the loser waits for the winner.
 * `signal` stops the wait (a daemon already spawned keeps starting: it outlives the bridge).
 */
export async function ensureDaemon(
  stateDir: string,
  startArgs: string[],
  logger: Logger,
  signal?: AbortSignal,
  /** Called with the sentence for a person (startedNotice) when this call started the daemon. */
  notice: (text: string) => void = () => {},
): Promise<DaemonHandle> {
  const running = findDaemon(stateDir);
  if (running) return running;
  ensurePrivateDir(stateDir);
  const lock = path.join(stateDir, 'acp-start.lock');
  let owner = false;
  try {
    fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
    owner = true;
  } catch {
    // Anything but a regular file under the lock's name is refused with a sentence naming it (a FIFO would block here for good).
    const pid = Number.parseInt(readFileIfExists(lock) ?? '', 10);
    if (!Number.isInteger(pid) || !processAlive(pid)) {
      fs.rmSync(lock, { force: true });
      return ensureDaemon(stateDir, startArgs, logger, signal, notice);
    }
  }
  let started: { onLastAddress: boolean } | undefined;
  try {
    if (owner && !findDaemon(stateDir)) {
      const log = openRegularFile(path.join(stateDir, 'daemon.log'), OWN_FILE_FLAGS.append, { mode: 0o600 });
      const address = lastAddressArgs(stateDir, startArgs, process.env);
      const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, binPath(), 'start', '--state-dir', stateDir, ...address, ...startArgs], {
        detached: true,
        stdio: ['ignore', log, log],
        env: process.env,
      });
      child.unref();
      fs.closeSync(log);
      if (address.length > 0)
        logger.info(
          { daemonPid: child.pid, stateDir, host: address[1], port: Number(address[3]) },
          `started the zcode-hub daemon on ${address[1]}:${address[3]}, where this state dir's hub last ran`,
        );
      else logger.info({ daemonPid: child.pid, stateDir }, 'started the zcode-hub daemon');
      started = { onLastAddress: address.length > 0 };
    }
    const handle = await waitForDaemon(stateDir, DAEMON_START_TIMEOUT_MS, signal);
    if (!handle)
      throw new Error(`zcode-hub did not start within ${DAEMON_START_TIMEOUT_MS / 1000} s; see ${path.join(stateDir, 'daemon.log')}`);
    if (started) notice(startedNotice(handle, stateDir, started.onLastAddress));
    return handle;
  } finally {
    if (owner) fs.rmSync(lock, { force: true });
  }
}
