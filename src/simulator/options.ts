import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Flags of the simulator. Every flag also reads an env var `ZCODE_SIM_<FLAG_IN_UPPER_SNAKE>`
 * (e.g. `--crash-after-events 5` ≡ `ZCODE_SIM_CRASH_AFTER_EVENTS=5`); a flag wins over env.
 * README.md lists them with their meaning.
 */
const num = z.coerce.number().finite().nonnegative();
const bool = z
  .union([z.boolean(), z.enum(['1', 'true', 'yes', '0', 'false', 'no', ''])])
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'yes');

export const SimOptionsSchema = z.strictObject({
  dataDir: z.string().min(1).optional(),
  scenario: z.string().min(1).default('default'),
  crashAfterEvents: num.int().optional(),
  exitImmediately: bool.default(false),
  ignoreSigterm: bool.default(false),
  floodStderr: bool.default(false),
  junkLines: bool.default(false),
  oversizeLine: num.int().optional(),
  stopReadingStdin: bool.default(false),
  slowMs: num.default(0),
  neverAnswer: z.array(z.string().min(1)).default([]),
  unsupportedCommand: z.array(z.string().min(1)).default([]),
  ignoreStop: bool.default(false),
  lateStop: bool.default(false),
  payloadDrift: bool.default(false),
  imageBytes: num.int().default(64 * 1024),
  subagentPermission: z.enum(['parent', 'child']).optional(),
  mirrorChildIds: bool.default(false),
  listIgnoresIds: bool.default(false),
  subagentWrite: bool.default(false),
  v4Titles: bool.default(false),
  noDefaultLevel: bool.default(false),
  subscribeLagMs: num.default(0),
  retainEvents: num.int().positive().optional(),
  slowMethod: z.array(z.string().regex(/^[^=\s]+=\d+$/, 'expected METHOD=MS')).default([]),
  lateMethod: z.array(z.string().regex(/^[^=\s]+=\d+$/, 'expected METHOD=MS')).default([]),
  failMethod: z.array(z.string().regex(/^[^=\s]+=.+$/, 'expected METHOD=MESSAGE')).default([]),
  failCommand: z.array(z.string().regex(/^[^=\s]+=\S+$/, 'expected TYPE=REASON_CODE')).default([]),
  silentStop: num.optional(),
  rejectSends: z.string().min(1).optional(),
  eventRate: num.optional(),
  eventBytes: num.int().default(300),
  eventDurationMs: num.default(10_000),
  reannounceScale: z.coerce.number().positive().default(1),
  reverseTimeoutScale: z.coerce.number().positive().default(1),
  turnDelayScale: z.coerce.number().nonnegative().default(1),
  turnStartMs: num.default(0),
  logLevel: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  /** `--replay FILE`: answer as the recorded child did instead of simulating (replay/). */
  replay: z.string().min(1).optional(),
  replayTimeScale: z.coerce.number().nonnegative().default(1),
});
/** Parsed flags plus the two directories resolved from the environment the simulator was given. */
export type SimOptions = z.infer<typeof SimOptionsSchema> & {
  dataDir: string;
  /** Where global workflows live (`<home>/.zcode/workflows`, §8): ZCODE_DATA_BASE_DIR, else HOME. */
  home: string;
};

const FLAGS: Record<string, { key: keyof z.input<typeof SimOptionsSchema>; boolean?: boolean; multi?: boolean }> = {
  'data-dir': { key: 'dataDir' },
  scenario: { key: 'scenario' },
  'crash-after-events': { key: 'crashAfterEvents' },
  'exit-immediately': { key: 'exitImmediately', boolean: true },
  'ignore-sigterm': { key: 'ignoreSigterm', boolean: true },
  'flood-stderr': { key: 'floodStderr', boolean: true },
  'junk-lines': { key: 'junkLines', boolean: true },
  'oversize-line': { key: 'oversizeLine' },
  'stop-reading-stdin': { key: 'stopReadingStdin', boolean: true },
  'slow-ms': { key: 'slowMs' },
  'never-answer': { key: 'neverAnswer', multi: true },
  'unsupported-command': { key: 'unsupportedCommand', multi: true },
  'ignore-stop': { key: 'ignoreStop', boolean: true },
  'late-stop': { key: 'lateStop', boolean: true },
  'payload-drift': { key: 'payloadDrift', boolean: true },
  'image-bytes': { key: 'imageBytes' },
  'subagent-permission': { key: 'subagentPermission' },
  'mirror-child-ids': { key: 'mirrorChildIds', boolean: true },
  'list-ignores-ids': { key: 'listIgnoresIds', boolean: true },
  'subagent-write': { key: 'subagentWrite', boolean: true },
  'v4-titles': { key: 'v4Titles', boolean: true },
  'no-default-level': { key: 'noDefaultLevel', boolean: true },
  'subscribe-lag-ms': { key: 'subscribeLagMs' },
  'retain-events': { key: 'retainEvents' },
  'slow-method': { key: 'slowMethod', multi: true },
  'late-method': { key: 'lateMethod', multi: true },
  'fail-method': { key: 'failMethod', multi: true },
  'fail-command': { key: 'failCommand', multi: true },
  'silent-stop': { key: 'silentStop' },
  'reject-sends': { key: 'rejectSends' },
  'event-rate': { key: 'eventRate' },
  'event-bytes': { key: 'eventBytes' },
  'event-duration-ms': { key: 'eventDurationMs' },
  'reannounce-scale': { key: 'reannounceScale' },
  'reverse-timeout-scale': { key: 'reverseTimeoutScale' },
  'turn-delay-scale': { key: 'turnDelayScale' },
  'turn-start-ms': { key: 'turnStartMs' },
  'log-level': { key: 'logLevel' },
  replay: { key: 'replay' },
  'replay-time-scale': { key: 'replayTimeScale' },
};

/** Flag names accepted on the command line (for `--help`). */
export const FLAG_NAMES = Object.keys(FLAGS);

function envName(flag: string): string {
  return `ZCODE_SIM_${flag.toUpperCase().replace(/-/g, '_')}`;
}

/** Parses argv + env into validated options; throws with a readable message on bad input. */
export function parseSimOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): SimOptions {
  const raw: Record<string, unknown> = {};
  for (const [flag, spec] of Object.entries(FLAGS)) {
    const v = env[envName(flag)];
    if (v === undefined) continue;
    raw[spec.key] = spec.multi
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v;
  }
  if (env['ZCODE_SIM_SCENARIO'] !== undefined) raw['scenario'] = env['ZCODE_SIM_SCENARIO'];
  const fromFlags: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = FLAGS[name];
    if (!spec) throw new Error(`Unknown flag: --${name}`);
    let value: string | boolean;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (spec.boolean) value = true;
    else {
      const next = argv[++i];
      if (next === undefined) throw new Error(`Flag --${name} needs a value`);
      value = next;
    }
    if (spec.multi) {
      const prev = Array.isArray(fromFlags[spec.key]) ? (fromFlags[spec.key] as string[]) : [];
      fromFlags[spec.key] = [...prev, String(value)];
    } else fromFlags[spec.key] = value;
  }
  const parsed = SimOptionsSchema.safeParse({ ...raw, ...fromFlags });
  if (!parsed.success) {
    throw new Error(`Invalid simulator options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const home = zcodeHome(env);
  return { ...parsed.data, dataDir: parsed.data.dataDir ?? path.join(home, '.zcode', 'sim'), home };
}

/**
 * The home of the given environment (ZCODE_DATA_BASE_DIR wins, then HOME), read from `env` and
 * not from this process, so a simulator run in-process beside a hub gets its own.
 */
export function zcodeHome(env: NodeJS.ProcessEnv): string {
  const base = env['ZCODE_DATA_BASE_DIR'];
  if (base && base.length > 0) return base;
  const home = env['HOME'];
  return home && home.length > 0 ? home : os.homedir();
}
