import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuestionInteraction, ZcodeAnswer } from '../../src/acp/interactions.js';
import { openStepwiseCopy } from '../../src/domain/interactions/stepwise-copy.js';
import { RecorderClient } from './helpers.js';

/** One-card-at-a-time questions (zcode-acp-remote profile) and the `compatQuestionPrefaceMs` bound. */
const record: QuestionInteraction = {
  kind: 'question',
  requestId: 'ask-1',
  sessionId: 's1',
  toolCallId: 'tc-ask',
  title: 'AskUserQuestion',
  questions: [
    {
      question: 'Pick one',
      header: '',
      options: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
      ],
    },
    {
      question: 'Pick many',
      header: '',
      multiSelect: true,
      options: [
        { value: 'x', label: 'X' },
        { value: 'y', label: 'Y' },
      ],
    },
  ],
};
const selected = (optionId: string) => ({ outcome: { outcome: 'selected', optionId } });

afterEach(() => {
  vi.useRealTimers();
});

describe('stepwise question copy', () => {
  it("sends each card's tool_call first and its request only once compatQuestionPrefaceMs has passed", async () => {
    vi.useFakeTimers();
    const client = new RecorderClient({ profile: 'legacy' });
    const replies: ZcodeAnswer[] = [];
    openStepwiseCopy(record, client, 400, (r) => replies.push(r));
    const toolCall = client.frames.find((f) => f.method === 'session/update');
    expect((toolCall?.params as { update: { toolCallId: string; _meta: { claudeCode: { toolName: string } } } }).update).toMatchObject({
      toolCallId: 'tc-ask_0',
      _meta: { claudeCode: { toolName: 'AskUserQuestion' } },
    });
    await vi.advanceTimersByTimeAsync(399);
    expect(client.requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.requests).toHaveLength(1);
    expect(client.requests[0]!.params.toolCall).toMatchObject({ toolCallId: 'tc-ask_0' });
    client.requests[0]!.reply(selected('option_1'));
    await vi.advanceTimersByTimeAsync(400);
    expect(client.requests).toHaveLength(2);
    client.requests[1]!.reply(selected('include'));
    await vi.advanceTimersByTimeAsync(400);
    client.requests[2]!.reply(selected('skip'));
    await vi.advanceTimersByTimeAsync(0);
    expect(replies).toEqual([
      { type: 'answer', outcome: 'answered', result: { action: 'accept', content: { answers: { 'Pick one': 'b', 'Pick many': ['x'] } } } },
    ]);
  });

  it('a cancelled card dismisses the copy and an unoffered option is refused; withdraw cancels the card in flight', async () => {
    vi.useFakeTimers();
    const dismissed: ZcodeAnswer[] = [];
    const a = new RecorderClient({ profile: 'legacy' });
    openStepwiseCopy(record, a, 0, (r) => dismissed.push(r));
    await vi.advanceTimersByTimeAsync(0);
    a.requests[0]!.reply({ outcome: { outcome: 'cancelled' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(dismissed).toEqual([{ type: 'dismissed' }]);

    const refused: ZcodeAnswer[] = [];
    const b = new RecorderClient({ profile: 'legacy' });
    openStepwiseCopy(record, b, 0, (r) => refused.push(r));
    await vi.advanceTimersByTimeAsync(0);
    b.requests[0]!.reply(selected('include'));
    await vi.advanceTimersByTimeAsync(0);
    expect(refused[0]).toMatchObject({ type: 'invalid' });

    const c = new RecorderClient({ profile: 'legacy' });
    const copy = openStepwiseCopy(record, c, 0, () => undefined);
    await vi.advanceTimersByTimeAsync(0);
    copy.withdraw();
    expect(c.cancelled).toEqual([c.requests[0]!.id]);
  });
});
