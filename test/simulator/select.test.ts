import { describe, expect, it } from 'vitest';
import { selectBehaviour } from '../../src/simulator/scenarios/select.js';
import { parseSimOptions } from '../../src/simulator/options.js';

describe('scenario selector', () => {
  it('no keyword → answer', () => expect(selectBehaviour('hello world')).toBe('answer'));
  it('is case-insensitive and matches whole words', () => {
    expect(selectBehaviour('Please ask PERMISSION')).toBe('permission');
    expect(selectBehaviour('airplane and planet')).toBe('answer');
    expect(selectBehaviour('a few questions')).toBe('question');
  });
  it('the keyword appearing first wins', () => {
    expect(selectBehaviour('plan first, then ask permission')).toBe('plan');
    expect(selectBehaviour('permission for the plan')).toBe('permission');
  });
  it('each keyword maps to its behaviour', () => {
    for (const k of ['permission', 'question', 'plan', 'background', 'fail', 'slow', 'todo', 'edit'])
      expect(selectBehaviour(`do ${k} now`)).toBe(k);
  });
  it('a prompt that is the simulator’s own `/review` command runs it, keywords in its focus or not', () => {
    expect(selectBehaviour('/review')).toBe('review');
    expect(selectBehaviour('/review the plan and its permissions')).toBe('review');
    expect(selectBehaviour('  /review src')).toBe('review');
    // Not the command: the name inside a prompt, or a longer word.
    expect(selectBehaviour('please /review this')).toBe('answer');
    expect(selectBehaviour('/reviewer plan')).toBe('plan');
  });
  it('a forced scenario and bench mode override keywords', () => {
    expect(selectBehaviour('permission', 'slow')).toBe('slow');
    expect(selectBehaviour('permission', 'default', true)).toBe('bench');
  });
});

describe('simulator options', () => {
  it('reads flags, env fallbacks, and defaults the data dir under ZCODE_DATA_BASE_DIR', () => {
    const o = parseSimOptions(['--slow-ms', '20', '--never-answer', 'a/b', '--never-answer=c/d', '--junk-lines'], {
      ZCODE_SIM_CRASH_AFTER_EVENTS: '7',
      ZCODE_DATA_BASE_DIR: '/tmp/base',
      ZCODE_SIM_SCENARIO: 'slow',
    });
    expect(o.slowMs).toBe(20);
    expect(o.neverAnswer).toEqual(['a/b', 'c/d']);
    expect(o.junkLines).toBe(true);
    expect(o.crashAfterEvents).toBe(7);
    expect(o.scenario).toBe('slow');
    expect(o.dataDir).toBe('/tmp/base/.zcode/sim');
  });
  it('rejects unknown flags', () => expect(() => parseSimOptions(['--nope'], {})).toThrow(/Unknown flag/));
});
