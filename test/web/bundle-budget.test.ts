/**
 * The first load stays small: the real vite build (web/vite.config.ts, into a temp dir) and the
 * scripts its index.html makes the browser fetch before the first screen, measured as served.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLoadScripts } from './first-load.js';

/** The first screen's JavaScript, brotli-compressed (entry + static imports + modulepreloads). */
const FIRST_SCREEN_JS_BROTLI_BYTES = 120 * 1024;

let out: string;

beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-web-budget-'));
  await build({
    configFile: path.resolve(import.meta.dirname, '../../web/vite.config.ts'),
    build: { outDir: out, emptyOutDir: true },
    logLevel: 'warn',
  });
}, 120_000);
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe('first load budget (web/vite.config.ts)', () => {
  it(`keeps the first screen's JS under ${FIRST_SCREEN_JS_BROTLI_BYTES / 1024} KB brotli`, () => {
    const scripts = firstLoadScripts(out);
    expect(scripts.some((s) => s.startsWith('assets/index-'))).toBe(true);
    const sizes = scripts.map((s) => ({ s, br: fs.readFileSync(path.join(out, `${s}.br`)).length }));
    const total = sizes.reduce((n, x) => n + x.br, 0);
    expect(total, JSON.stringify(sizes)).toBeLessThanOrEqual(FIRST_SCREEN_JS_BROTLI_BYTES);
  });

  it('leaves the heavy screens and the Markdown renderer out of the first load', () => {
    const first = firstLoadScripts(out).map((s) => fs.readFileSync(path.join(out, s), 'utf8'));
    const chunks = fs.readdirSync(path.join(out, 'assets')).filter((f) => f.endsWith('.js'));
    for (const lazy of ['markdown-html', 'settings-view', 'files-view', 'changes-view']) {
      expect(
        chunks.some((c) => c.startsWith(`${lazy}-`)),
        lazy,
      ).toBe(true);
      expect(
        firstLoadScripts(out).some((s) => s.includes(`/${lazy}-`)),
        lazy,
      ).toBe(false);
    }
    // highlight.js registers its languages by name; none of that code is in the first load.
    expect(first.some((code) => code.includes('registerLanguage'))).toBe(false);
  });

  it("keeps the first script whole: it imports nothing but the bundler's runtime", () => {
    // A module of the first script's (early.ts) placed in a chunk of the app's would make it wait
    // for that chunk: the early socket would open after the app's scripts instead of beside them.
    const html = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    const early = /<script[^>]*async[^>]*src="\/(assets\/early-[^"]+\.js)"/.exec(html)?.[1];
    expect(early).toBeDefined();
    const code = fs.readFileSync(path.join(out, early ?? ''), 'utf8');
    const imports = [...code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.\/[^"']+\.js)["']/g)].map((m) => m[1] ?? '');
    expect(imports.filter((f) => !f.startsWith('./rolldown-runtime-'))).toEqual([]);
    // What it sends is in it: the handshake's list and load.
    expect(code).toContain('includeArchived');
  });

  it('writes .br and .gz beside every text file, each decompressing to the file itself', () => {
    const texts: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (/\.(js|css|html|svg|webmanifest)$/.test(e.name)) texts.push(full);
      }
    };
    walk(out);
    expect(texts.some((f) => f.endsWith('index.html'))).toBe(true);
    for (const f of texts) {
      const raw = fs.readFileSync(f);
      // Only a copy that is smaller is written; every file here is large enough to shrink.
      expect(brotliCompressSync(raw).length, f).toBeLessThan(raw.length);
      expect(brotliDecompressSync(fs.readFileSync(`${f}.br`)).equals(raw), f).toBe(true);
      expect(gunzipSync(fs.readFileSync(`${f}.gz`)).equals(raw), f).toBe(true);
    }
  });
});
