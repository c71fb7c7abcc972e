/**
 * The repository's own text files, for the meta tests that read the tree: everything tracked
 * under the listed roots except dependencies, build output and binary assets.
 */
import fs from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

const SKIP_DIRS = new Set(['node_modules', 'dist', 'screenshots', '.git', 'coverage']);
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|sh|css|html|yml|yaml|txt)$|(^|\/)(Dockerfile|run)$/;

/** Repo-relative paths (with `/`) of the text files under `roots` (folders or single files). */
export function treeFiles(roots: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const abs = path.join(REPO_ROOT, rel);
    if (!fs.existsSync(abs)) return;
    const st = fs.statSync(abs);
    if (st.isDirectory()) {
      for (const entry of fs.readdirSync(abs)) if (!SKIP_DIRS.has(entry)) walk(path.posix.join(rel, entry));
    } else if (TEXT.test(rel) && !rel.endsWith('package-lock.json')) out.push(rel);
  };
  for (const r of roots) walk(r);
  return out.sort();
}

/** Reads a repo-relative file. */
export function readRepoFile(rel: string): string {
  return fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8');
}
