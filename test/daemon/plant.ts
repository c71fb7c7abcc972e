/** Plants something other than a regular file under a state file's name, and checks later that it was left as it was. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

export type PlantKind = 'fifo' | 'dir' | 'link';

export interface Planted {
  /** How the hub names what it found there. */
  found: string;
  /** Asserts the thing is still there, as planted (a link's target, a file of the user's, untouched). */
  unchanged: () => void;
}

const FOUND: Record<PlantKind, string> = { fifo: 'a FIFO (named pipe)', dir: 'a directory', link: 'a symbolic link' };

export function plant(kind: PlantKind, file: string, home: string): Planted {
  const victim = path.join(home, `victim-of-${path.basename(file)}`);
  const text = '{"a file of the user\'s": true}\n';
  if (kind === 'fifo') execFileSync('mkfifo', [file]);
  if (kind === 'dir') fs.mkdirSync(file);
  if (kind === 'link') {
    fs.writeFileSync(victim, text);
    fs.symlinkSync(victim, file);
  }
  return {
    found: FOUND[kind],
    unchanged: () => {
      const stat = fs.lstatSync(file);
      const is = { fifo: stat.isFIFO(), dir: stat.isDirectory(), link: stat.isSymbolicLink() };
      expect(is[kind], `${file} is still a ${kind}`).toBe(true);
      if (kind === 'dir') expect(fs.readdirSync(file), `${file} is still empty`).toEqual([]);
      if (kind === 'link') {
        expect(fs.readlinkSync(file)).toBe(victim);
        expect(fs.readFileSync(victim, 'utf8')).toBe(text);
      }
    },
  };
}
