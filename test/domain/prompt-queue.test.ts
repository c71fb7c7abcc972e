import type { ContentBlock } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { PromptLife } from '../../src/domain/prompts/prompt-life.js';
import { PromptQueue, promptPreview, type PromptResult, type QueuedPrompt } from '../../src/domain/prompts/prompt-queue.js';

function prompt(id: string, clientId: string): QueuedPrompt & { results: PromptResult[] } {
  const results: PromptResult[] = [];
  return {
    promptId: id,
    life: new PromptLife(id),
    clientId,
    by: { clientId, name: clientId, person: clientId, device: clientId, tokenId: clientId },
    preview: id,
    content: [{ type: 'text', text: id }],
    resolve: (r) => results.push(r),
    reject: () => undefined,
    results,
  };
}

describe('PromptQueue', () => {
  it('is FIFO and sends the next prompt only after the ready boundary', () => {
    const q = new PromptQueue();
    const a = prompt('a', 'c1');
    const b = prompt('b', 'c2');
    expect(q.enqueue(a)).toBe(0);
    expect(q.enqueue(b)).toBe(1);
    expect(q.takeNext()?.prompt).toBe(a);
    expect(a.life.phase).toBe('admitted');
    expect(q.running).toBe(a);
    expect(q.enqueue(prompt('c', 'c3'))).toBe(2);
    // Never pre-empts: nothing else while a runs.
    expect(q.takeNext()).toBeUndefined();
    // Its machine ends it: the slot is free (nothing to tell the queue).
    a.life.apply({ type: 'turn_ended', turnId: 't', inputId: 'a', outcome: 'completed' });
    expect(q.running).toBeUndefined();
    // Turn over but the child has not said prompt_completed yet (APP-SERVER.md §11.6).
    expect(q.takeNext()).toBeUndefined();
    q.markReady();
    expect(q.takeNext()?.prompt).toBe(b);
  });

  it('admits at the boundaries seen so far, counts them, and echoes a prompt once', () => {
    const q = new PromptQueue();
    const a = prompt('a', 'c1');
    q.enqueue(a);
    q.noteBoundary(false);
    q.noteBoundary(true);
    expect(q.boundaries).toEqual({ count: 2, failed: true });
    expect(q.takeNext()?.step).toMatchObject({ to: 'admitted', effect: 'echo' });
    // A busy refusal at the same boundary waits for the next one.
    expect(a.life.apply({ type: 'busy', boundary: 2 }).effect).toBe('await_boundary');
    q.requeueHead(a);
    q.markReady();
    expect(q.takeNext()?.step).toEqual({ from: 'queued', to: 'admitted', applied: true });
  });

  it('keeps the background turn and the last terminal failure for the prompt flow', () => {
    const q = new PromptQueue();
    q.noteBackgroundTurn('bg', false);
    expect(q.backgroundRunning).toBe(true);
    q.noteBackgroundTurn('other', true);
    expect(q.backgroundRunning).toBe(true);
    q.noteBackgroundTurn('bg', true);
    expect(q.backgroundRunning).toBe(false);
    q.noteTerminalFailure({ message: 'boom' });
    expect(q.takeTerminalFailure()).toEqual({ message: 'boom' });
    expect(q.takeTerminalFailure()).toBeUndefined();
  });

  it('requeues a -32010 refusal at the head and waits for the boundary', () => {
    const q = new PromptQueue();
    const a = prompt('a', 'c1');
    const b = prompt('b', 'c1');
    q.enqueue(a);
    q.enqueue(b);
    expect(q.takeNext()?.prompt).toBe(a);
    a.life.apply({ type: 'busy', boundary: 0 });
    q.requeueHead(a);
    expect(q.running).toBeUndefined();
    expect(q.takeNext()).toBeUndefined();
    q.markReady();
    expect(q.takeNext()?.prompt).toBe(a);
  });

  it("cancel removes only the cancelling client's queued prompts; others stay queued", () => {
    const q = new PromptQueue();
    const run = prompt('run', 'c2');
    const mine1 = prompt('m1', 'c1');
    const theirs = prompt('t', 'c2');
    const mine2 = prompt('m2', 'c1');
    for (const p of [run, mine1, theirs, mine2]) q.enqueue(p);
    expect(q.takeNext()?.prompt).toBe(run);
    expect(q.removeClient('c1').map((p) => p.promptId)).toEqual(['m1', 'm2']);
    expect(q.queued.map((p) => p.promptId)).toEqual(['t']);
    expect(q.running).toBe(run);
  });

  it('previews prompts briefly', () => {
    const long: ContentBlock[] = [{ type: 'text', text: 'x'.repeat(500) }];
    expect(promptPreview(long).length).toBeLessThanOrEqual(120);
    expect(
      promptPreview([
        { type: 'text', text: 'hi' },
        { type: 'resource_link', uri: 'file:///a', name: 'a' },
      ]),
    ).toBe('hi file:///a');
  });
});
