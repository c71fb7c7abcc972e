import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits.js';
import { classifyInteraction } from '../../src/acp/interactions.js';
import { coveringGrant, offeredRules, alwaysOption, type GrantAuthor } from '../../src/policy/always-grants.js';
import { GrantRefused, GrantStore } from '../../src/policy/grant-store.js';
import { permissionOptions } from '../../src/simulator/scenarios/tools.js';

/**
 * always-grants.json on a real temp dir (src/policy/grant-store.ts) and which grant covers a
 * request (src/policy/always-grants.ts), with the options the simulator offers (APP-SERVER.md §6.2).
 */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-grants-'));
  dirs.push(dir);
  return path.join(dir, 'always-grants.json');
};
const ann: GrantAuthor = { person: 'ann', device: 'Ann phone', tokenId: 't1', scope: 'operate', local: false };
const bob: GrantAuthor = { ...ann, person: 'bob', device: 'Bob phone', tokenId: 't2' };
const where = { workspace: '/w', sessionId: 's1' };
const request = (toolName: string, input: Record<string, unknown>, optionsOf = permissionOptions) =>
  classifyInteraction('interaction/requestPermission', {
    requestId: 'r1',
    sessionId: 's1',
    toolCallId: 'c1',
    toolName,
    reason: '',
    riskLevel: 'medium',
    input,
    options: optionsOf(toolName, input),
  });

describe('GrantStore', () => {
  it('a missing file is revision 0; a grant is written 0600, read back by the next start, and removed', () => {
    const file = tempFile();
    const store = new GrantStore(file, LIMITS);
    expect(store.current).toEqual({ revision: 0, grants: [] });
    const [g] = store.add([{ toolName: 'Bash', ruleContent: 'npm test' }], where, ann, 1_000);
    expect(g).toMatchObject({ toolName: 'Bash', ruleContent: 'npm test', workspace: '/w', sessionId: 's1', by: ann, at: 1_000 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(new GrantStore(file, LIMITS).current).toEqual({ revision: 1, grants: [g] });
    // The same rule again by the same person is not kept twice; by another person it is.
    expect(store.add([{ toolName: 'Bash', ruleContent: 'npm test' }], where, ann)).toEqual([]);
    expect(store.add([{ toolName: 'Bash', ruleContent: 'npm test' }], where, bob)).toHaveLength(1);
    expect(store.remove(g!.id)).toEqual(g);
    expect(() => store.remove(g!.id)).toThrow(/No "always allow" grant/);
    expect(new GrantStore(file, LIMITS).current.revision).toBe(3);
  });

  it('a deleted session is forgotten: its grants stay for the workspace, no longer naming it; others are untouched', () => {
    const file = tempFile();
    const store = new GrantStore(file, LIMITS);
    const [g] = store.add([{ toolName: 'Bash', ruleContent: 'npm test' }], where, ann, 1_000);
    const [other] = store.add([{ toolName: 'Bash', ruleContent: 'make' }], { workspace: '/w', sessionId: 's2' }, ann, 2_000);
    store.forgetSessions(new Set(['s1']));
    const { sessionId: _s1, ...kept } = g!;
    expect(new GrantStore(file, LIMITS).current).toEqual({ revision: 3, grants: [kept, other] });
    expect(fs.readFileSync(file, 'utf8')).not.toContain('"s1"');
    // Nothing of the session left: no write, no new revision.
    store.forgetSessions(new Set(['s1']));
    expect(store.current.revision).toBe(3);
  });

  it('alwaysGrantsMax and alwaysGrantContentMax, crossed: refused with the reason, nothing written', () => {
    const file = tempFile();
    const store = new GrantStore(file, { alwaysGrantsMax: 1, alwaysGrantContentMax: 8 });
    expect(store.refusal([{ toolName: 'Bash', ruleContent: 'npm test' }], '/w', 'ann')).toBeUndefined();
    expect(store.refusal([{ toolName: 'Bash', ruleContent: 'npm test!' }], '/w', 'ann')).toMatch(/more than 8 characters/);
    store.add([{ toolName: 'Bash', ruleContent: 'npm test' }], where, ann);
    expect(() => store.add([{ toolName: 'Bash', ruleContent: 'make' }], where, ann)).toThrow(GrantRefused);
    expect(store.refusal([{ toolName: 'Bash' }], '/w', 'ann')).toMatch(/at most 1 "always allow" grants/);
    // What Ann granted already is no new grant: at the limit she may pick it again; Bob may not.
    expect(store.refusal([{ toolName: 'Bash', ruleContent: 'npm test' }], '/w', 'ann')).toBeUndefined();
    expect(store.refusal([{ toolName: 'Bash', ruleContent: 'npm test' }], '/w', 'bob')).toMatch(/at most 1/);
    expect(new GrantStore(file, LIMITS).grants).toHaveLength(1);
  });

  it('an unreadable or invalid file stops the start rather than dropping or keeping grants unseen', () => {
    const file = tempFile();
    fs.writeFileSync(file, '{not json');
    expect(() => new GrantStore(file, LIMITS)).toThrow(/is not JSON/);
    fs.writeFileSync(file, JSON.stringify({ revision: 1, grants: [{ id: 'g', toolName: 'Bash' }] }));
    expect(() => new GrantStore(file, LIMITS)).toThrow(/grants\.0\./);
  });
});

describe('which grant covers a request', () => {
  const store = () => new GrantStore(tempFile(), LIMITS);

  it('the same tool and rule content in the same workspace, exactly; never a longer command, another tool or workspace', () => {
    const s = store();
    s.add([{ toolName: 'Bash', ruleContent: 'npm test' }], where, ann);
    const any = () => true;
    expect(coveringGrant(s.grants, request('Bash', { command: 'npm test' }), '/w', any)?.toolName).toBe('Bash');
    expect(coveringGrant(s.grants, request('Bash', { command: 'npm test && rm -rf ~' }), '/w', any)).toBeUndefined();
    expect(coveringGrant(s.grants, request('Bash', { command: 'npm test' }), '/other', any)).toBeUndefined();
    expect(coveringGrant(s.grants, request('Write', { file_path: 'npm test' }), '/w', any)).toBeUndefined();
    // A grant whose author may not set "always" on this request does not count.
    expect(coveringGrant(s.grants, request('Bash', { command: 'npm test' }), '/w', () => false)).toBeUndefined();
  });

  it('a request without an allow-always option (the tool forbids it) is never covered; other updates are not kept as grants', () => {
    const s = store();
    s.add([{ toolName: 'Bash', ruleContent: 'npm test' }], where, ann);
    const noAlways = (t: string, i: unknown) => permissionOptions(t, i).filter((o) => o.kind !== 'allow_always');
    expect(coveringGrant(s.grants, request('Bash', { command: 'npm test' }, noAlways), '/w', () => true)).toBeUndefined();
    const denyRule = (t: string, i: unknown) =>
      permissionOptions(t, i).map((o) =>
        o.kind === 'allow_always'
          ? {
              ...o,
              response: {
                ...o.response,
                permissionUpdates: [{ type: 'addRules' as const, behavior: 'deny' as const, rules: [{ toolName: t }] }],
              },
            }
          : o,
      );
    const option = alwaysOption(request('Bash', { command: 'x' }, denyRule));
    expect(option && offeredRules(option)).toBeUndefined();
  });
});
