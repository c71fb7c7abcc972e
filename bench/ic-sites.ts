/**
 * `node --import tsx bench/ic-sites.ts <first.log> <second.log> [--match <regex>]`: the property-access
 * sites that ended megamorphic in one process's V8 `--log-ic` log, each with its state in the
 * other's (bench/lib/ic-log.ts), as the Markdown table BENCHMARKS.md quotes. `--match` keeps the
 * functions whose logged name matches (default: node's stream and socket code, where every write goes).
 *
 * Recording a run (both servers log; the hub's log is the one naming `dist/`, the baseline's names
 * `baseline-server`):
 *
 *     BENCH_DAEMON_NODE_ARGS="--log-ic --logfile=/tmp/ic-%p.log --no-logfile-per-isolate" \
 *       npm run bench -- B-COST --runs 1
 *     grep -l baseline-server /tmp/ic-*.log
 *     node --import tsx bench/ic-sites.ts /tmp/ic-<hub>.log /tmp/ic-<baseline>.log
 *
 * A log is hundreds of MB for one run; delete them after.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { IcLogReader, megamorphicTable, type IcSite } from './lib/ic-log.js';

const DEFAULT_MATCH = 'node:internal/streams/writable|node:net|node:internal/stream_base_commons';

async function read(file: string): Promise<IcSite[]> {
  const reader = new IcLogReader();
  for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
    reader.line(line);
  }
  return reader.sites();
}

async function main(): Promise<void> {
  const [first, second] = process.argv.slice(2);
  const at = process.argv.indexOf('--match');
  const match = new RegExp(at === -1 ? DEFAULT_MATCH : (process.argv[at + 1] ?? ''));
  if (!first || !second || first.startsWith('--') || second.startsWith('--')) {
    process.stderr.write('usage: ic-sites <first.log> <second.log> [--match <regex>]\n');
    process.exitCode = 2;
    return;
  }
  const [a, b] = await Promise.all([read(first), read(second)]);
  process.stdout.write(`${megamorphicTable(a, b, match)}\n\nand the other way round:\n\n${megamorphicTable(b, a, match)}\n`);
}

await main();
