import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';

// The simulator's `edit` scenario through the whole hub: real edits of the workspace behind a
// permission, arriving at an ACP client as Edit/Write cards with `diff` content
// (src/acp/tool-info.ts `diffContent`), live and in a late joiner's session/load replay.
let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2'] });
});
afterAll(async () => {
  await hub?.close();
});

interface Diff {
  type: string;
  path?: string;
  oldText?: string | null;
  newText?: string;
}
interface Update {
  sessionUpdate: string;
  toolCallId?: string;
  status?: string;
  kind?: string;
  content?: Diff[];
  _meta?: { claudeCode?: { toolName?: string } };
}

function updatesOf(c: AcpWsClient, sessionId: string): Update[] {
  return c
    .notifications<{ sessionId: string; update: Update }>('session/update')
    .filter((n) => n.sessionId === sessionId)
    .map((n) => n.update);
}

/** The diff content a card ends with: the last update of that toolCallId that carried content. */
function diffsOf(updates: Update[], toolCallId: string): Diff[] | undefined {
  return updates
    .filter((u) => u.toolCallId === toolCallId && Array.isArray(u.content))
    .pop()
    ?.content?.filter((x) => x.type === 'diff');
}

/** Runs one `edit` prompt, answering each permission with `optionId`. */
async function runEdit(c: AcpWsClient, sessionId: string, optionId: 'allow_once' | 'deny'): Promise<string[]> {
  const prompt = c.request<{ stopReason: string }>('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'please edit the project' }],
  });
  const asked: string[] = [];
  for (let i = 0; i < 2; i++) {
    const req = await c.waitForRequest(
      'session/request_permission',
      (r) => r.params['sessionId'] === sessionId && !asked.includes(String((r.params['toolCall'] as { toolCallId: string }).toolCallId)),
    );
    const toolCall = req.params['toolCall'] as { toolCallId: string; content?: Diff[] };
    // The permission request itself shows the diff being asked about.
    expect(toolCall.content?.[0]).toMatchObject({ type: 'diff' });
    asked.push(toolCall.toolCallId);
    c.answer(req.id, { outcome: { outcome: 'selected', optionId } });
  }
  expect((await prompt).stopReason).toBe('end_turn');
  return asked;
}

describe('simulator `edit`: diffs against real workspace files', () => {
  it('allowed: README.md is edited and src/greet.ts written on disk; the cards carry the diffs, also in a replay', async () => {
    const readme = path.join(hub.workspace, 'README.md');
    fs.writeFileSync(readme, '# Demo\n\nA project.\n');
    const c = await hub.initializedClient({ name: 'edit' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await runEdit(c, sessionId, 'allow_once');

    const onDisk = fs.readFileSync(readme, 'utf8');
    expect(onDisk.startsWith('# Demo\n\nA project.\n\n## Usage\n')).toBe(true);
    const greet = fs.readFileSync(path.join(hub.workspace, 'src', 'greet.ts'), 'utf8');
    expect(greet).toContain('export function greet(name: string): string {');

    const updates = updatesOf(c, sessionId);
    const calls = updates.filter((u) => u.sessionUpdate === 'tool_call' && u.kind === 'edit');
    expect(calls.map((u) => u._meta?.claudeCode?.toolName)).toEqual(['Edit', 'Write']);
    const [edit, write] = calls;
    const editDiffs = diffsOf(updates, edit!.toolCallId!);
    const writeDiffs = diffsOf(updates, write!.toolCallId!);
    expect(editDiffs).toEqual([
      { type: 'diff', path: readme, oldText: 'A project.', newText: expect.stringMatching(/^A project\.\n\n## Usage\n/) },
    ]);
    // The edit's new text is really what the file now holds around that line.
    expect(onDisk).toContain(editDiffs![0]!.newText!);
    expect(writeDiffs).toEqual([{ type: 'diff', path: path.join(hub.workspace, 'src', 'greet.ts'), oldText: null, newText: greet }]);
    for (const call of calls)
      expect(
        updates.some((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'completed'),
      ).toBe(true);

    // A late joiner's replay has the same diffs.
    const late = await hub.initializedClient({ name: 'late' });
    await late.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const replayed = updatesOf(late, sessionId).filter((u) => Array.isArray(u.content));
    const diffs = replayed.flatMap((u) => u.content ?? []).filter((x) => x.type === 'diff');
    expect(diffs).toContainEqual(editDiffs![0]);
    expect(diffs).toContainEqual(writeDiffs![0]);
  });

  it('denied: nothing on disk changes and both cards fail', async () => {
    const dir = fs.mkdtempSync(path.join(hub.workspace, 'denied-'));
    fs.writeFileSync(path.join(dir, 'README.md'), '# Keep\n');
    const c = await hub.initializedClient({ name: 'deny' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: dir, mcpServers: [] });
    const ids = await runEdit(c, sessionId, 'deny');
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('# Keep\n');
    expect(fs.existsSync(path.join(dir, 'src'))).toBe(false);
    const updates = updatesOf(c, sessionId);
    for (const id of ids)
      expect(updates.some((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === id && u.status === 'failed')).toBe(true);
  });

  it('a Write of a file that is there says it replaces it, on the request and on the inbox view; a new file does not', async () => {
    const dir = fs.mkdtempSync(path.join(hub.workspace, 'overwrite-'));
    fs.writeFileSync(path.join(dir, 'README.md'), '# Old\n');
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'greet.ts'), 'export const kept = "the old file";\n');
    const c = await hub.initializedClient({ name: 'overwrite' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: dir, mcpServers: [] });
    const prompt = c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'please edit' }] });
    type Asked = { toolCallId: string; content?: Diff[]; _meta?: { zcode?: { overwrites?: boolean } } };
    const asked = (req: { params: Record<string, unknown> }) => req.params['toolCall'] as Asked;
    const edit = await c.waitForRequest('session/request_permission', (r) => r.params['sessionId'] === sessionId);
    // The Edit of README.md carries its own old text; only a Write needs the hub to say it replaces a file.
    expect(asked(edit)._meta?.zcode?.overwrites).toBeUndefined();
    c.answer(edit.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    const write = await c.waitForRequest('session/request_permission', (r) => r.params['sessionId'] === sessionId && r.id !== edit.id);
    expect(asked(write).content).toEqual([
      expect.objectContaining({ type: 'diff', path: path.join(dir, 'src', 'greet.ts'), oldText: null }),
    ]);
    expect(asked(write)._meta?.zcode?.overwrites).toBe(true);
    // The inbox view a device draws a read-only sheet from says the same.
    const inbox = (await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()) as {
      interactions: { toolCall?: Asked }[];
    };
    expect(inbox.interactions.map((i) => i.toolCall?._meta?.zcode?.overwrites)).toEqual([true]);
    // Every device's card of that Write says it too (the Edit's card does not).
    const marked = c
      .notifications<{ sessionId: string; update: Update & { _meta?: { zcode?: { overwrites?: boolean } } } }>('session/update')
      .filter((n) => n.sessionId === sessionId && n.update._meta?.zcode?.overwrites === true)
      .map((n) => n.update.toolCallId);
    expect(marked).toEqual([asked(write).toolCallId]);
    c.answer(write.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await prompt).stopReason).toBe('end_turn');
  });

  it('a workspace without a README gets one from a Write (oldText null)', async () => {
    const dir = fs.mkdtempSync(path.join(hub.workspace, 'fresh-'));
    const c = await hub.initializedClient({ name: 'fresh' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: dir, mcpServers: [] });
    await runEdit(c, sessionId, 'allow_once');
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    // Both files were new: no request says it replaces one.
    const writes = c.requests('session/request_permission').filter((r) => r.params['sessionId'] === sessionId);
    expect(writes.map((r) => (r.params['toolCall'] as { _meta?: { zcode?: { overwrites?: boolean } } })._meta?.zcode?.overwrites)).toEqual([
      undefined,
      undefined,
    ]);
    const calls = updatesOf(c, sessionId).filter((u) => u.sessionUpdate === 'tool_call' && u.kind === 'edit');
    expect(calls.map((u) => u._meta?.claudeCode?.toolName)).toEqual(['Write', 'Write']);
    expect(diffsOf(updatesOf(c, sessionId), calls[0]!.toolCallId!)).toEqual([
      { type: 'diff', path: path.join(dir, 'README.md'), oldText: null, newText: readme },
    ]);
  });
});
