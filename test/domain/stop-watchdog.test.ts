import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PromptLife } from '../../src/domain/prompts/prompt-life.js';
import type { QueuedPrompt } from '../../src/domain/prompts/prompt-queue.js';
import { StopWatchdog, type StopTarget } from '../../src/domain/prompts/stop-watchdog.js';

const prompt = (id: string): QueuedPrompt => ({
  promptId: id,
  life: new PromptLife(id),
  clientId: 'c',
  by: { clientId: 'c', name: 'c', person: 'c', device: 'c', tokenId: 'c' },
  preview: '',
  content: [],
  resolve: () => undefined,
  reject: () => undefined,
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => vi.useRealTimers());

describe('StopWatchdog (APP-SERVER.md §11 item 7)', () => {
  it('fires once after settleMs with the stopped target; a repeated stop of the same turn keeps the first deadline', () => {
    const fired: Array<[string, StopTarget]> = [];
    const w = new StopWatchdog(100, (id, t) => fired.push([id, t]));
    const target = { prompt: prompt('p1'), turnId: 't1' };
    w.arm('s1', target);
    vi.advanceTimersByTime(60);
    w.arm('s1', { ...target });
    vi.advanceTimersByTime(40);
    expect(fired).toEqual([['s1', target]]);
    expect(w.size).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(fired).toHaveLength(1);
  });

  it('a real end clears it; a stop of another turn re-arms; close() clears every session', () => {
    const fired: string[] = [];
    const w = new StopWatchdog(100, (id, t) => fired.push(`${id}:${t.turnId}`));
    w.arm('s1', { prompt: prompt('p1'), turnId: 't1' });
    w.clear('s1');
    vi.advanceTimersByTime(200);
    expect(fired).toEqual([]);
    w.arm('s1', { prompt: prompt('p1'), turnId: 't1' });
    w.arm('s1', { prompt: prompt('p2'), turnId: 't2' });
    w.arm('s2', { prompt: undefined, turnId: 't3' });
    expect(w.size).toBe(2);
    vi.advanceTimersByTime(100);
    expect(fired).toEqual(['s1:t2', 's2:t3']);
    w.arm('s3', { prompt: undefined, turnId: 't4' });
    w.close();
    vi.advanceTimersByTime(200);
    expect(fired).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
