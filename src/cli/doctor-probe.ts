import path from 'node:path';
import { BackendConfigError } from '../backend/index.js';
import { ConfigError, loadConfig } from '../config/load.js';
import { probeBackend } from '../doctor/probe-run.js';
import { formatProbeReport, type ProbeReport } from '../doctor/probe-report.js';
import { probeReportSchema } from '../doctor/cli-report.js';
import { callDaemon, DaemonRefused, findDaemon } from './daemon-client.js';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/secure-file.js';
import { createLogger } from '../logger.js';
import type { ParsedCommand } from './command-args.js';

/** How often `--daemon` asks whether the daemon's probe finished. */
const DAEMON_PROBE_POLL_MS = 500;

const jobSchema = z.looseObject({ state: z.string(), error: z.string().optional(), report: z.unknown().optional() });

/** `--daemon`: starts the daemon's probe, polls it, returns its report (or a message why not). */
async function probeThroughDaemon(stateDir: string, prompt: boolean): Promise<ProbeReport | string> {
  const daemon = findDaemon(stateDir);
  if (!daemon) return `--daemon: no daemon is running on ${stateDir} (start it, or drop --daemon to probe with these flags)`;
  try {
    await callDaemon(daemon, 'POST', '/api/doctor/probe', { prompt });
  } catch (err) {
    // 409: a probe (the web app's) already runs; its report is the one to wait for.
    if (!(err instanceof DaemonRefused && err.status === 409)) return `--daemon: ${(err as Error).message}`;
  }
  for (;;) {
    const job = jobSchema.parse(await callDaemon(daemon, 'GET', '/api/doctor/probe'));
    if (job.state === 'done') return probeReportSchema.parse(job.report) as ProbeReport;
    if (job.state === 'failed') return `--daemon: the daemon's probe could not run: ${job.error ?? ''}`;
    await new Promise((r) => setTimeout(r, DAEMON_PROBE_POLL_MS));
  }
}

/**
 * `zcode-hub doctor --probe [--json FILE] [--probe-no-prompt] [--daemon] [start flags]`: runs the
 * scripted conversation against its own child of the backend the start flags choose (with
 * `--daemon`: the one the running daemon was started with, run by the daemon) and prints the
 * table (src/doctor/probe.ts). Exits 0 when every row is ok or skipped, 1 otherwise, 2 on bad flags.
 */
export async function runProbeCli(line: ParsedCommand, startArgs: string[]): Promise<number> {
  const file = line.string('json');
  if (file === '') {
    process.stderr.write('zcode-hub doctor: --json needs a FILE with --probe (e.g. --json probe.json)\n');
    return 2;
  }
  const flags = {
    json: file === undefined ? undefined : path.resolve(file),
    prompt: !line.flag('probe-no-prompt'),
    daemon: line.flag('daemon'),
  };
  let config;
  try {
    config = loadConfig(startArgs);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`zcode-hub doctor --probe: ${err.message} (see \`zcode-hub doctor --help\`)\n`);
      return 2;
    }
    throw err;
  }
  // The hub's log goes to stderr, quiet unless asked: the report is the output.
  const logger = createLogger({
    level: startArgs.some((a) => a.startsWith('--log-level=')) ? config.logLevel : 'silent',
    destination: process.stderr,
  });
  let report: ProbeReport;
  if (flags.daemon) {
    if (config.recordWire) {
      process.stderr.write('zcode-hub doctor: --daemon cannot --record-wire (the daemon does not record its probe); drop one\n');
      return 2;
    }
    const r = await probeThroughDaemon(config.stateDir, flags.prompt);
    if (typeof r === 'string') {
      process.stderr.write(`zcode-hub doctor: ${r}\n`);
      return 2;
    }
    process.stdout.write(formatProbeReport(r));
    if (flags.json) writeFileAtomic(flags.json, `${JSON.stringify(r, null, 2)}\n`);
    return r.verdict === 'pass' ? 0 : 1;
  }
  try {
    report = await probeBackend({ config, logger, prompt: flags.prompt });
  } catch (err) {
    if (err instanceof BackendConfigError) {
      process.stderr.write(`zcode-hub doctor: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  process.stdout.write(formatProbeReport(report));
  if (flags.json) writeFileAtomic(flags.json, `${JSON.stringify(report, null, 2)}\n`);
  return report.verdict === 'pass' ? 0 : 1;
}
