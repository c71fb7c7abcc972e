import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAST_SEEN_RESOLUTION_MS, TOKENS_FILE, TokenRegistry, type TokenRecord } from '../../src/auth/token-registry.js';
import { tempDir } from '../security/helpers/temp-dir.js';

const record = (id: string): TokenRecord => ({
  id,
  name: `device ${id}`,
  person: 'ana',
  scope: 'operate',
  createdAt: 1,
  expiresAt: Number.MAX_SAFE_INTEGER,
  via: 'pairing',
});

describe('last-seen times of device tokens on disk', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const c of cleanups.splice(0)) c();
  });
  function registry(): { registry: TokenRegistry; file: string; seenOnDisk: () => Record<string, number | undefined> } {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const registry = TokenRegistry.open(tmp.dir);
    const file = path.join(tmp.dir, TOKENS_FILE);
    const seenOnDisk = () =>
      Object.fromEntries((JSON.parse(fs.readFileSync(file, 'utf8')) as { tokens: TokenRecord[] }).tokens.map((t) => [t.id, t.lastSeenAt]));
    return { registry, file, seenOnDisk };
  }

  it('a token used without pause reaches the file within the resolution, every token’s uses of that time in one write', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { registry: r, seenOnDisk } = registry();
    for (const id of ['a', 'b', 'c']) r.add(record(id));
    // Three devices each used every 10 s for three minutes: a busy phone is never idle for a minute.
    let now = 1_000_000;
    const onDisk: Array<Record<string, number | undefined>> = [];
    for (let step = 0; step < 18; step++) {
      for (const id of ['a', 'b', 'c']) r.touch(id, now + (id === 'b' ? 1 : 0));
      now += 10_000;
      vi.advanceTimersByTime(10_000);
      if (step % 6 === 5) onDisk.push(seenOnDisk());
    }
    // Each minute's write holds every token's last use before it, the busy ones included.
    expect(onDisk.map((d) => d['a'])).toEqual([1_050_000, 1_110_000, 1_170_000]);
    expect(onDisk.map((d) => d['b'])).toEqual([1_050_001, 1_110_001, 1_170_001]);
    r.touch('c', now);
    expect(seenOnDisk()['c']).toBe(1_170_000);
    // A stop writes what waits.
    r.close();
    expect(seenOnDisk()['c']).toBe(now);
  });

  it('uses within the resolution are one write, however many tokens', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { registry: r, file, seenOnDisk } = registry();
    for (let i = 0; i < 20; i++) r.add(record(`t${i}`));
    const spy = vi.spyOn(fs, 'renameSync');
    for (let i = 0; i < 20; i++) r.touch(`t${i}`, 5_000 + i);
    expect(spy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(LAST_SEEN_RESOLUTION_MS);
    expect(spy.mock.calls.filter(([, to]) => to === file)).toHaveLength(1);
    spy.mockRestore();
    expect(Object.values(seenOnDisk())).toEqual(Array.from({ length: 20 }, (_, i) => 5_000 + i));
  });
});
