import { createRequire } from 'node:module';
import { z } from 'zod';

const require = createRequire(import.meta.url);
/** The package version, read once from package.json (works from src/ and dist/). */
export const VERSION: string = z.object({ version: z.string() }).parse(require('../package.json')).version;
