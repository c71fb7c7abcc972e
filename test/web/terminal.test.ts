import { describe, expect, it } from 'vitest';
import { applyUpdateBody, emptyChat } from '../../web/src/hub/chat-reducer.js';
import type { ToolItem } from '../../web/src/hub/chat-types.js';
import { stripAnsi, taskRunning, terminalCards } from '../../web/src/hub/terminal-cards.js';
import { WEB_LIMITS } from '../../web/src/limits.js';
import { findAll, piecesOf, plainOf, runsOf } from '../../web/src/terminal/ansi-text.js';
import { parseRoute, routePath } from '../../web/src/router-paths.js';

const E = '\u001b[';

describe('terminal text (anser runs, search, strip)', () => {
  it('reads colours and decorations into classes, and keeps the text as text', () => {
    const runs = runsOf(`${E}32m✓${E}0m ok <b>\n${E}1;31mfail${E}0m`);
    expect(runs).toEqual([
      { text: '✓', cls: 'ansi-green-fg' },
      { text: ' ok <b>\n', cls: '' },
      { text: 'fail', cls: 'ansi-red-fg ansi-bold' },
    ]);
    expect(plainOf(runs)).toBe('✓ ok <b>\nfail');
  });

  it('finds every match case-insensitively (at most the bound) and splits runs at match edges', () => {
    const runs = runsOf(`a${E}31mBC${E}0mbc`);
    const starts = findAll(plainOf(runs), 'bc', 10);
    expect(starts).toEqual([1, 3]);
    expect(findAll('aaaa', 'a', 2)).toEqual([0, 1]);
    expect(piecesOf(runs, starts, 2)).toEqual([
      { text: 'a', cls: '' },
      { text: 'BC', cls: 'ansi-red-fg', match: 0 },
      { text: 'bc', cls: '', match: 1 },
    ]);
    // A match across two runs is marked in both pieces.
    const across = runsOf(`x${E}32myz${E}0mw`);
    expect(
      piecesOf(across, findAll('xyzw', 'zw', 5), 2)
        .filter((p) => p.match === 0)
        .map((p) => p.text),
    ).toEqual(['z', 'w']);
  });

  it('strips escape sequences for the card preview', () => {
    expect(stripAnsi(`${E}1mwatching${E}0m ${E}2K\u001b]0;title\u0007done`)).toBe('watching done');
  });
});

describe('terminal cards in the chat', () => {
  const card = (meta: Record<string, unknown>, status = 'in_progress') => ({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'c1',
    status,
    _meta: meta,
  });

  it('a replay’s kept output replaces the card’s and carries the trimmed mark; live deltas append', () => {
    let chat = applyUpdateBody(emptyChat('s'), {
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'npm run test:watch',
      kind: 'execute',
      status: 'completed',
    });
    chat = applyUpdateBody(chat, card({ terminal_output: { terminal_id: 'c1', data: 'Command running in background' } }, 'completed'));
    chat = applyUpdateBody(
      chat,
      card({ zcode: { outputText: 'line 40\n', outputTrimmed: true }, backgroundTask: { taskId: 'exec_1', status: 'running' } }),
    );
    chat = applyUpdateBody(
      chat,
      card({ terminal_output: { terminal_id: 'c1', data: 'line 41\n' }, backgroundTask: { taskId: 'exec_1', status: 'running' } }),
    );
    const item = chat.items[0] as ToolItem;
    expect(item.terminal).toBe('line 40\nline 41\n');
    // Live, the task's output starts on a new line after the launch's result.
    let live = applyUpdateBody(emptyChat('s'), {
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'w',
      kind: 'execute',
      status: 'in_progress',
    });
    live = applyUpdateBody(live, card({ backgroundTask: { taskId: 'exec_1', status: 'running' } }));
    live = applyUpdateBody(
      live,
      card({ terminal_output: { terminal_id: 'c1', data: 'Command running in background' }, zcode: { backgroundLaunch: true } }),
    );
    live = applyUpdateBody(
      live,
      card({ terminal_output: { terminal_id: 'c1', data: 'watching' }, backgroundTask: { taskId: 'exec_1', status: 'running' } }),
    );
    expect((live.items[0] as ToolItem).terminal).toBe('Command running in background\nwatching');
    expect(item.terminalTrimmed).toBe(true);
    expect(item.task).toEqual({ taskId: 'exec_1', status: 'running' });
    expect(taskRunning(item)).toBe(true);
    expect(terminalCards(chat.items).map((c) => c.toolCallId)).toEqual(['c1']);
    chat = applyUpdateBody(chat, card({ backgroundTask: { taskId: 'exec_1', status: 'cancelled', cancelled: true } }, 'failed'));
    expect(taskRunning(chat.items[0] as ToolItem)).toBe(false);
  });

  it('marks the output trimmed once the card’s own tail crosses terminalTailChars', () => {
    let chat = applyUpdateBody(emptyChat('s'), {
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'yes',
      kind: 'execute',
      status: 'in_progress',
    });
    chat = applyUpdateBody(chat, card({ terminal_output: { terminal_id: 'c1', data: 'y'.repeat(WEB_LIMITS.terminalTailChars) } }));
    expect((chat.items[0] as ToolItem).terminalTrimmed).toBeUndefined();
    chat = applyUpdateBody(chat, card({ terminal_output: { terminal_id: 'c1', data: 'n' } }));
    const item = chat.items[0] as ToolItem;
    expect(item.terminal.length).toBe(WEB_LIMITS.terminalTailChars);
    expect(item.terminal.endsWith('n')).toBe(true);
    expect(item.terminalTrimmed).toBe(true);
  });
});

describe('terminal route', () => {
  it('round-trips with its card, on this hub and on another machine', () => {
    expect(routePath({ name: 'terminal', sessionId: 's 1', card: 'call/1' })).toBe('/s/s%201/terminal?card=call%2F1');
    for (const r of [
      { name: 'terminal', sessionId: 's1' },
      { name: 'terminal', sessionId: 's1', card: 'c1' },
      { name: 'terminal', sessionId: 's1', card: 'c1', hubId: 'h1' },
    ] as const)
      expect(parseRoute(routePath(r))).toEqual(r);
  });
});
