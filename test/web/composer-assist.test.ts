import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { fileUrl, insertMention, mentionAt, mentionChoices, mentionLinks } from '../../web/src/composer/mentions.js';
import { commandsFor, resolveCommand, suggestCommands } from '../../web/src/composer/slash-commands.js';
import { choicesOf } from '../../web/src/hub/config-choices.js';

const model: SessionConfigOption = {
  id: 'model',
  name: 'Model',
  type: 'select',
  currentValue: 'sim-fast',
  options: [
    { value: 'sim-fast', name: 'Sim Fast' },
    { value: 'sim-deep', name: 'Sim Deep' },
  ],
};
const level: SessionConfigOption = {
  id: 'thought_level',
  name: 'Thinking',
  type: 'select',
  currentValue: 'low',
  options: [
    {
      group: 'g',
      name: 'Levels',
      options: [
        { value: 'low', name: 'Low' },
        { value: 'high', name: 'High' },
      ],
    },
  ],
};
const text = (key: string, ...args: string[]) => [key, ...args].join('|');
const commands = commandsFor({
  modes: [
    { id: 'build', name: 'Build' },
    { id: 'plan', name: 'Plan' },
  ],
  modeId: 'build',
  configOptions: [model, level],
  choices: choicesOf,
  workflows: [{ scope: 'project', name: 'Release Notes', description: 'Drafts the notes' }],
  text,
});

describe('slash commands', () => {
  it('come from what the session offers: its modes, options, compaction, goal and workflows', () => {
    expect(commands.map((c) => c.name)).toEqual([
      'mode build',
      'mode plan',
      'model sim-fast',
      'model sim-deep',
      'thinking low',
      'thinking high',
      'compact',
      'goal',
      'goal show',
      'goal pause',
      'goal resume',
      'goal clear',
      'workflow release-notes',
    ]);
    expect(commands.filter((c) => c.current).map((c) => c.name)).toEqual(['mode build', 'model sim-fast', 'thinking low']);
    expect(commands.find((c) => c.name === 'workflow release-notes')?.hint).toBe('cmdWorkflow|project — Drafts the notes');
  });

  it('leave the modes to a mode option when the session has one', () => {
    const modeOption: SessionConfigOption = { ...model, id: 'mode', name: 'Mode', currentValue: 'a', options: [{ value: 'a', name: 'A' }] };
    const names = commandsFor({
      modes: [{ id: 'build', name: 'Build' }],
      configOptions: [modeOption],
      choices: choicesOf,
      workflows: [],
      text,
    }).map((c) => c.name);
    expect(names.filter((n) => n.startsWith('mode'))).toEqual(['mode a']);
  });

  it('are suggested while typing, by prefix first, then by every word', () => {
    expect(suggestCommands('/mo', commands, 4).map((c) => c.name)).toEqual(['mode build', 'mode plan', 'model sim-fast', 'model sim-deep']);
    expect(suggestCommands('/go', commands, 8).map((c) => c.name)).toEqual([
      'goal',
      'goal show',
      'goal pause',
      'goal resume',
      'goal clear',
    ]);
    expect(suggestCommands('/deep', commands, 8).map((c) => c.name)).toEqual(['model sim-deep']);
    expect(suggestCommands('/goal write the tests', commands, 8)).toEqual([]);
    expect(suggestCommands('hello /mode', commands, 8)).toEqual([]);
    expect(suggestCommands('/mode\nmore', commands, 8)).toEqual([]);
  });

  it("with only `/` typed, show one of each kind first: the agent's commands, the app's, then each picker's current choice", () => {
    const withAgent = commandsFor({
      modes: [
        { id: 'build', name: 'Build' },
        { id: 'plan', name: 'Plan' },
      ],
      modeId: 'plan',
      configOptions: [model, level],
      choices: choicesOf,
      workflows: [],
      agentCommands: [{ name: 'review', description: 'Review the code', input: { hint: '<focus>' } }],
      text,
    });
    expect(suggestCommands('/', withAgent, 8).map((c) => c.name)).toEqual([
      'review',
      'compact',
      'goal',
      'mode plan',
      'model sim-fast',
      'thinking low',
      'mode build',
      'model sim-deep',
    ]);
    expect(suggestCommands('/', commands, 4).map((c) => c.name)).toEqual(['compact', 'goal', 'workflow release-notes', 'mode build']);
  });

  it('a sent text names a command, the longest first, with its free text', () => {
    const r = (s: string) => {
      const found = resolveCommand(s, commands);
      return found && [found.command.name, found.argument];
    };
    expect(r('/goal pause')).toEqual(['goal pause', '']);
    expect(r('/goal  Ship the release ')).toEqual(['goal', 'Ship the release']);
    expect(r('/Compact keep the API notes')).toEqual(['compact', 'keep the API notes']);
    expect(r('/model sim-deep')).toEqual(['model sim-deep', '']);
    // Not a command: a prompt that happens to start with a slash, or a command given text it does not take.
    expect(r('/model sim-deep please')).toBeUndefined();
    expect(r('/usr/bin is where')).toBeUndefined();
    expect(r('compact')).toBeUndefined();
  });
});

describe("the agent's own commands", () => {
  const withAgent = commandsFor({
    modes: [],
    configOptions: [],
    choices: choicesOf,
    workflows: [],
    agentCommands: [
      { name: 'compact', description: 'the agent compacts' },
      { name: 'review', description: 'Review the diff', input: { hint: '<focus>' } },
      { name: '$tdd', description: 'A skill' },
      { name: 'two words', description: 'not a command name' },
    ],
    text,
  });

  it('are offered after the ones the app runs itself, without repeating those', () => {
    const agent = withAgent.filter((c) => c.action.kind === 'agent');
    expect(agent.map((c) => [c.name, c.hint, c.argument])).toEqual([
      ['review', 'Review the diff', '<focus>'],
      ['$tdd', 'A skill', undefined],
    ]);
    expect(withAgent.filter((c) => c.name === 'compact').map((c) => c.action.kind)).toEqual(['compact']);
    expect(suggestCommands('/rev', withAgent, 8).map((c) => c.name)).toEqual(['review']);
  });

  it('are never run by the app: the text goes to the agent as a prompt', () => {
    expect(resolveCommand('/review the auth code', withAgent)).toBeUndefined();
    expect(resolveCommand('/$tdd', withAgent)).toBeUndefined();
    expect(resolveCommand('/compact', withAgent)?.command.action.kind).toBe('compact');
  });
});

describe('@ mentions', () => {
  it('find the path being typed before the caret', () => {
    expect(mentionAt('look at @sr', 11)).toEqual({ start: 8, dir: '', partial: 'sr' });
    expect(mentionAt('@src/views/ch', 13)).toEqual({ start: 0, dir: 'src/views', partial: 'ch' });
    expect(mentionAt('mail me@example', 15)).toBeUndefined();
    expect(mentionAt('@../etc', 7)).toBeUndefined();
    expect(mentionAt('@/etc', 5)).toBeUndefined();
    expect(mentionAt('@src done', 9)).toBeUndefined();
  });

  it('offer folders first, hide dot files unless asked for', () => {
    const entries = [
      { name: 'src', kind: 'dir' },
      { name: 'README.md', kind: 'file' },
      { name: '.env', kind: 'file' },
      { name: 'scripts', kind: 'dir' },
      { name: 'setup.sh', kind: 'file' },
    ];
    expect(mentionChoices(entries, 's', 8).map((e) => e.name)).toEqual(['scripts', 'src', 'setup.sh']);
    expect(mentionChoices(entries, '', 2).map((e) => e.name)).toEqual(['scripts', 'src']);
    expect(mentionChoices(entries, '.', 8).map((e) => e.name)).toEqual(['.env']);
  });

  it('put the chosen path in place of what was typed', () => {
    const q = mentionAt('see @sr and more', 7)!;
    expect(insertMention('see @sr and more', 7, q, 'src', true)).toEqual({ text: 'see @src/ and more', caret: 9 });
    const q2 = mentionAt('see @src/ma', 11)!;
    expect(insertMention('see @src/ma', 11, q2, 'main.ts', false)).toEqual({ text: 'see @src/main.ts ', caret: 17 });
  });

  it('become resource links for the files still mentioned when the prompt is sent', () => {
    const chosen = new Map([
      ['src/main.ts', '/work/my project'],
      ['gone.md', '/work/my project'],
    ]);
    expect(mentionLinks('fix @src/main.ts and @src/main.ts, not @other.ts', chosen)).toEqual([
      { type: 'resource_link', uri: 'file:///work/my%20project/src/main.ts', name: 'main.ts' },
    ]);
    expect(fileUrl('/w/', 'a #1/b?.md')).toBe('file:///w/a%20%231/b%3F.md');
  });
});
