import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { prompt, resolvedOn, setRules, sharedSession } from './helpers.js';

/**
 * `allow` and `deny` rules on a real daemon with the simulator child (docs/SECURITY.md "Approval
 * rules"): the request is settled before anyone is offered it, every attached client hears by
 * which rule, and the audit log records the rule.
 */

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

const auditEntries = async () =>
  z
    .object({
      entries: z.array(z.object({ action: z.string(), who: z.looseObject({ name: z.string() }), detail: z.unknown().optional() })),
    })
    .parse(await (await hub.api('/api/audit')).json()).entries;

describe('[POL-01] allow and deny rules', () => {
  it('allow: the Bash call runs with no one asked; everyone sees "allowed by rule tests (the test suite)"', async () => {
    await setRules(hub, [{ id: 'tests', description: 'the test suite', match: { kind: 'execute', command: 'npm test' }, decide: 'allow' }]);
    const owner = await hub.initializedClient({ name: 'owner' });
    const watcher = await hub.initializedClient({ name: 'watcher' });
    const sessionId = await sharedSession(hub, owner, [watcher]);
    const turn = prompt(owner, sessionId, 'permission please');
    const [a, b] = await Promise.all([resolvedOn(owner, sessionId), resolvedOn(watcher, sessionId)]);
    for (const r of [a, b]) {
      expect(r.state).toBe('resolved');
      expect(r.rule).toEqual({ id: 'tests', description: 'the test suite', decision: 'allow' });
      expect(r.resolvedBy).toEqual({ name: 'allowed by rule tests (the test suite)', rule: 'tests' });
    }
    expect((await turn).stopReason).toBe('end_turn');
    // Nobody was offered it.
    expect(owner.requests('session/request_permission')).toHaveLength(0);
    expect(watcher.requests('session/request_permission')).toHaveLength(0);
    // The tool ran: its card completed, and carries the rule.
    const updates = watcher.notifications<{ update: { sessionUpdate: string; status?: string; _meta?: { zcode?: { rule?: unknown } } } }>(
      'session/update',
    );
    expect(updates.some((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed')).toBe(true);
    expect(updates.some((u) => u.update._meta?.zcode?.rule !== undefined)).toBe(true);
    const entry = (await auditEntries()).filter((e) => e.action === 'answer').at(-1);
    expect(entry).toMatchObject({ who: { name: 'approval rules' }, detail: { rule: { id: 'tests', decision: 'allow' } } });
  });

  it('deny: the call is refused with no one asked; the turn goes on and everyone sees "denied by rule"', async () => {
    await setRules(hub, [{ id: 'no-shell', match: { tool: 'bash' }, decide: 'deny' }]);
    const owner = await hub.initializedClient({ name: 'owner' });
    const watcher = await hub.initializedClient({ name: 'watcher' });
    const sessionId = await sharedSession(hub, owner, [watcher]);
    const turn = prompt(owner, sessionId, 'permission please');
    for (const r of await Promise.all([resolvedOn(owner, sessionId), resolvedOn(watcher, sessionId)])) {
      expect(r).toMatchObject({
        state: 'resolved',
        rule: { id: 'no-shell', decision: 'deny' },
        resolvedBy: { name: 'denied by rule no-shell' },
      });
    }
    expect((await turn).stopReason).toBe('end_turn');
    for (const c of [owner, watcher]) {
      expect(c.requests('session/request_permission')).toHaveLength(0);
      const failed = c
        .notifications<{ update: { sessionUpdate: string; status?: string } }>('session/update')
        .some((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'failed');
      expect(failed).toBe(true);
    }
    const entry = (await auditEntries()).filter((e) => e.action === 'answer').at(-1);
    expect(entry).toMatchObject({ detail: { rule: { id: 'no-shell', decision: 'deny' } } });
  });

  it("no rule matches: today's race (every operator is asked)", async () => {
    await setRules(hub, [{ id: 'other', match: { command: 'make *' }, decide: 'deny' }]);
    const owner = await hub.initializedClient({ name: 'owner' });
    const sessionId = await sharedSession(hub, owner, []);
    const turn = prompt(owner, sessionId, 'permission please');
    const req = await owner.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    owner.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    const r = await resolvedOn(owner, sessionId);
    expect(r.rule).toBeUndefined();
    expect((await turn).stopReason).toBe('end_turn');
  });

  it('edits: a path rule sees the path relative to the workspace; a plan approval is allowed by kind', async () => {
    await setRules(hub, [
      { id: 'readme', match: { kind: 'edit', path: 'README.md' }, decide: 'deny' },
      { id: 'src', match: { kind: 'edit', path: 'src/**' }, decide: 'allow' },
      { id: 'plans', match: { kind: 'plan' }, decide: 'allow' },
    ]);
    const owner = await hub.initializedClient({ name: 'owner' });
    const sessionId = await sharedSession(hub, owner, []);
    const turn = prompt(owner, sessionId, 'edit please');
    const first = await resolvedOn(owner, sessionId);
    const second = await owner.waitForNotification<{ sessionId: string; rule?: { id: string } }>(
      '_zcode/interaction_resolved',
      (p) => p.sessionId === sessionId && p.rule?.id === 'src',
    );
    expect(first.rule?.id).toBe('readme');
    expect(second.rule?.id).toBe('src');
    await turn;
    const plan = prompt(owner, sessionId, 'plan please');
    const approved = await owner.waitForNotification<{ sessionId: string; rule?: { id: string }; outcome?: unknown }>(
      '_zcode/interaction_resolved',
      (p) => p.sessionId === sessionId && p.rule?.id === 'plans',
    );
    expect(approved.outcome).toBe('approved');
    expect((await plan).stopReason).toBe('end_turn');
    expect(owner.requests('session/request_permission')).toHaveLength(0);
  });
});
