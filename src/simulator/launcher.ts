import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * How to spawn the simulator from wherever the caller runs: from TypeScript sources
 * (`node --import <tsx loader> src/simulator/main.ts`) or from the compiled build
 * (`node dist/simulator/main.js`). Paths are absolute, so any cwd works.
 */
export function simulatorSpawnSpec(extraArgs: string[] = []): { command: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const dir = path.dirname(here);
  if (here.endsWith('.ts')) {
    const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { command: process.execPath, args: ['--import', tsxLoader, path.join(dir, 'main.ts'), ...extraArgs] };
  }
  return { command: process.execPath, args: [path.join(dir, 'main.js'), ...extraArgs] };
}
