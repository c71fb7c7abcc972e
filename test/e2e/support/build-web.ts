import path from 'node:path';
import { build } from 'vite';

/** Builds web/dist once before the browser suites (what `npm run build:web` does). */
export default async function setup(): Promise<void> {
  await build({ configFile: path.resolve(import.meta.dirname, '../../../web/vite.config.ts'), logLevel: 'warn' });
}
