import { spawn, type SpawnOptions } from 'node:child_process';

/** What a finished child process printed, and its exit status. */
export interface Exited {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end without blocking the test's event loop (several may run at once),
 * stdin closed, stdout and stderr collected.
 */
export function runToExit(command: string, args: readonly string[], options: Omit<SpawnOptions, 'stdio'> = {}): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}
