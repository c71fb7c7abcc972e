import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { earlyScript } from './early-script.js';
import { precompress } from './precompress.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

// The phone web app: preact (3 KB runtime, hooks, JSX) keeps the initial load far under the
// 300 KB gzip budget that React would eat a third of; everything else is plain TypeScript.
// Screens the first one does not need are import()ed (app.tsx, markdown-view.tsx): the first
// screen's script stays under 120 KB brotli (test/web/bundle-budget.test.ts). Every text file
// gets .br and .gz siblings, served by src/http/web.ts as Accept-Encoding asks.
export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  // The version the app announces in `initialize` (web/src/hub/hub-client.ts).
  define: { __APP_VERSION__: JSON.stringify(version) },
  plugins: [earlyScript('early'), precompress()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    sourcemap: false,
    reportCompressedSize: false,
    // The app, and its first script on its own (early-script.ts: index.html loads it first).
    rolldownOptions: {
      input: { index: `${root}index.html`, early: `${root}src/early.ts` },
      // The first script and the little it imports in one chunk: a second one cost it a round trip.
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'early',
              test: /src[\\/](early|limits|router-paths|net[\\/]early-socket|net[\\/]paired-flag|hub[\\/]device-name|hub[\\/]initialize-params|hub[\\/]handshake-requests)\.ts$/,
            },
          ],
        },
      },
    },
  },
});
