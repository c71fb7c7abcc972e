import { describe, expect, it } from 'vitest';
import { ApprovalState } from '../../src/policy/approval-state.js';
import { approvalInMeta, readApproval, readMayAnswer, readRuleDecision, ruleLabel } from '../../web/src/hub/approval-wire.js';

/**
 * The web app's reader of the approval fields reads what src/policy really builds: the shapes
 * here come from ApprovalState itself, not from a copy of them.
 */
describe('approval-wire', () => {
  const rule = {
    id: 'edits',
    description: 'edits need two',
    match: {},
    decide: 'ask' as const,
    approvers: { people: ['ann', 'bo'] },
    quorum: 2,
  };

  it('reads ApprovalState.view() as the hub sends it, through every vote', () => {
    const s = new ApprovalState(rule, undefined);
    expect(readApproval(s.view())).toEqual({
      rule: { id: 'edits', description: 'edits need two' },
      waitingFor: 'waiting for 2 people: ann or bo',
      quorum: 2,
      allowed: [],
      progress: '0 of 2',
      state: 'open',
    });
    s.vote({ person: 'ann', scope: 'operate', local: false }, 'allow');
    expect(readApproval(JSON.parse(JSON.stringify(s.view())))).toMatchObject({
      allowed: ['ann'],
      progress: '1 of 2 — ann allowed',
      state: 'open',
    });
    s.vote({ person: 'bo', scope: 'operate', local: false }, 'allow');
    expect(readApproval(s.view())?.state).toBe('allowed');
  });

  it('one person, no quorum: no progress; an admin rule says "waiting for an admin"', () => {
    const s = new ApprovalState({ id: 'rm', match: {}, decide: 'ask', approvers: { scopes: ['admin'] } }, 'ann');
    expect(readApproval(s.view())).toEqual({
      rule: { id: 'rm' },
      waitingFor: 'waiting for an admin',
      quorum: 1,
      allowed: [],
      state: 'open',
    });
  });

  it('the approval of a live request and of a card update: `_meta.zcode.approval`', () => {
    const view = new ApprovalState(rule, undefined).view();
    expect(approvalInMeta({ toolCallId: 'c', _meta: { zcode: { approval: view } } })?.rule.id).toBe('edits');
    expect(approvalInMeta({ _meta: { zcode: { interactionId: 'i' } } })).toBeUndefined();
  });

  it('guessed or broken shapes are not read as an approval', () => {
    for (const bad of [
      undefined,
      null,
      'edits',
      { rule: 'edits', waitingFor: ['ann'] },
      { rule: { id: 'x' }, waitingFor: 'w', state: 'maybe' },
    ])
      expect(readApproval(bad)).toBeUndefined();
  });

  it('a settled-by-rule `rule`, mayAnswer and how a rule is named', () => {
    expect(readRuleDecision({ id: 'reads', description: 'reading is fine', decision: 'allow' })).toEqual({
      id: 'reads',
      description: 'reading is fine',
      decision: 'allow',
    });
    expect(readRuleDecision({ id: 'reads', decision: 'maybe' })).toBeUndefined();
    expect(readMayAnswer({ mayAnswer: false })).toBe(false);
    expect(readMayAnswer({ eligible: false })).toBeUndefined();
    expect(ruleLabel({ id: 'reads', description: 'reading is fine' })).toBe('reads (reading is fine)');
    expect(ruleLabel({ id: 'rm' })).toBe('rm');
  });
});
