import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { SIM_ENTRY_ENV } from '../../src/simulator/launcher.js';
import { BUNDLED_ENTRY_ENV } from '../../bin/entry.js';
import { BASELINE_ENTRY_ENV } from '../../bench/lib/baseline-process.js';
import { LOAD_ENTRY_ENV } from '../../bench/lib/load-driver.js';

/**
 * Vitest global setup: bundles the simulator (src/simulator/main.ts) and the CLI (src/cli/main.ts)
 * from the sources, once per run, and names them in ZCODE_HUB_SIM_ENTRY and ZCODE_HUB_ENTRY (and
 * the bench smoke's load client and baseline server in their own two variables), which
 * the forked workers and every process they start inherit. A simulator child or a `zcode-hub`
 * command of the run is then `node <bundle>`: the same sources, without tsx compiling and loading
 * a few hundred files at each start (a simulator starts with about 0.3 s of CPU instead of 1 s, and
 * the suites start hundreds of them). Packages stay external and resolve from the repository's
 * node_modules, where the bundles live.
 */

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * Each source file keeps its own `import.meta.url`: the CLI finds web/dist, package.json and
 * bin/ relative to the file it was written in, not to the bundle (bench/ finds the repository the same way).
 */
const ownImportMeta: Plugin = {
  name: 'own-import-meta',
  setup(b) {
    b.onLoad({ filter: /[\\/](src|bench)[\\/].*\.ts$/ }, (args) => {
      const url = pathToFileURL(args.path).href;
      const text = fs
        .readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(url))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents: text, loader: 'ts' };
    });
  },
};

export default async function setup(): Promise<() => void> {
  // Children through tsx as before: to compare the two, or for stack traces with the sources' lines.
  if (process.env.ZCODE_HUB_TEST_TSX === '1') return () => undefined;
  // One directory per run: a browser run and a unit run of the same checkout may overlap.
  const outdir = path.join(root, 'node_modules', '.cache', 'zcode-hub-test', `run-${process.pid}`);
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: {
      simulator: path.join(root, 'src', 'simulator', 'main.ts'),
      cli: path.join(root, 'src', 'cli', 'main.ts'),
      'bench-load': path.join(root, 'bench', 'load-client.ts'),
      'bench-baseline': path.join(root, 'bench', 'baseline-server.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // The CLI's commands stay chunks of their own, loaded when run, as from the sources.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [ownImportMeta],
    logLevel: 'warning',
  });
  process.env[SIM_ENTRY_ENV] = path.join(outdir, 'simulator.mjs');
  process.env[BUNDLED_ENTRY_ENV] = path.join(outdir, 'cli.mjs');
  process.env[LOAD_ENTRY_ENV] = path.join(outdir, 'bench-load.mjs');
  process.env[BASELINE_ENTRY_ENV] = path.join(outdir, 'bench-baseline.mjs');
  return () => fs.rmSync(outdir, { recursive: true, force: true });
}
