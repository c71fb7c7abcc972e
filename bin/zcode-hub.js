#!/usr/bin/env node
// Runs the compiled CLI when `npm run build` produced it, else the TypeScript sources through
// tsx (a development checkout). Both paths run the same code.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const compiled = path.join(root, 'dist', 'cli', 'main.js');
if (existsSync(compiled) && !process.env.ZCODE_HUB_FROM_SOURCE) {
  const { main } = await import(pathToFileURL(compiled).href);
  await main(process.argv.slice(2));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import(pathToFileURL(path.join(root, 'src', 'cli', 'main.ts')).href);
  await main(process.argv.slice(2));
}
