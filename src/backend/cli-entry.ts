/**
 * What one candidate file is, and how the hub would run it (docs/APP-SERVER.md §17): a
 * JavaScript entry (`zcode.cjs`, or a link to it such as npm's global `bin/zcode`) runs as
 * `node <entry> app-server`; the desktop app's own executable (a `zcode` on PATH that the .deb
 * links to `/opt/ZCode/zcode`) is the Electron app, so its bundled `resources/glm/zcode.cjs` is
 * used instead; a native single executable of the CLI runs as `<file> app-server`. Shell
 * scripts and Windows `.cmd` shims are never run (the hub spawns without a shell); a `.cmd`
 * shim of a global npm install is followed to the package's `dist/zcode.cjs`.
 */
import path from 'node:path';
import type { FsProbe } from './cli-detect.js';
import type { CliLaunch } from '../ports/backend-port.js';

export type { CliLaunch };

export type EntryCheck =
  | { ok: true; entry: string; launch: CliLaunch; note: string }
  | { ok: false; status: 'missing' | 'not-runnable'; note: string };

/** Bytes read to tell a script from a binary (the `#!` line, an executable's magic number). */
const HEAD_BYTES = 256;

/** Where the Electron app keeps the CLI, relative to the directory of its executable. */
const BUNDLED_FROM_EXECUTABLE: Readonly<Record<'posix' | 'win32', readonly string[]>> = {
  posix: ['resources/glm/zcode.cjs', '../Resources/glm/zcode.cjs'],
  win32: ['resources\\glm\\zcode.cjs'],
};

/** The package a global npm install of the CLI puts beside its shims (`@zcode/cli`, bin → dist/zcode.cjs). */
export const NPM_PACKAGE_ENTRY = ['node_modules', '@zcode', 'cli', 'dist', 'zcode.cjs'] as const;

const JS_EXT = /\.(c|m)?js$/i;

function isNative(head: Buffer): boolean {
  if (head.length < 4) return false;
  if (head[0] === 0x7f && head.toString('latin1', 1, 4) === 'ELF') return true;
  if (head[0] === 0x4d && head[1] === 0x5a) return true; // PE: "MZ"
  const magic = head.readUInt32BE(0);
  return [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(magic);
}

/** Checks a JavaScript entry: it must be a readable file. */
function jsEntry(entry: string, probe: FsProbe, note: string): EntryCheck {
  if (probe.canRead && !probe.canRead(entry)) return { ok: false, status: 'not-runnable', note: `${entry} exists but cannot be read` };
  return { ok: true, entry, launch: 'node', note };
}

/** A directory given for the CLI: an install root, an app bundle or the `glm` folder itself. */
function insideDirectory(dir: string, platform: NodeJS.Platform, probe: FsProbe): string | undefined {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const inside = ['zcode.cjs', 'glm/zcode.cjs', 'resources/glm/zcode.cjs', 'Contents/Resources/glm/zcode.cjs'];
  return inside.map((rel) => p.join(dir, ...rel.split('/'))).find((f) => probe.isFile(f));
}

/** What `file` is and how it would run; never throws. */
export function inspectCliEntry(file: string, platform: NodeJS.Platform, probe: FsProbe): EntryCheck {
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (!probe.isFile(file)) {
    const inside = probe.listDir(file).length > 0 ? insideDirectory(file, platform, probe) : undefined;
    if (inside) return jsEntry(inside, probe, `a directory holding the CLI at ${inside}`);
    return { ok: false, status: 'missing', note: 'not found' };
  }
  const real = probe.realpath ? probe.realpath(file) : file;
  const via = real !== file ? ` (a link to ${real})` : '';
  if (JS_EXT.test(real)) return jsEntry(real, probe, `a JavaScript entry${via}, run with Node.js`);
  if (platform === 'win32' && /\.(cmd|bat)$/i.test(real)) {
    const pkg = p.join(p.dirname(real), ...NPM_PACKAGE_ENTRY);
    if (probe.isFile(pkg)) return jsEntry(pkg, probe, `an npm shim; its package's entry ${pkg}`);
    return {
      ok: false,
      status: 'not-runnable',
      note: 'a .cmd shim with no @zcode/cli package beside it; the hub runs nothing through a shell',
    };
  }
  const head = probe.readHead ? probe.readHead(real, HEAD_BYTES) : Buffer.alloc(0);
  if (head.toString('latin1', 0, 2) === '#!') {
    const line = head.toString('utf8').split('\n')[0] ?? '';
    if (/\bnode\b/.test(line)) return jsEntry(real, probe, `a Node.js script${via}, run with Node.js`);
    return {
      ok: false,
      status: 'not-runnable',
      note: `a shell script${via} (likely the desktop app's launcher); the hub runs no shell scripts`,
    };
  }
  if (isNative(head)) {
    const rels = BUNDLED_FROM_EXECUTABLE[platform === 'win32' ? 'win32' : 'posix'];
    const bundled = rels.map((rel) => p.resolve(p.dirname(real), rel)).find((f) => probe.isFile(f));
    if (bundled) return jsEntry(bundled, probe, `the ZCode desktop app's executable${via}; its bundled CLI ${bundled} is used`);
    if (probe.canExecute && !probe.canExecute(real)) return { ok: false, status: 'not-runnable', note: `${real} is not executable` };
    return { ok: true, entry: real, launch: 'direct', note: `a native executable${via}, run as \`${p.basename(real)} app-server\`` };
  }
  return { ok: false, status: 'not-runnable', note: `${real} is neither a JavaScript entry nor an executable` };
}
