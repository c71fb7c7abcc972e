import { describe, expect, it } from 'vitest';
import { ApprovalState, type Voter } from '../../src/policy/approval-state.js';
import type { Rule } from '../../src/policy/rule-schema.js';

/** The vote state machine of one request (src/policy/approval-state.ts): its table, edge by edge. */

const voter = (person: string, scope: Voter['scope'] = 'operate', local = true): Voter => ({ person, scope, local });
const ask = (extra: Partial<Rule> = {}): Rule => ({ id: 'r', match: {}, decide: 'ask', ...extra });

describe('ApprovalState', () => {
  it('eligibility: scopes, people, originator, localOnly; view tokens never', () => {
    const admins = new ApprovalState(ask({ approvers: { scopes: ['admin'] } }), 'ann');
    expect(admins.eligible(voter('x', 'admin'))).toBe(true);
    expect(admins.eligible(voter('x', 'operate'))).toBe(false);
    const people = new ApprovalState(ask({ approvers: { people: ['bob'], originator: true } }), 'ann');
    expect(people.eligible(voter('bob'))).toBe(true);
    expect(people.eligible(voter('ann'))).toBe(true);
    expect(people.eligible(voter('carl'))).toBe(false);
    expect(people.eligible(voter('bob', 'view'))).toBe(false);
    const noOriginator = new ApprovalState(ask({ approvers: { originator: true } }), undefined);
    expect(noOriginator.eligible(voter('ann'))).toBe(false);
    const local = new ApprovalState(ask({ localOnly: true }), undefined);
    expect(local.eligible(voter('ann', 'admin', false))).toBe(false);
    expect(local.eligible(voter('ann', 'operate', true))).toBe(true);
    expect(new ApprovalState(ask(), undefined).eligible(voter('anyone'))).toBe(true);
  });

  it('quorum 2 of 3: each person counts once, the second person allows it', () => {
    const s = new ApprovalState(ask({ approvers: { people: ['ann', 'bob', 'carl'] }, quorum: 2 }), undefined);
    expect(s.vote(voter('ann'), 'allow')).toEqual({ counted: true, phase: 'open' });
    expect(s.view().progress).toBe('1 of 2 — ann allowed');
    expect(s.vote(voter('ann'), 'allow')).toMatchObject({ counted: false, reason: 'already_voted' });
    expect(s.state).toBe('open');
    expect(s.vote(voter('dora'), 'allow')).toMatchObject({ counted: false, reason: 'not_eligible' });
    expect(s.vote(voter('bob'), 'allow')).toEqual({ counted: true, phase: 'allowed' });
    expect(s.vote(voter('carl'), 'deny')).toMatchObject({ counted: false, reason: 'settled' });
    expect(s.view()).toMatchObject({ allowed: ['ann', 'bob'], state: 'allowed', progress: '2 of 2 — ann, bob allowed' });
  });

  it('one eligible deny ends it, whatever was allowed before; an ineligible deny changes nothing', () => {
    const s = new ApprovalState(ask({ approvers: { people: ['ann', 'bob'] }, quorum: 2 }), undefined);
    s.vote(voter('ann'), 'allow');
    expect(s.vote(voter('eve'), 'deny')).toMatchObject({ counted: false, reason: 'not_eligible' });
    expect(s.state).toBe('open');
    expect(s.vote(voter('bob'), 'deny')).toEqual({ counted: true, phase: 'denied' });
    expect(s.view().progress).toBe('1 of 2 — denied');
  });

  it('a question ignores the quorum: the first eligible answer decides', () => {
    const s = new ApprovalState(ask({ quorum: 3 }), undefined, false);
    expect(s.vote(voter('ann'), 'allow')).toEqual({ counted: true, phase: 'allowed' });
  });

  it('says for whom it waits', () => {
    expect(new ApprovalState(ask({ approvers: { scopes: ['admin'] } }), undefined).waitingFor()).toBe('waiting for an admin');
    expect(new ApprovalState(ask({ approvers: { people: ['ann'] } }), undefined).waitingFor()).toBe('waiting for ann');
    expect(new ApprovalState(ask({ approvers: { people: ['ann', 'bob'] }, quorum: 2, localOnly: true }), undefined).waitingFor()).toBe(
      'waiting for 2 people: ann or bob on this machine',
    );
    expect(new ApprovalState(ask({ approvers: { originator: true } }), 'ann').waitingFor()).toBe("waiting for the prompt's author (ann)");
  });
});
