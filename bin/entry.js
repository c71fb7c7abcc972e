// Which code `zcode-hub` runs: the compiled CLI in dist/ when it is built and at least as new
// as every file under src/, else the TypeScript sources through tsx (a checkout being edited, or
// a dist/ left behind by an older build). ZCODE_HUB_FROM_SOURCE=1 always picks the sources.
// ZCODE_HUB_ENTRY names a bundle of the current sources (the unit suites build one per run,
// test/helpers/bundle.global.ts) and wins over both: it is the sources, started without tsx.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestMtime(dir) {
  let newest = 0;
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const st = statSync(path.join(dir, f));
    if (st.isFile()) newest = Math.max(newest, st.mtimeMs);
  }
  return newest;
}

export const BUNDLED_ENTRY_ENV = 'ZCODE_HUB_ENTRY';

/** @returns {{ kind: 'dist' | 'source' | 'bundle', main: string, reason: string }} */
export function chooseEntry(root, env = process.env) {
  const bundle = env[BUNDLED_ENTRY_ENV];
  if (bundle) return { kind: 'bundle', main: path.resolve(bundle), reason: `${BUNDLED_ENTRY_ENV} is set` };
  const compiled = path.join(root, 'dist', 'cli', 'main.js');
  const source = path.join(root, 'src', 'cli', 'main.ts');
  if (env.ZCODE_HUB_FROM_SOURCE) return { kind: 'source', main: source, reason: 'ZCODE_HUB_FROM_SOURCE is set' };
  if (!existsSync(compiled)) return { kind: 'source', main: source, reason: 'dist/ is not built' };
  const builtAt = statSync(compiled).mtimeMs;
  if (existsSync(path.join(root, 'src')) && newestMtime(path.join(root, 'src')) > builtAt) {
    return { kind: 'source', main: source, reason: 'dist/ is older than src/' };
  }
  return { kind: 'dist', main: compiled, reason: `built ${new Date(builtAt).toISOString()}` };
}
