import fs from 'node:fs';
import path from 'node:path';
import { readHubFile } from './state-files.js';
import { NotRegularFileError, readFileIfExists } from '../fs/secure-file.js';
import { processAlive, processCommandLine, processStartTime } from '../fs/process-alive.js';

/** Thrown when another daemon already owns the state dir. */
export class AlreadyRunningError extends Error {
  constructor(
    readonly pid: number,
    readonly url: string | undefined,
    stateDir: string,
  ) {
    super(`zcode-hub is already running on ${stateDir} (pid ${pid}${url ? `, ${url}` : ''}); stop it first or choose another --state-dir`);
    this.name = 'AlreadyRunningError';
  }
}

interface LockOwner {
  pid: number;
  /** The owner's kernel start time when it took the lock (absent in locks of older versions). */
  startTime?: string;
}

/** The lock's owner; undefined when the lock is unreadable. Anything but a regular file under the name throws (a FIFO would block the start for good). */
function readLock(file: string): LockOwner | undefined {
  try {
    const [pidText, startTime] = (readFileIfExists(file) ?? '').trim().split(/\s+/);
    const pid = Number.parseInt(pidText ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? { pid, ...(startTime ? { startTime } : {}) } : undefined;
  } catch (err) {
    if (err instanceof NotRegularFileError) throw err;
    return undefined;
  }
}

/**
 * Whether the lock's owner is still the daemon that took it. A pid is reused once its process
 * is gone (after a reboot, `daemon.lock` may name pid 1): the kernel start time recorded with
 * the pid must match, or, for a lock without one, the process must look like a zcode-hub
 *. Where /proc cannot be read, a live pid counts as the owner.
 */
function ownerStillRunning(owner: LockOwner): boolean {
  if (!processAlive(owner.pid)) return false;
  const started = processStartTime(owner.pid);
  if (owner.startTime !== undefined && started !== undefined) return started === owner.startTime;
  const cmdline = processCommandLine(owner.pid);
  return cmdline === undefined || /zcode-hub|cli\/main\.[jt]s/.test(cmdline);
}

/**
 * The lock files this process holds now. A lock naming our own pid is stale when we did not
 * take it (a daemon of a previous boot or container whose pid we were given again), but held
 * when a daemon of this process took it and runs still (an embedder or a test starting a second
 * one on the same state dir): the pid alone cannot tell the two apart.
 */
const heldHere = new Set<string>();

/**
 * One daemon per state dir: an exclusive `daemon.lock` file holding our pid. A lock whose
 * owner is dead (a killed daemon) is reclaimed; a live owner — another process, or a daemon of
 * this one — makes the start fail with a message naming it. Returns a release function.
 */
export function acquireInstanceLock(stateDir: string): () => void {
  const file = path.resolve(stateDir, 'daemon.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      const startTime = processStartTime(process.pid);
      fs.writeSync(fd, `${process.pid}${startTime ? ` ${startTime}` : ''}\n`);
      fs.closeSync(fd);
      heldHere.add(file);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(file);
        if (readLock(file)?.pid === process.pid) fs.rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readLock(file);
      const ours = owner?.pid === process.pid;
      if (owner !== undefined && (ours ? heldHere.has(file) : ownerStillRunning(owner))) {
        throw new AlreadyRunningError(owner.pid, readHubFile(stateDir)?.url, stateDir);
      }
      // Stale lock from a daemon that died without cleaning up, or whose pid now names another process: reclaim it.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take the instance lock ${file}`);
}
