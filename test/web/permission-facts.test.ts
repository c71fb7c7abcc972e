import { describe, expect, it } from 'vitest';
import { fromPermissionRequest, fromView, mergeInteraction, type PendingInteraction } from '../../web/src/hub/interactions.js';
import type { ToolItem } from '../../web/src/hub/chat-types.js';
import { approvalOf, hasFacts, orderedOptions, permissionFacts, shownDir, splitInbox } from '../../web/src/hub/permission-facts.js';

const WS = '/home/me/app';
const OPTIONS = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_project', name: 'Always allow in this project', kind: 'allow_always' },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
];

/** A `session/request_permission` as the hub sends it (src/acp/interaction-requests.ts). */
function request(toolCall: Record<string, unknown>, zcode: Record<string, unknown> = {}): PendingInteraction {
  const i = fromPermissionRequest(7, {
    sessionId: 's1',
    toolCall: { toolCallId: 'call_1', status: 'pending', ...toolCall },
    options: OPTIONS,
    _meta: { zcode: { interactionId: 'perm_1', kind: 'permission', reason: 'Run command', ...zcode } },
  });
  if (!i) throw new Error('not a permission');
  return i;
}

describe('permission facts (what the sheet shows)', () => {
  it('a command with its cwd from toolCall._meta.zcode.cwd, shown workspace-relative', () => {
    const f = permissionFacts(
      request({ title: '`make`', kind: 'execute', rawInput: { command: 'make all' }, _meta: { zcode: { cwd: `${WS}/sub` } } }),
      WS,
    );
    expect(f).toMatchObject({ kind: 'execute', command: 'make all', cwd: 'app/sub', edits: [], writes: [] });
    // Without a cwd on the wire a command runs in the session's workspace.
    expect(permissionFacts(request({ title: 'x', kind: 'execute', rawInput: { command: 'ls' } }), WS).cwd).toBe('app');
    expect(shownDir('/elsewhere', WS)).toBe('/elsewhere');
  });

  it('a view the hub shortened (`_meta.zcode.truncated`) says so; a whole one does not', () => {
    const write = {
      title: 'Write',
      kind: 'edit',
      rawInput: { file_path: `${WS}/a.txt` },
      content: [{ type: 'diff', path: `${WS}/a.txt`, newText: 'abc' }],
    };
    expect(permissionFacts(request({ ...write, _meta: { zcode: { truncated: true, omittedInput: ['content'] } } }), WS).truncated).toBe(
      true,
    );
    expect(permissionFacts(request(write), WS).truncated).toBeUndefined();
  });

  it('an edit’s diff and a write’s content from the diff items, paths relative to the workspace', () => {
    const f = permissionFacts(
      request({
        title: `Edit ${WS}/README.md`,
        kind: 'edit',
        rawInput: {},
        content: [
          { type: 'diff', path: `${WS}/README.md`, oldText: 'a', newText: 'b' },
          { type: 'diff', path: `${WS}/src/new.ts`, oldText: null, newText: 'one\ntwo\n' },
        ],
        locations: [{ path: `${WS}/README.md` }, { path: `${WS}/other.md` }],
      }),
      WS,
    );
    expect(f.edits).toEqual([{ path: `${WS}/README.md`, shown: 'README.md', oldText: 'a', newText: 'b' }]);
    expect(f.writes).toEqual([{ path: `${WS}/src/new.ts`, shown: 'src/new.ts', content: 'one\ntwo\n', lineCount: 2, overwrites: false }]);
    expect(f.paths).toEqual(['other.md']);
    expect(f.reason).toBe('Run command');
  });

  it('a write of a file that exists says it replaces it (the hub’s `_meta.zcode.overwrites`), though its diff has no old text', () => {
    const f = permissionFacts(
      request({
        title: `Write ${WS}/src/greet.ts`,
        kind: 'edit',
        rawInput: {},
        content: [{ type: 'diff', path: `${WS}/src/greet.ts`, oldText: null, newText: 'one\n' }],
        _meta: { zcode: { overwrites: true } },
      }),
      WS,
    );
    expect(f.writes).toEqual([{ path: `${WS}/src/greet.ts`, shown: 'src/greet.ts', content: 'one\n', lineCount: 1, overwrites: true }]);
  });

  it('a fetch’s URL; junk in the params is ignored, not a crash', () => {
    expect(permissionFacts(request({ title: 'WebFetch', kind: 'fetch', rawInput: { url: 'https://example.com/x' } }), WS).url).toBe(
      'https://example.com/x',
    );
    const junk = permissionFacts(request({ title: 't', kind: 7, rawInput: 'x', content: [null, { type: 'diff' }], locations: 'no' }), WS);
    expect(junk).toMatchObject({ kind: 'other', edits: [], writes: [], paths: [] });
    // An inbox copy has no request: nothing but the title to show.
    expect(permissionFacts({ interactionId: 'i', sessionId: 's', kind: 'permission', title: 'Bash' }, WS)).toMatchObject({ edits: [] });
  });

  it('an inbox or read-only copy reads the facts from the view’s toolCall, before any card', () => {
    const copy = fromView({
      interactionId: 'perm_3',
      sessionId: 's1',
      kind: 'permission',
      toolCallId: 'call_3',
      title: '`make` — Run command',
      state: 'pending',
      mayAnswer: false,
      toolCall: { toolCallId: 'call_3', kind: 'execute', rawInput: { command: 'make all' }, _meta: { zcode: { cwd: `${WS}/sub` } } },
    }) as PendingInteraction;
    expect(hasFacts(copy, undefined)).toBe(true);
    expect(permissionFacts(copy, WS)).toMatchObject({ kind: 'execute', command: 'make all', cwd: 'app/sub' });
    // The view's tool call survives a merge with a later list copy that has none.
    const merged = mergeInteraction(copy, { ...copy, toolCall: undefined });
    expect(permissionFacts(merged, WS).command).toBe('make all');
    const bare = fromView({ interactionId: 'p', sessionId: 's1', kind: 'permission', title: 'Bash', state: 'pending', toolCall: 'junk' });
    expect(bare?.toolCall).toBeUndefined();
    expect(hasFacts(bare as PendingInteraction, undefined)).toBe(false);
  });

  it('a read-only copy (no request) reads the facts from the chat’s card of the same tool call', () => {
    const copy = fromView({
      interactionId: 'perm_2',
      sessionId: 's1',
      kind: 'permission',
      toolCallId: 'call_2',
      title: 'Edit README.md',
      state: 'pending',
      mayAnswer: false,
    }) as PendingInteraction;
    const card: ToolItem = {
      kind: 'tool',
      id: 'call_2',
      toolCallId: 'call_2',
      title: 'Edit README.md',
      toolKind: 'edit',
      status: 'pending',
      input: { file_path: `${WS}/README.md` },
      content: [{ type: 'diff', path: `${WS}/README.md`, oldText: 'a', newText: 'b' }],
      terminal: '',
      locations: [`${WS}/README.md`],
    };
    expect(permissionFacts(copy, WS, card)).toMatchObject({
      kind: 'edit',
      edits: [{ path: `${WS}/README.md`, shown: 'README.md', oldText: 'a', newText: 'b' }],
      paths: [],
    });
    const run: ToolItem = { ...card, toolKind: 'execute', input: { command: 'npm test' }, content: [], locations: [] };
    expect(permissionFacts(copy, WS, run)).toMatchObject({ command: 'npm test', cwd: 'app' });
    // A live request's own tool call wins over the card.
    expect(permissionFacts(request({ title: 'x', kind: 'execute', rawInput: { command: 'ls' } }), WS, run).command).toBe('ls');
  });

  it('Allow once leads, the lasting allow comes next, deny is danger and last', () => {
    expect(orderedOptions([...OPTIONS].reverse()).map((o) => [o.optionId, o.role])).toEqual([
      ['allow_once', 'primary'],
      ['allow_project', 'quiet'],
      ['deny', 'danger'],
    ]);
  });
});

/** `approval` exactly as src/policy/approval-state.ts builds it (ApprovalView). */
const APPROVAL = {
  rule: { id: 'edits', description: 'edits need two people' },
  waitingFor: 'waiting for 2 people: ann or bo',
  quorum: 2,
  allowed: ['ann'],
  progress: '1 of 2 — ann allowed',
  state: 'open',
};

describe("approval fields (the hub's approval and mayAnswer)", () => {
  it('absent: the request is for this device, with nothing more to say', () => {
    expect(approvalOf(request({ title: 't' }))).toEqual({ eligible: true });
  });

  it('a live request under an ask rule: the rule, for whom it waits and the tally; answerable (it was sent here)', () => {
    expect(approvalOf(request({ title: 't' }, { approval: APPROVAL }))).toEqual({
      rule: 'edits (edits need two people)',
      waitingFor: 'waiting for 2 people: ann or bo',
      progress: '1 of 2 — ann allowed',
      eligible: true,
    });
  });

  it('the inbox lists what waits for me apart from what waits for others (mayAnswer; absent = mine)', () => {
    const view = (id: string, extra: Record<string, unknown>) =>
      fromView({ interactionId: id, sessionId: 's', kind: 'permission', title: id, state: 'pending', ...extra }) as PendingInteraction;
    const mine = view('a', {});
    const theirs = view('b', {
      mayAnswer: false,
      approval: { rule: APPROVAL.rule, waitingFor: 'waiting for ann', quorum: 1, allowed: [], state: 'open' },
    });
    const mineToo = view('c', { mayAnswer: true, approval: APPROVAL });
    const split = splitInbox([mine, theirs, mineToo]);
    expect(split.mine.map((i) => i.interactionId)).toEqual(['a', 'c']);
    expect(split.others.map((i) => i.interactionId)).toEqual(['b']);
    expect(approvalOf(theirs)).toEqual({ rule: 'edits (edits need two people)', waitingFor: 'waiting for ann', eligible: false });
  });
});
