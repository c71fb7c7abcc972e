import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ListFile } from '../../src/fs/list-file.js';
import { Machines, SHARED } from '../../src/http/security/machines.js';
import { Peers } from '../../src/http/security/peers.js';
import { PublicUrls } from '../../src/http/security/public-urls.js';

const item = z.object({ name: z.string(), n: z.number() });
type Item = z.infer<typeof item>;
const format = { key: 'items', version: 1, versions: { 1: item } };

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-list-file-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('ListFile: a versioned list file in the state dir', () => {
  it('writes {version, <key>: [...]} pretty-printed with a final newline, mode 0600, and reads it back', () => {
    const file = path.join(dir, 'items.json');
    const list = new ListFile<Item>(file, format);
    list.write([{ name: 'a', n: 1 }]);
    expect(fs.readFileSync(file, 'utf8')).toBe(
      '{\n  "version": 1,\n  "items": [\n    {\n      "name": "a",\n      "n": 1\n    }\n  ]\n}\n',
    );
    expect(modeOf(file)).toBe(0o600);
    expect(new ListFile<Item>(file, format).read()).toEqual([{ name: 'a', n: 1 }]);
  });

  it('replaces the file atomically: no temp file is left and a loosened mode goes back to 0600', () => {
    const file = path.join(dir, 'items.json');
    fs.writeFileSync(file, '{"version":1,"items":[]}', { mode: 0o644 });
    const list = new ListFile<Item>(file, format);
    list.write([{ name: 'a', n: 1 }]);
    list.write([{ name: 'b', n: 2 }]);
    expect(fs.readdirSync(dir)).toEqual(['items.json']);
    expect(modeOf(file)).toBe(0o600);
    expect(list.read()).toEqual([{ name: 'b', n: 2 }]);
  });

  it('a write that cannot land throws and leaves no temp file behind', () => {
    const file = path.join(dir, 'items.json');
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'keep'), 'x');
    expect(() => new ListFile<Item>(file, format).write([{ name: 'a', n: 1 }])).toThrow();
    expect(fs.readdirSync(dir)).toEqual(['items.json']);
    expect(fs.readdirSync(file)).toEqual(['keep']);
  });

  it('creates a missing parent directory private (a fresh state dir)', () => {
    const file = path.join(dir, 'state', 'items.json');
    new ListFile<Item>(file, format).write([]);
    expect(modeOf(path.join(dir, 'state'))).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ version: 1, items: [] });
  });

  it('a missing file reads as [] without a message; without a path nothing is read or written', () => {
    const messages: string[] = [];
    expect(new ListFile<Item>(path.join(dir, 'none.json'), format).read((m) => messages.push(m))).toEqual([]);
    const memory = new ListFile<Item>(undefined, format);
    memory.write([{ name: 'a', n: 1 }]);
    expect(memory.read((m) => messages.push(m))).toEqual([]);
    expect(messages).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['not JSON', '{broken'],
    ['an unknown version', '{"version":2,"items":[]}'],
    ['no version', '{"items":[]}'],
    ['an entry of the wrong shape', '{"version":1,"items":[{"name":1,"n":1}]}'],
    ['the wrong key', '{"version":1,"things":[]}'],
  ])('%s reads as [] and says so, naming the file (the hub still starts)', (_what, text) => {
    const file = path.join(dir, 'items.json');
    fs.writeFileSync(file, text);
    const messages: string[] = [];
    expect(new ListFile<Item>(file, format).read((m) => messages.push(m))).toEqual([]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(`ignoring unreadable ${file}: `);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('a read error other than "missing" is thrown, not taken for an empty list', () => {
    const file = path.join(dir, 'items.json');
    fs.mkdirSync(file);
    expect(() => new ListFile<Item>(file, format).read()).toThrow(/items\.json is a directory, not a regular file/);
  });

  it('reads an older version through its upgrade and writes the current one', () => {
    const file = path.join(dir, 'items.json');
    fs.writeFileSync(file, JSON.stringify({ version: 1, items: [{ name: 'old' }] }));
    const v2 = {
      key: 'items',
      version: 2,
      versions: { 1: z.object({ name: z.string() }).transform((e) => ({ ...e, n: 0 })), 2: item },
    };
    const list = new ListFile<Item>(file, v2);
    expect(list.read()).toEqual([{ name: 'old', n: 0 }]);
    list.write([{ name: 'new', n: 2 }]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ version: 2, items: [{ name: 'new', n: 2 }] });
    expect(list.read()).toEqual([{ name: 'new', n: 2 }]);
  });

  it('normalises each entry read and drops only the ones that no longer normalise', () => {
    const file = path.join(dir, 'items.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        items: [
          { name: ' A ', n: 1 },
          { name: '', n: 2 },
          { name: 'b', n: 3 },
        ],
      }),
    );
    const messages: string[] = [];
    const list = new ListFile<Item>(file, {
      ...format,
      normalise: (e) => {
        const name = e.name.trim().toLowerCase();
        if (!name) throw new Error('empty');
        return { ...e, name };
      },
    });
    expect(list.read((m) => messages.push(m))).toEqual([
      { name: 'a', n: 1 },
      { name: 'b', n: 3 },
    ]);
    expect(messages).toEqual([]);
  });

  it('refuses a format whose written version has no schema', () => {
    expect(() => new ListFile<Item>(path.join(dir, 'x.json'), { key: 'items', version: 2, versions: { 1: item } })).toThrow(
      /version 2 has no schema/,
    );
  });
});

describe('the three state-dir lists keep their on-disk format byte for byte', () => {
  it('peers.json: version 1, flag peers never written', () => {
    const file = path.join(dir, 'peers.json');
    const peers = new Peers(file, 8, ['https://flag.example'], undefined, () => 5);
    peers.add('https://App.Example:443/', 'cli');
    expect(fs.readFileSync(file, 'utf8')).toBe(
      '{\n  "version": 1,\n  "peers": [\n    {\n      "origin": "https://app.example",\n      "addedAt": 5,\n      "via": "cli"\n    }\n  ]\n}\n',
    );
    expect(modeOf(file)).toBe(0o600);
    expect(new Peers(file, 8).list()).toEqual([{ origin: 'https://app.example', addedAt: 5, via: 'cli' }]);
  });

  it('public-urls.json: version 1, a list of origins', () => {
    const file = path.join(dir, 'public-urls.json');
    new PublicUrls(file, 4).add('https://Tunnel.Example/');
    expect(fs.readFileSync(file, 'utf8')).toBe('{\n  "version": 1,\n  "urls": [\n    "https://tunnel.example"\n  ]\n}\n');
    expect(modeOf(file)).toBe(0o600);
    expect(new PublicUrls(file, 4).list()).toEqual(['https://tunnel.example']);
  });

  it('machines.json: version 2 with the device of each entry; version 1 is read as shared', () => {
    const file = path.join(dir, 'machines.json');
    const hubId = '0f8b2c1e-3d4a-4b5c-8d6e-7f8091a2b3c4';
    new Machines(file, 4, undefined, () => 7).put('dev', hubId, { url: 'https://m.example/', name: 'm' });
    expect(fs.readFileSync(file, 'utf8')).toBe(
      `{\n  "version": 2,\n  "machines": [\n    {\n      "hubId": "${hubId}",\n      "url": "https://m.example",\n      "name": "m",\n      "addedAt": 7,\n      "tokenId": "dev"\n    }\n  ]\n}\n`,
    );
    expect(modeOf(file)).toBe(0o600);
    fs.writeFileSync(file, JSON.stringify({ version: 1, machines: [{ hubId, url: 'https://m.example', name: 'm', addedAt: 1 }] }));
    const machines = new Machines(file, 4);
    expect(machines.list('anyone')).toEqual([{ hubId, url: 'https://m.example', name: 'm', addedAt: 1 }]);
    machines.removeToken('nobody');
    machines.put('dev', hubId, { url: 'https://m.example', name: 'mine' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).machines.map((m: { tokenId: string }) => m.tokenId)).toEqual([SHARED, 'dev']);
  });
});
