import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/** `/api/policy` on a real daemon (docs/SECURITY.md "Approval rules"): read, replace, revisions, dry run, limits. */

const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) });
const policyBody = z.object({ revision: z.number(), rules: z.array(z.looseObject({ id: z.string() })) });

let hub: HubHarness;
let operate: string;
let view: string;
beforeAll(async () => {
  hub = await startHub({ limits: { policyRulesMax: 3, policyRuleTextMax: 40, policyQuorumMax: 3 } });
  operate = await hub.token('operate', 'ann phone', 'ann');
  view = await hub.token('view', 'wall screen', 'wall');
});
afterAll(async () => {
  await hub?.close();
});

const put = (body: unknown, token?: string) =>
  hub.api('/api/policy', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(token === undefined ? {} : { token }),
  });
const check = (body: unknown) =>
  hub.api('/api/policy/check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const READS = { id: 'reads', description: 'reads inside the workspace', match: { kind: ['read', 'search'], path: '**' }, decide: 'allow' };
const RM = { id: 'rm-rf', match: { command: '*rm -rf*' }, decide: 'ask', approvers: { scopes: ['admin'] } };

describe('[POL-05] /api/policy', () => {
  it('starts empty at revision 0; operate reads it, view gets 403', async () => {
    const res = await hub.api('/api/policy', { token: operate });
    expect(res.status).toBe(200);
    expect(policyBody.parse(await res.json())).toEqual({ revision: 0, rules: [] });
    const denied = await hub.api('/api/policy', { token: view });
    expect(denied.status).toBe(403);
    expect(errorBody.parse(await denied.json()).error.code).toBe('HUB_ERR_FORBIDDEN');
  });

  it('an admin replaces the rules: the revision goes up, the file is 0600, the change is audited with its diff', async () => {
    const res = await put({ rules: [READS], revision: 0 });
    expect(res.status).toBe(200);
    expect(policyBody.parse(await res.json())).toMatchObject({ revision: 1, rules: [{ id: 'reads' }] });
    const file = path.join(hub.stateDir, 'policy.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(policyBody.parse(JSON.parse(fs.readFileSync(file, 'utf8'))).revision).toBe(1);
    const second = await put({ rules: [RM, { ...READS, decide: 'deny' }] });
    expect(policyBody.parse(await second.json()).revision).toBe(2);
    const audit = z
      .object({ entries: z.array(z.object({ action: z.string(), detail: z.unknown().optional() })) })
      .parse(await (await hub.api('/api/audit')).json());
    const changes = audit.entries.filter((e) => e.action === 'policy.change');
    expect(changes.at(-1)?.detail).toMatchObject({
      revision: 2,
      from: 1,
      added: ['rm-rf'],
      removed: [],
      changed: ['reads'],
      rules: { changed: [{ before: { decide: 'allow' }, after: { decide: 'deny' } }] },
    });
  });

  it('a stale revision is refused 409 and changes nothing', async () => {
    const res = await put({ rules: [], revision: 1 });
    expect(res.status).toBe(409);
    const body = errorBody.parse(await res.json());
    expect(body.error.code).toBe('HUB_ERR_CONFLICT');
    expect(body.error.details).toMatchObject({ revision: 2 });
    expect(policyBody.parse(await (await hub.api('/api/policy')).json()).rules).toHaveLength(2);
  });

  it('operate may not write (403); an invalid rule is refused 400 naming the field', async () => {
    expect((await put({ rules: [] }, operate)).status).toBe(403);
    const cases: Array<[unknown, string]> = [
      [{ rules: [{ ...READS, decide: 'maybe' }] }, 'body.rules.0.decide'],
      [{ rules: [{ ...READS, match: { kind: 'teleport' } }] }, 'body.rules.0.match.kind'],
      [{ rules: [{ ...READS, match: { colour: 'red' } }] }, 'body.rules.0.match'],
      [{ rules: [READS, READS] }, 'body.rules.1.id'],
      [{ rules: [{ ...READS, approvers: { scopes: ['admin'] } }] }, 'body.rules.0.decide'],
      // The named limits, crossed: policyRuleTextMax, policyQuorumMax, policyRulesMax.
      [{ rules: [{ ...READS, description: 'x'.repeat(41) }] }, 'body.rules.0.description'],
      [{ rules: [{ ...RM, quorum: 4 }] }, 'body.rules.0.quorum'],
      [{ rules: [READS, RM, { ...RM, id: 'b' }, { ...RM, id: 'c' }] }, 'body.rules'],
    ];
    for (const [body, field] of cases) {
      const res = await put(body);
      expect(res.status, field).toBe(400);
      const text = JSON.stringify(errorBody.parse(await res.json()));
      expect(text, field).toContain(`"${field}`);
    }
    expect(policyBody.parse(await (await hub.api('/api/policy')).json()).revision).toBe(2);
  });

  it('the dry run names the deciding rule and who could answer', async () => {
    await put({ rules: [READS, RM] });
    const rm = await check({ request: { tool: 'Bash', input: { command: 'sudo  rm -rf /tmp/x' } } });
    expect(await rm.json()).toMatchObject({
      ruleId: 'rm-rf',
      decision: 'ask',
      approvers: { waitingFor: 'waiting for an admin', scopes: ['admin'] },
    });
    const read = await check({ request: { tool: 'Read', input: { file_path: path.join(hub.workspace, 'README.md') } } });
    expect(await read.json()).toMatchObject({ ruleId: 'reads', decision: 'allow' });
    const outside = await check({ request: { tool: 'Read', input: { file_path: '/etc/passwd' } } });
    // `**` does not cross `..`: a read outside the workspace is not "inside the workspace".
    expect(await outside.json()).toMatchObject({ ruleId: null, decision: 'ask' });
    expect((await check({ request: { kind: 'question' } })).status).toBe(200);
    expect((await check({ request: {} })).status).toBe(400);
  });

  it('the OpenAPI document shows the policy routes and the rule schema', async () => {
    const doc = JSON.stringify(await (await hub.api('/docs/json')).json());
    expect(doc).toContain('/api/policy/check');
    expect(doc).toContain('localOnly');
  });
});
