import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The phone web app: preact (3 KB runtime, hooks, JSX) keeps the initial load far under the
// 300 KB gzip budget that React would eat a third of; everything else is plain TypeScript.
export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
