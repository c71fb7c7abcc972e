import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; images (png) are compressed already. */
const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/i;

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `name.br` and `name.gz` beside every text file of the build, once the bundle and the
 * public files are in place, so the daemon serves them with @fastify/static's `preCompressed`
 * and compresses nothing per request. node:zlib does it: no plugin dependency for ten lines.
 * A compressed copy that would not be smaller is not written (the file is then sent as is).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'zcode-hub:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of files(outDir)) {
        if (!TEXT.test(file)) continue;
        const raw = fs.readFileSync(file);
        const br = brotliCompressSync(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) fs.writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) fs.writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}
