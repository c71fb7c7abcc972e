/**
 * Which ZCode CLI the hub talks to, and whether the hub was verified against it
 * (docs/APP-SERVER.md §16). Read once at start from the `package.json` shipped beside
 * `zcode.cjs`; a version outside the table, or none found, is a warning in the log, in
 * `doctor` and in `/api/health` — the hub still starts, and `doctor --probe` says what differs.
 */
import path from 'node:path';
import { z } from 'zod';
import { readFileIfExists } from '../fs/secure-file.js';
import type { CliVersion } from '../ports/backend-port.js';

/** The app-server versions this hub was checked against (the table in docs/APP-SERVER.md §16.1). */
export const VERIFIED_CLI_VERSIONS: readonly string[] = ['0.16.9'];

/**
 * App-server methods known to be gone (integrators report them removed in 0.16), each with what
 * the hub does instead (docs/APP-SERVER.md §16.3). The hub's typed client names none of them
 * (test/meta/cli-versions-doc.test.ts), so no CLI from 0.16 on is asked for one.
 */
export const GONE_METHODS: Readonly<Record<string, string>> = {
  'session/steer': 'not used: a prompt sent during a turn waits in the hub\'s queue; steering would be v4 sendText "guide" (§7.4)',
  'session/rewind': 'not offered: the hub has no rewind; a fork (session/fork) is the way back',
  'prompt/enhance': 'not offered: the hub sends the prompt as typed',
};

const packageSchema = z.looseObject({ version: z.string().min(1).max(64) });

/**
 * The version of the CLI at `cli` (zcode.cjs) and its standing; never throws. The package.json
 * beside the entry (the desktop layout), else — for npm's `@zcode/cli/dist/zcode.cjs` — the
 * package's own one level up.
 */
export function readCliVersion(
  cli: string,
  read: (file: string) => string | undefined = (f) => readFileIfExists(f, { followLink: true }),
): CliVersion {
  const dir = path.dirname(cli);
  const files = [path.join(dir, 'package.json'), ...(path.basename(dir) === 'dist' ? [path.join(dir, '..', 'package.json')] : [])];
  let text: string | undefined;
  let file = files[0]!;
  for (const f of files) {
    try {
      text = read(f);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      file = f;
      break;
    }
  }
  let version: string | undefined;
  if (text !== undefined) {
    try {
      const parsed = packageSchema.safeParse(JSON.parse(text));
      if (parsed.success) version = parsed.data.version;
    } catch {
      // not JSON: no version
    }
  }
  return cliVersionStanding(version, file);
}

/** A version's standing against the table, with the sentence the warnings use. */
export function cliVersionStanding(version: string | undefined, source?: string): CliVersion {
  const table = VERIFIED_CLI_VERSIONS.join(', ');
  if (version === undefined)
    return {
      verified: false,
      warning: `the ZCode CLI's version is unknown (no readable version in ${source ?? 'its package.json'}); this hub was verified against app-server ${table}: run \`zcode-hub doctor --probe\``,
    };
  if (VERIFIED_CLI_VERSIONS.includes(version)) return { version, verified: true };
  return {
    version,
    verified: false,
    warning: `the ZCode CLI is ${version}, which this hub was not verified against (verified: ${table}); run \`zcode-hub doctor --probe\` and report what differs`,
  };
}
