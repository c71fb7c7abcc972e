/**
 * The one way the hub reads and replaces a file of its state dir: only a regular file, never
 * through a link, never blocked on a FIFO; anything else under the name is refused with a typed
 * error naming the file and what is there, and left as it is.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotRegularFileError, readFileIfExists, writeFileAtomic } from '../../src/fs/secure-file.js';

let dir: string;
let outside: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-secure-file-'));
  outside = path.join(dir, 'outside.txt');
  fs.writeFileSync(outside, "a file of the user's\n");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const planters = {
  'a FIFO (named pipe)': (file: string) => execFileSync('mkfifo', [file]),
  'a directory': (file: string) => fs.mkdirSync(file),
  'a symbolic link': (file: string) => fs.symlinkSync(outside, file),
};
const cases = Object.entries(planters);

function refusal(run: () => unknown): NotRegularFileError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(NotRegularFileError);
    return err as NotRegularFileError;
  }
  throw new Error('expected a refusal');
}

describe('readFileIfExists', () => {
  it('reads a regular file, and is undefined for a missing one', () => {
    const file = path.join(dir, 'state.json');
    expect(readFileIfExists(file)).toBeUndefined();
    fs.writeFileSync(file, '{}');
    expect(readFileIfExists(file)).toBe('{}');
  });

  it.each(cases)('refuses %s under the name, naming the file and what is there, at once', (found, make) => {
    const file = path.join(dir, 'state.json');
    make(file);
    const err = refusal(() => readFileIfExists(file));
    expect(err.file).toBe(file);
    expect(err.found).toBe(found);
    expect(err.message).toBe(
      `${file} is ${found}, not a regular file; the hub neither reads nor replaces it — move it away and start again`,
    );
  });

  it('follows a link only when told to (a file the user named), and still refuses a FIFO behind one', () => {
    const link = path.join(dir, 'secret');
    fs.symlinkSync(outside, link);
    expect(readFileIfExists(link, { followLink: true })).toBe("a file of the user's\n");
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const toFifo = path.join(dir, 'to-fifo');
    fs.symlinkSync(fifo, toFifo);
    expect(refusal(() => readFileIfExists(toFifo, { followLink: true })).found).toBe('a FIFO (named pipe)');
  });
});

describe('writeFileAtomic', () => {
  it.each(cases)('refuses to replace %s under the name and leaves it and its temp file alone', (found, make) => {
    const file = path.join(dir, 'state.json');
    make(file);
    expect(refusal(() => writeFileAtomic(file, 'new')).found).toBe(found);
    expect(fs.readFileSync(outside, 'utf8')).toBe("a file of the user's\n");
    const stat = fs.lstatSync(file);
    expect(stat.isFIFO() || stat.isDirectory() || stat.isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(['outside.txt', 'state.json']);
  });

  it('replaces a regular file', () => {
    const file = path.join(dir, 'state.json');
    fs.writeFileSync(file, 'old');
    writeFileAtomic(file, 'new');
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
