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
