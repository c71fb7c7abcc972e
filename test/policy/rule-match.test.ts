import { describe, expect, it } from 'vitest';
import { firstMatch, toolFacts, type RequestFacts } from '../../src/policy/rule-match.js';
import { policySchemas, type Rule } from '../../src/policy/rule-schema.js';
import { LIMITS } from '../../src/limits.js';
import example from '../../docs/policy.example.json' with { type: 'json' };

/** Which rule decides (src/policy/rule-match.ts): first match wins, every given field must match. */

const WS = '/home/ann/project';
const facts = (tool: string, input: unknown, extra: Partial<RequestFacts> = {}): RequestFacts => ({
  workspace: WS,
  sessionId: 's1',
  ...toolFacts(tool, input, WS),
  ...extra,
});
const rule = (id: string, match: Rule['match'], decide: Rule['decide'] = 'allow'): Rule => ({ id, match, decide });

describe('rule matching', () => {
  it('the first matching rule decides; no match is undefined', () => {
    const rules = [rule('a', { command: 'git *' }, 'deny'), rule('b', { kind: 'execute' })];
    expect(firstMatch(rules, facts('Bash', { command: 'git  push' }))?.id).toBe('a');
    expect(firstMatch(rules, facts('Bash', { command: 'ls' }))?.id).toBe('b');
    expect(firstMatch(rules, facts('Read', { file_path: `${WS}/x` }))).toBeUndefined();
  });

  it('command globs cross "/" (bash rules); path globs are relative to the workspace and do not leave it', () => {
    expect(firstMatch([rule('rm', { command: '*rm -rf*' })], facts('Bash', { command: 'sudo rm -rf /var/x' }))?.id).toBe('rm');
    const inside = rule('in', { path: '**' });
    expect(firstMatch([inside], facts('Read', { file_path: `${WS}/src/a.ts` }))?.id).toBe('in');
    expect(firstMatch([inside], facts('Read', { file_path: '/etc/passwd' }))).toBeUndefined();
    expect(firstMatch([rule('out', { path: '../**' })], facts('Write', { file_path: '/etc/passwd' }))?.id).toBe('out');
    expect(toolFacts('Edit', { file_path: 'src/b.ts' }, WS).path).toBe('src/b.ts');
  });

  it('a field the request does not have never matches; tool names ignore case; session and workspace', () => {
    expect(firstMatch([rule('c', { command: '*' })], facts('Read', { file_path: `${WS}/a` }))).toBeUndefined();
    expect(firstMatch([rule('t', { tool: 'bash' })], facts('Bash', { command: 'ls' }))?.id).toBe('t');
    expect(firstMatch([rule('s', { session: 's2' })], facts('Bash', { command: 'ls' }))).toBeUndefined();
    expect(firstMatch([rule('w', { workspace: '/home/ann/**' })], facts('Bash', { command: 'ls' }))?.id).toBe('w');
    expect(firstMatch([rule('q', { kind: ['question', 'plan'] })], { workspace: WS, sessionId: 's', kind: 'plan' })?.id).toBe('q');
  });

  it('docs/policy.example.json is a valid policy that does what it says', () => {
    const rules = policySchemas(LIMITS).rules.parse(example.rules);
    expect(firstMatch(rules, facts('Grep', { pattern: 'x', path: `${WS}/src` }))?.decide).toBe('allow');
    expect(firstMatch(rules, facts('Read', { file_path: '/etc/shadow' }))?.decide).not.toBe('allow');
    for (const command of ['rm -rf build', 'git push --force origin main', 'git push -f'])
      expect(firstMatch(rules, facts('Bash', { command }))?.approvers?.scopes, command).toEqual(['admin']);
    expect(firstMatch(rules, facts('Write', { file_path: '/etc/hosts', content: '' }))?.approvers?.scopes).toEqual(['admin']);
    expect(firstMatch(rules, facts('Write', { file_path: `${WS}/a.ts`, content: '' }))).toBeUndefined();
  });
});
