/**
 * MessageWithParts (src/wire/history.ts): strictly one `info` shape per role and one part shape
 * per type; the hub reads one loose object of each (src/acp/message-schema.ts).
 */
import { describe, expect, it } from 'vitest';
import { messagePartSchema, messageWithPartsSchema, parseMessages } from '../../src/acp/message-schema.js';
import { messagePart, messageWithParts } from '../../src/wire/history.js';

const user = {
  info: { messageId: 'm1', sessionId: 's1', role: 'user', time: { created: 1 }, agent: 'build' },
  parts: [{ partId: 'p1', sessionId: 's1', messageId: 'm1', type: 'text', text: 'hi' }],
};
const tool = {
  partId: 'p2',
  sessionId: 's1',
  messageId: 'm2',
  type: 'tool',
  callId: 'c1',
  tool: 'Read',
  state: { status: 'completed', input: {}, output: 'ok', title: 'Read', metadata: {}, startedAt: 1, completedAt: 2 },
};
const assistant = {
  info: {
    messageId: 'm2',
    sessionId: 's1',
    role: 'assistant',
    time: { created: 1, completed: 2 },
    parentMessageId: 'm1',
    agent: 'build',
    path: { cwd: '/w', root: '/w' },
    cost: 0,
    tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
    finish: 'stop',
  },
  parts: [tool],
};

describe('MessageWithParts, one definition', () => {
  it('the hub reads with the lenient readings of the same definition', () => {
    expect(messageWithPartsSchema).toBe(messageWithParts.lenient);
    expect(messagePartSchema).toBe(messagePart.lenient);
    expect(messageWithParts.strict.safeParse(user).success).toBe(true);
    expect(messageWithParts.strict.safeParse(assistant).success).toBe(true);
  });

  it('strictly an assistant message needs its path, cost and tokens; a user message may not have them', () => {
    const { path: _p, ...noPath } = assistant.info;
    expect(messageWithParts.strict.safeParse({ ...assistant, info: noPath }).success).toBe(false);
    expect(messageWithParts.strict.safeParse({ ...user, info: { ...user.info, cost: 0 } }).success).toBe(false);
    expect(messageWithParts.strict.safeParse({ ...user, info: { ...user.info, role: 'system' } }).success).toBe(false);
  });

  it('strictly a part has the fields of its type and a tool state those of its status', () => {
    expect(messagePart.strict.safeParse({ ...tool, text: 'x' }).success).toBe(false);
    expect(messagePart.strict.safeParse({ ...tool, state: { ...tool.state, status: 'running' } }).success).toBe(false);
    expect(messagePart.strict.safeParse({ ...tool, type: 'hologram' }).success).toBe(false);
  });

  it('the hub takes an older CLI’s history: no time, an unknown role and part type, a numeric error code', () => {
    const older = [
      { info: { messageId: 'm1', role: 'system' }, parts: [{ type: 'hologram', partId: 'p9' }] },
      { info: { messageId: 'm2', role: 'assistant', finish: 'error', error: { message: 'down', code: 503 } } },
    ];
    expect(messageWithParts.strict.safeParse(older[0]).success).toBe(false);
    const dropped: string[] = [];
    expect(parseMessages(older, (d) => dropped.push(d))).toMatchObject([
      { info: { role: 'system' }, parts: [{ type: 'hologram' }] },
      { info: { error: { code: 503 } }, parts: [] },
    ]);
    expect(dropped).toEqual([]);
  });
});
