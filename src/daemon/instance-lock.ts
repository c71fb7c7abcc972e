import fs from 'node:fs';
import path from 'node:path';
import { readHubFile } from './state-files.js';
import { processAlive } from '../fs/process-alive.js';

/** Thrown when another daemon already owns the state dir. */
export class AlreadyRunningError extends Error {
  constructor(readonly pid: number, readonly url: string | undefined, stateDir: string) {
    super(`zcode-hub is already running on ${stateDir} (pid ${pid}${url ? `, ${url}` : ''}); stop it first or choose another --state-dir`);
    this.name = 'AlreadyRunningError';
  }
}

function readLockPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One daemon per state dir: an exclusive `daemon.lock` file holding our pid. A lock whose
 * owner is dead (a killed daemon) is reclaimed; a live owner makes the start fail with a
 * message naming it. Returns a release function.
 */
export function acquireInstanceLock(stateDir: string): () => void {
  const file = path.join(stateDir, 'daemon.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (readLockPid(file) === process.pid) fs.rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readLockPid(file);
      if (owner !== undefined && owner !== process.pid && processAlive(owner)) {
        throw new AlreadyRunningError(owner, readHubFile(stateDir)?.url, stateDir);
      }
      // Stale lock from a daemon that died without cleaning up: reclaim it.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take the instance lock ${file}`);
}
