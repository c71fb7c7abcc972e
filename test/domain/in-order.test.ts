import { describe, expect, it } from 'vitest';
import { InOrder } from '../../src/domain/prompts/in-order.js';

describe('InOrder (prompt admission in arrival order)', () => {
  it('a later step whose I/O finishes first still completes after the earlier one; a failed step does not block the next', async () => {
    const order = new InOrder<string>();
    const done: string[] = [];
    let releaseFirst!: () => void;
    const firstIo = new Promise<void>((r) => (releaseFirst = r));
    const first = order.run('s', async () => {
      await firstIo;
      return 'first';
    });
    const failing = order.run('s', async () => {
      throw new Error('refused');
    });
    const third = order.run('s', async () => 'third');
    const other = order.run('t', async () => 'other key');
    for (const [name, p] of [
      ['first', first],
      ['failing', failing],
      ['third', third],
      ['other', other],
    ] as const)
      p.then(
        () => done.push(name),
        () => done.push(`${name} failed`),
      );
    await other;
    expect(done).toEqual(['other']);
    releaseFirst();
    await third;
    expect(done).toEqual(['other', 'first', 'failing failed', 'third']);
  });
});
