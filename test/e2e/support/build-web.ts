import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

const WEB = path.resolve(import.meta.dirname, '../../../web');
const DIST = path.join(WEB, 'dist');
/** What the build reads: the app's sources, its build config, and package.json (the version it announces). */
const INPUTS = [
  path.join(WEB, 'src'),
  path.join(WEB, 'public'),
  path.join(WEB, 'index.html'),
  path.join(WEB, 'vite.config.ts'),
  path.join(WEB, 'precompress.ts'),
  path.resolve(WEB, '../package.json'),
];

/** Every file under `p` (or `p` itself), with its modification time; none when it does not exist. */
function mtimes(p: string): number[] {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return [];
  }
  if (!st.isDirectory()) return [st.mtimeMs];
  return fs.readdirSync(p).flatMap((name) => mtimes(path.join(p, name)));
}

/** dist was built after the last change to any input (its oldest file is newer than the newest input). */
export function distIsFresh(): boolean {
  const built = mtimes(DIST);
  if (!fs.existsSync(path.join(DIST, 'index.html')) || built.length === 0) return false;
  return Math.min(...built) > Math.max(...INPUTS.flatMap(mtimes));
}

/**
 * Builds web/dist before the browser suites (what `npm run build:web` does), unless it is already
 * newer than every input: the build costs 10–30 s of both cores, and most runs change no web file.
 */
export default async function setup(): Promise<void> {
  if (distIsFresh()) return;
  await build({ configFile: path.join(WEB, 'vite.config.ts'), logLevel: 'warn' });
}
