import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { ensurePrivateDir, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';
import { processAlive } from '../fs/process-alive.js';
import { BACKEND_BOUNDS } from './bounds.js';

/** `<stateDir>/backend.pid`: who the hub spawned, so a child orphaned by a killed hub is found later. */
export const PidRecordSchema = z.object({
  pid: z.number().int().positive(),
  /** Epoch ms when the child was spawned. */
  startedAt: z.number(),
  /** argv of the child, command first. */
  command: z.array(z.string()).min(1),
  hubPid: z.number().int().positive().optional(),
});
export type PidRecord = z.infer<typeof PidRecordSchema>;

export function writePidfile(file: string, record: PidRecord): void {
  ensurePrivateDir(path.dirname(file));
  writeFileAtomic(file, `${JSON.stringify(record)}\n`);
}

/** Reads the pidfile; undefined when absent or unreadable. */
export function readPidfile(file: string): PidRecord | undefined {
  let text: string | undefined;
  try {
    text = readFileIfExists(file);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const parsed = PidRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the pidfile when it still names `pid` (or unconditionally without one). */
export function removePidfile(file: string, pid?: number): void {
  if (pid !== undefined && readPidfile(file)?.pid !== pid) return;
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Best effort: a stale pidfile is verified before anyone acts on it.
  }
}

/** What the orphan check needs from the OS; injected for tests. */
export interface ProcessInspector {
  alive(pid: number): boolean;
  /** argv of a running process, or undefined when it cannot be read. */
  commandLine(pid: number): string[] | undefined;
  /** Start time in epoch ms, or undefined when unknown. */
  startTime(pid: number): number | undefined;
  kill(pid: number, signal: NodeJS.Signals): void;
}

/** Linux reads /proc; other Unixes ask `ps`; Windows cannot verify (and so never kills). */
export function osProcessInspector(platform: NodeJS.Platform = process.platform): ProcessInspector {
  return {
    // A zombie (exited, not yet reaped by its parent) counts as gone.
    alive: (pid) => processAlive(pid) && !(platform === 'linux' && linuxState(pid) === 'Z'),
    kill: (pid, signal) => process.kill(pid, signal),
    commandLine(pid) {
      if (platform === 'linux') {
        try {
          const raw = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          const argv = raw.split('\0');
          if (argv.at(-1) === '') argv.pop();
          return argv.length > 0 ? argv : undefined;
        } catch {
          return undefined;
        }
      }
      if (platform === 'win32') return undefined;
      try {
        const out = execFileSync('ps', ['-ww', '-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 }).trim();
        return out ? [out] : undefined;
      } catch {
        return undefined;
      }
    },
    startTime(pid) {
      if (platform === 'linux') return linuxStartTime(pid);
      if (platform === 'win32') return undefined;
      try {
        const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 }).trim();
        const t = Date.parse(out);
        return Number.isFinite(t) ? t : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

function linuxState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/stat field 22 (start ticks after boot) + btime; USER_HZ is 100 on every mainstream kernel. */
function linuxStartTime(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const afterComm = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(afterComm[19]);
    const btimeLine = fs
      .readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('btime '));
    const btime = Number(btimeLine?.split(' ')[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(btime)) return undefined;
    return (btime + ticks / 100) * 1000;
  } catch {
    return undefined;
  }
}

/** True when `actual` (argv, or one `ps` string) is the command recorded in the pidfile. */
export function sameCommand(recorded: string[], actual: string[]): boolean {
  if (actual.length === recorded.length && actual.every((a, i) => a === recorded[i])) return true;
  return actual.length === 1 && actual[0] === recorded.join(' ');
}

export type OrphanOutcome = 'no-pidfile' | 'not-running' | 'not-ours' | 'unverifiable' | 'killed' | 'survived';

/**
 * Cleans up after a hub that was killed while its child ran: when the pidfile's process still
 * runs the recorded command (and started when recorded), it gets SIGTERM, then SIGKILL after
 * `graceMs`. Anything else (pid reused by another program, cannot verify) is left alone.
 * The pidfile is removed in every case.
 */
export async function cleanupOrphan(file: string, inspector: ProcessInspector, graceMs: number, logger: Logger): Promise<OrphanOutcome> {
  const record = readPidfile(file);
  if (!record) {
    removePidfile(file);
    return 'no-pidfile';
  }
  const outcome = await killIfOurs(record, inspector, graceMs, logger);
  removePidfile(file);
  return outcome;
}

async function killIfOurs(record: PidRecord, inspector: ProcessInspector, graceMs: number, logger: Logger): Promise<OrphanOutcome> {
  const { pid } = record;
  if (pid === process.pid || !inspector.alive(pid)) return 'not-running';
  const argv = inspector.commandLine(pid);
  if (!argv) {
    logger.warn({ childPid: pid }, 'a stale backend pidfile names a running process that cannot be verified; leaving it alone');
    return 'unverifiable';
  }
  if (!sameCommand(record.command, argv)) return 'not-ours';
  const started = inspector.startTime(pid);
  if (started !== undefined && Math.abs(started - record.startedAt) > BACKEND_BOUNDS.pidStartToleranceMs) return 'not-ours';
  logger.warn({ childPid: pid }, 'stopping a backend child orphaned by a previous hub');
  const gone = async (ms: number): Promise<boolean> => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (!inspector.alive(pid)) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return !inspector.alive(pid);
  };
  try {
    inspector.kill(pid, 'SIGTERM');
  } catch {
    return 'not-running';
  }
  if (await gone(graceMs)) return 'killed';
  try {
    inspector.kill(pid, 'SIGKILL');
  } catch {
    return 'killed';
  }
  if (await gone(graceMs)) return 'killed';
  logger.error({ childPid: pid }, 'an orphaned backend child survived SIGKILL');
  return 'survived';
}
