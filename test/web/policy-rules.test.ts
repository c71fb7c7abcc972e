/**
 * The phone's rule checks (web/src/policy/policy-rules.ts) agree with the hub's schema
 * (src/policy/rule-schema.ts): the same rules pass, the same are refused, on the same field.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits.js';
import {
  APPROVER_SCOPES as HUB_SCOPES,
  ASK_ONLY as HUB_ASK_ONLY,
  QUORUM_ON_QUESTION as HUB_QUORUM_ON_QUESTION,
  RULE_KINDS as HUB_KINDS,
  policySchemas,
} from '../../src/policy/rule-schema.js';
import {
  APPROVER_SCOPES,
  ASK_ONLY,
  POLICY_LIMITS,
  QUORUM_ON_QUESTION,
  RULE_KINDS,
  apiFieldErrors,
  moveRule,
  parsePolicy,
  ruleErrors,
  type Rule,
} from '../../web/src/policy/policy-rules.js';

const long = 'x'.repeat(LIMITS.policyRuleTextMax + 1);
const cases: Array<[string, unknown]> = [
  ['plain allow', { id: 'a', match: {}, decide: 'allow' }],
  [
    'ask with everything',
    {
      id: 'a.b_c-1',
      description: 'd',
      match: { kind: ['read', 'execute'], tool: 't', command: 'rm *', path: '**', workspace: 'w', session: 's' },
      decide: 'ask',
      approvers: { scopes: ['admin'], people: ['ann'], originator: true },
      quorum: 2,
      localOnly: true,
    },
  ],
  ['one kind as a string', { id: 'a', match: { kind: 'plan' }, decide: 'deny' }],
  ['empty id', { id: '', match: {}, decide: 'allow' }],
  ['id with a space', { id: 'bad id', match: {}, decide: 'allow' }],
  ['id too long', { id: long, match: {}, decide: 'allow' }],
  ['empty description', { id: 'a', description: '', match: {}, decide: 'allow' }],
  ['unknown kind', { id: 'a', match: { kind: ['read', 'nope'] }, decide: 'allow' }],
  ['no kinds', { id: 'a', match: { kind: [] }, decide: 'allow' }],
  ['empty command', { id: 'a', match: { command: '' }, decide: 'allow' }],
  ['path too long', { id: 'a', match: { path: long }, decide: 'allow' }],
  ['bad decide', { id: 'a', match: {}, decide: 'maybe' }],
  ['no scopes', { id: 'a', match: {}, decide: 'ask', approvers: { scopes: [] } }],
  ['bad scope', { id: 'a', match: {}, decide: 'ask', approvers: { scopes: ['view'] } }],
  ['no people', { id: 'a', match: {}, decide: 'ask', approvers: { people: [] } }],
  ['empty person', { id: 'a', match: {}, decide: 'ask', approvers: { people: [''] } }],
  ['quorum 0', { id: 'a', match: {}, decide: 'ask', quorum: 0 }],
  ['quorum over the cap', { id: 'a', match: {}, decide: 'ask', quorum: LIMITS.policyQuorumMax + 1 }],
  ['quorum 1.5', { id: 'a', match: {}, decide: 'ask', quorum: 1.5 }],
  ['quorum on allow', { id: 'a', match: {}, decide: 'allow', quorum: 2 }],
  ['quorum on a question', { id: 'a', match: { kind: ['plan', 'question'] }, decide: 'ask', quorum: 2 }],
  ['quorum on every kind (a question: first eligible answer)', { id: 'a', match: { session: 's' }, decide: 'ask', quorum: 2 }],
  ['quorum 1 on a question', { id: 'a', match: { kind: 'question' }, decide: 'ask', quorum: 1 }],
  ['quorum on a plan', { id: 'a', match: { kind: 'plan' }, decide: 'ask', quorum: 2 }],
  ['quorum on commands of any kind', { id: 'a', match: { command: 'git push*' }, decide: 'ask', quorum: 2 }],
  ['localOnly on deny', { id: 'a', match: {}, decide: 'deny', localOnly: false }],
  ['always: nobody', { id: 'a', match: {}, decide: 'ask', always: false }],
  ['always: every operator who may answer', { id: 'a', match: {}, decide: 'ask', always: { scopes: ['operate'] } }],
  ['always: named people and the originator', { id: 'a', match: {}, decide: 'ask', always: { people: ['ann'], originator: true } }],
  ['always: a bad scope', { id: 'a', match: {}, decide: 'ask', always: { scopes: ['view'] } }],
  ['always: no people', { id: 'a', match: {}, decide: 'ask', always: { people: [] } }],
  ['always on allow', { id: 'a', match: {}, decide: 'allow', always: false }],
];

describe('policy rules on the phone', () => {
  const hub = policySchemas(LIMITS);

  it('has the hub’s kinds, scopes and default bounds', () => {
    expect(RULE_KINDS).toEqual(HUB_KINDS);
    expect(APPROVER_SCOPES).toEqual(HUB_SCOPES);
    expect(QUORUM_ON_QUESTION).toBe(HUB_QUORUM_ON_QUESTION);
    expect(ASK_ONLY).toBe(HUB_ASK_ONLY);
    expect(POLICY_LIMITS).toEqual({
      rulesMax: LIMITS.policyRulesMax,
      textMax: LIMITS.policyRuleTextMax,
      quorumMax: LIMITS.policyQuorumMax,
    });
  });

  it.each(cases)('%s: the same verdict on the same field as the hub', (_name, rule) => {
    const server = hub.rule.safeParse(rule);
    const web = ruleErrors(rule as Rule);
    expect(web.length === 0).toBe(server.success);
    if (!server.success) expect(server.error.issues[0]?.path.join('.').startsWith(web[0]?.path ?? '?')).toBe(true);
  });

  it('keeps a rule\'s "always" as the hub stores it (nobody, or who)', () => {
    const rules = [
      { id: 'a', match: {}, decide: 'ask', always: false },
      { id: 'b', match: {}, decide: 'ask', always: { people: ['ann'], originator: true } },
    ];
    expect(parsePolicy({ revision: 1, rules })?.rules).toEqual(rules);
  });

  it('refuses an id used twice, as the hub does on the list', () => {
    const list = [
      { id: 'a', match: {}, decide: 'allow' },
      { id: 'a', match: {}, decide: 'deny' },
    ];
    const server = hub.rules.safeParse(list);
    expect(server.success).toBe(false);
    expect(server.error?.issues[0]?.path).toEqual([1, 'id']);
    expect(ruleErrors(list[1] as Rule, ['a'])[0]?.path).toBe('id');
  });

  it('reads the hub’s policy and its 400 answers', () => {
    expect(parsePolicy({ revision: 3, rules: [{ id: 'a', match: { kind: 'read' }, decide: 'allow' }, { nope: 1 }] })).toEqual({
      revision: 3,
      rules: [{ id: 'a', match: { kind: 'read' }, decide: 'allow' }],
    });
    expect(parsePolicy({ rules: [] })).toBeUndefined();
    const body = {
      error: {
        code: 'HUB_ERR_BAD_REQUEST',
        message: 'x',
        details: {
          issues: [
            { path: 'body.rules.1.match.kind.0', message: 'Invalid option' },
            { path: 'body', message: 'odd' },
          ],
        },
      },
    };
    expect([...apiFieldErrors(body, 'x')]).toEqual([
      [1, [{ path: 'match.kind', message: 'Invalid option' }]],
      [-1, [{ path: '', message: 'body: odd' }]],
    ]);
    expect([...apiFieldErrors(undefined, 'rules.0.decide: approvers need ask')]).toEqual([
      [0, [{ path: 'decide', message: 'approvers need ask' }]],
    ]);
  });

  it('moves a rule up and down, and not past either end', () => {
    expect(moveRule(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveRule(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveRule(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveRule(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
  });
});
