import fs from 'node:fs';
import path from 'node:path';

/**
 * The scripts a browser loads before the first screen can draw: the index.html's module scripts
 * and modulepreloads, and what they import statically, transitively. import() chunks are left
 * out: they load when a screen asks for them. Paths are relative to the dist dir.
 */
export function firstLoadScripts(distDir: string): string[] {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const queue: string[] = [];
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="\/([^"]+)"/g)) queue.push(m[1] ?? '');
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+)"/g)) queue.push(m[1] ?? '');
  const seen = new Set<string>();
  while (queue.length > 0) {
    const rel = queue.shift() ?? '';
    if (rel === '' || seen.has(rel)) continue;
    seen.add(rel);
    const code = fs.readFileSync(path.join(distDir, rel), 'utf8');
    // Static forms only: `import … from "./x.js"` and `import "./x.js"`, never `import("./x.js")`.
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.\/[^"']+\.js)["']/g))
      queue.push(path.posix.join(path.posix.dirname(rel), m[1] ?? ''));
  }
  return [...seen];
}
