import fs from 'node:fs';

/**
 * Whether a process with this pid exists on this host (`kill(pid, 0)` probes without
 * signalling). Conservative: anything but ESRCH (no such process) counts as alive, so a lock
 * or a pidfile is never reclaimed from an owner we merely may not signal.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Whether `pid` has exited: gone, or a zombie (Linux `/proc/<pid>/stat` state Z) — exited, but
 * its parent has not collected its status yet, which `kill(pid, 0)` still sees.
 */
export function processExited(pid: number): boolean {
  if (!processAlive(pid)) return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** The kernel's start time of `pid` (Linux `/proc/<pid>/stat` field 22), or undefined where unknown. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The command line of `pid` (Linux), or undefined where it cannot be read. */
export function processCommandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return undefined;
  }
}
