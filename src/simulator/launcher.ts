import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A bundle of the simulator's sources to run instead of them through tsx. The unit suites set it
 * (test/helpers/bundle.global.ts builds one per run): a child that skips tsx starts with about a
 * third of the CPU, and the suites start hundreds of children.
 */
export const SIM_ENTRY_ENV = 'ZCODE_HUB_SIM_ENTRY';

/**
 * How to spawn the simulator from wherever the caller runs: from TypeScript sources
 * (`node --import <tsx loader> src/simulator/main.ts`, or the built entry `ZCODE_HUB_SIM_ENTRY`
 * names) or from the compiled build (`node dist/simulator/main.js`). Paths are absolute, so any
 * cwd works.
 */
export function simulatorSpawnSpec(extraArgs: string[] = []): { command: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const dir = path.dirname(here);
  if (here.endsWith('.ts')) {
    const built = process.env[SIM_ENTRY_ENV];
    if (built) return { command: process.execPath, args: [path.resolve(built), ...extraArgs] };
    const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { command: process.execPath, args: ['--import', tsxLoader, path.join(dir, 'main.ts'), ...extraArgs] };
  }
  return { command: process.execPath, args: [path.join(dir, 'main.js'), ...extraArgs] };
}
