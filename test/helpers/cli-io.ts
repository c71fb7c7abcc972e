import type { CliIo } from '../../src/cli/command-args.js';

/** A CLI sub-command's stdout and stderr, collected in memory, with an empty environment. */
export function collector(): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    env: {},
    out: () => out,
    err: () => err,
  };
}
