import { describe, expect, it } from 'vitest';
import type { ChatItem, ToolItem } from '../../web/src/hub/chat-types.js';
import { todoRefs } from '../../web/src/hub/todo-cards.js';

const user = (id: string): ChatItem => ({ kind: 'user', id, text: id, images: [] });
const tool = (id: string, title: string): ToolItem => ({
  kind: 'tool',
  id,
  toolCallId: `call_${id}`,
  title,
  status: 'completed',
  content: [],
  terminal: '',
  locations: [],
});

describe('which todo cards draw their list', () => {
  const items: ChatItem[] = [
    user('u1'),
    tool('t1', 'TodoWrite'),
    tool('r1', 'Read README.md'),
    tool('t2', 'TodoWrite'),
    tool('t3', 'TodoWrite'),
    user('u2'),
    tool('t4', 'TodoWrite'),
    user('u3'),
    tool('t5', 'TodoWrite'),
    tool('t6', 'TodoWrite'),
  ];

  it('the last card of each turn draws the list; the earlier ones point below', () => {
    expect(Object.fromEntries(todoRefs(items, undefined))).toEqual({ t1: 'below', t2: 'below', t5: 'below' });
  });

  it('in the turn whose plan the plan view draws, every card points at the plan', () => {
    expect(Object.fromEntries(todoRefs(items, 7))).toEqual({ t1: 'below', t2: 'below', t5: 'plan', t6: 'plan' });
    // A history page that starts mid-turn: the plan view draws the steps of everything shown.
    expect(Object.fromEntries(todoRefs([tool('t1', 'TodoWrite'), tool('t2', 'TodoWrite')], -1))).toEqual({ t1: 'plan', t2: 'plan' });
  });

  it('other tools, and a title that only starts like TodoWrite, are left alone', () => {
    expect(todoRefs([user('u'), tool('a', 'TodoWriter'), tool('b', 'Bash: TodoWrite'), tool('c', 'TodoWrite')], undefined).size).toBe(0);
  });
});
