import path from 'node:path';
import { BackendConfigError } from '../backend/index.js';
import { ConfigError, loadConfig } from '../config/load.js';
import { probeBackend } from '../doctor/probe-run.js';
import { formatProbeReport } from '../doctor/probe-report.js';
import { writeFileAtomic } from '../fs/secure-file.js';
import { createLogger } from '../logger.js';

/** The probe's own flags; everything else is a start flag. */
interface ProbeFlags {
  json?: string;
  prompt: boolean;
  rest: string[];
}

/** Splits `--probe`, `--probe-no-prompt` and `--json FILE` from the start flags. */
function probeFlags(argv: readonly string[]): ProbeFlags | string {
  const out: ProbeFlags = { prompt: true, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--probe') continue;
    if (a === '--probe-no-prompt') out.prompt = false;
    else if (a === '--json' || a.startsWith('--json=')) {
      const file = a === '--json' ? argv[++i] : a.slice('--json='.length);
      if (!file || file.startsWith('-')) return '--json needs a FILE with --probe (e.g. --json probe.json)';
      out.json = path.resolve(file);
    } else out.rest.push(a);
  }
  return out;
}

/**
 * `zcode-hub doctor --probe [--json FILE] [--probe-no-prompt] [start flags]`: runs the scripted
 * conversation against its own child of the backend the start flags choose and prints the
 * table (src/doctor/probe.ts). Exits 0 when every row is ok or skipped, 1 otherwise, 2 on bad flags.
 */
export async function runProbeCli(argv: readonly string[]): Promise<number> {
  const flags = probeFlags(argv);
  if (typeof flags === 'string') {
    process.stderr.write(`zcode-hub doctor: ${flags}\n`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(flags.rest);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`zcode-hub doctor: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  // The hub's log goes to stderr, quiet unless asked: the report is the output.
  const logger = createLogger({ level: argv.includes('--log-level') ? config.logLevel : 'silent', destination: process.stderr });
  let report;
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
