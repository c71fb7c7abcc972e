import { z } from 'zod';
import { ConfigError, loadConfig } from '../config/load.js';
import { exitCodeFor, formatReport, runChecks, type Check } from '../doctor/checks.js';
import { gatherFacts } from '../doctor/gather.js';
import { cliDetectionSchema, doctorCheckSchema } from '../doctor/cli-report.js';
import type { CliDetection } from '../backend/cli-candidates.js';
import path from 'node:path';
import { PEERS_FILE, readPeersFile } from '../http/security/peers.js';
import { SecretPaths } from '../fs/secret-paths.js';
import { WorkspaceRoots } from '../fs/workspace-roots.js';

/** Peers added at run time (`zcode-hub peers add`, `pair --into`), from the state dir. */
function addedPeers(stateDir: string): string[] {
  return readPeersFile(path.join(stateDir, PEERS_FILE)).map((p) => p.origin);
}
import { callDaemon, failureReason, findDaemon } from './daemon-client.js';
import { parseWithStartFlags } from './command-args.js';
import { commandSpec } from './commands.js';

const SPEC = commandSpec('doctor')!;

const reportSchema = z.object({ checks: z.array(doctorCheckSchema), cli: cliDetectionSchema.optional() });

/**
 * `zcode-hub doctor [start flags]`: asks the running daemon (GET /api/doctor) for its live
 * report, or checks the configuration offline when none runs. Exits 1 when anything fails.
 */
export async function runDoctor(argv: string[]): Promise<number> {
  const parsed = parseWithStartFlags(SPEC, argv, process);
  if (typeof parsed === 'number') return parsed;
  const { line, startArgs } = parsed;
  if (line.flag('probe')) return (await import('./doctor-probe.js')).runProbeCli(line, startArgs);
  const probeOnly = ['daemon', 'probe-no-prompt'].find((o) => line.flag(o));
  if (probeOnly !== undefined) {
    process.stderr.write(`zcode-hub doctor: --${probeOnly} goes with --probe (see \`zcode-hub doctor --help\`)\n`);
    return 2;
  }
  const json = line.string('json');
  if (json) {
    process.stderr.write(
      `zcode-hub doctor: --json takes a FILE only with --probe; without it the report goes to stdout (see \`zcode-hub doctor --help\`)\n`,
    );
    return 2;
  }
  let config;
  try {
    config = loadConfig(startArgs);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`zcode-hub doctor: ${err.message} (see \`zcode-hub doctor --help\`)\n`);
      return 2;
    }
    throw err;
  }
  const daemon = findDaemon(config.stateDir);
  let checks: Check[];
  let cli: CliDetection | undefined;
  const offline = async () => {
    const facts = gatherFacts(config, false, undefined, config.port, addedPeers(config.stateDir));
    // Only offline: a daemon with such a root never started (startDaemon refuses it).
    facts.privateWorkspaceRoots = await new WorkspaceRoots(config.workspaces, new SecretPaths(config)).privateRoots();
    cli = facts.cliDetection;
    return runChecks(facts);
  };
  if (daemon) {
    try {
      const report = reportSchema.parse(await callDaemon(daemon, 'GET', '/api/doctor'));
      checks = report.checks.map((c) => ({
        id: c.id,
        status: c.status,
        message: c.message,
        ...(c.fix ? { fix: c.fix } : {}),
        ...(c.details ? { details: c.details } : {}),
      }));
      cli = report.cli as CliDetection | undefined;
    } catch (err) {
      checks = await offline();
      checks.unshift({
        id: 'daemon',
        status: 'fail',
        message: `a daemon runs (pid ${daemon.hub.pid}) but did not answer: ${failureReason(err)}`,
        fix: 'check its log, or stop it and start again',
      });
    }
  } else {
    checks = await offline();
  }
  if (json !== undefined) process.stdout.write(`${JSON.stringify({ checks, ...(cli ? { cli } : {}) }, null, 2)}\n`);
  else process.stdout.write(formatReport(checks));
  return exitCodeFor(checks);
}
