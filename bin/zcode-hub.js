#!/usr/bin/env -S node --max-semi-space-size=2
// Runs the compiled CLI when `npm run build` produced it and it is up to date, else the
// TypeScript sources through tsx (bin/entry.js decides). Both paths run the same code.
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { chooseEntry } from './entry.js';

const entry = chooseEntry(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
if (entry.kind === 'source') {
  const { register } = await import('tsx/esm/api');
  register();
}
const { main } = await import(pathToFileURL(entry.main).href);
await main(process.argv.slice(2));
