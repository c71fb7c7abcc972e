/**
 * A deleted session leaves nothing of itself in the hub's state dir: the authors of its prompts
 * and answers and its overwrite marks (`authors.ndjson`), its marks (`session-marks.ndjson`), a turn
 * record, kept background task output, and the session an "always allow" grant was set in (the
 * grant stays: it holds for the workspace). The audit log alone keeps it, on purpose — it is the
 * record of who did what, deletions included (docs/SECURITY.md "What is kept on disk"). Real
 * daemon on port 0, real simulator child, and a restart on the same state dir that must not bring
 * anything back. A second session is the control: what is kept of it stays.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { restartableHub } from '../helpers/restartable-hub.js';
import { until } from '../helpers/until.js';
import { AUDIT_FILE } from '../../src/auth/audit-log.js';
import { idFileName } from '../../src/fs/id-file-name.js';

const { stateDir, workspace, start } = restartableHub('zch-delete-forget-');

/** A file's text; empty when the hub removed it between the listing and the read (it is no trace then). */
function contentOf(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** Every file of the state dir (but the audit log) whose name or content holds the session id, raw or as a file name encodes it. */
function traces(sessionId: string): string[] {
  const needles = [sessionId, idFileName(sessionId, '')];
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name !== AUDIT_FILE && needles.some((n) => entry.name.includes(n) || contentOf(file).includes(n)))
        found.push(path.relative(stateDir, file));
    }
  };
  walk(stateDir);
  return found.sort();
}

const toolCallIdOf = (params: Record<string, unknown>) => z.looseObject({ toolCallId: z.string() }).parse(params['toolCall']).toolCallId;

/** Runs the simulator's `edit` scenario, answering its two requests (an Edit, then a Write that replaces `src/greet.ts`). */
async function editTurn(c: AcpWsClient, sessionId: string, answers: [string, string]): Promise<void> {
  const turn = c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'please edit' }] });
  const asked: string[] = [];
  for (const optionId of answers) {
    const req = await c.waitForRequest(
      'session/request_permission',
      (r) => r.params['sessionId'] === sessionId && !asked.includes(toolCallIdOf(r.params)),
    );
    asked.push(toolCallIdOf(req.params));
    c.answer(req.id, { outcome: { outcome: 'selected', optionId } });
  }
  expect((await turn).stopReason).toBe('end_turn');
}

const grantsSchema = z.object({ grants: z.array(z.looseObject({ toolName: z.string(), sessionId: z.string().optional() })) });

describe('a deleted session', () => {
  it('leaves no trace in the state dir but the audit log, also after a restart; other sessions keep theirs', async () => {
    fs.writeFileSync(path.join(workspace, 'README.md'), '# Demo\n\nA project.\n');
    fs.mkdirSync(path.join(workspace, 'src'));
    fs.writeFileSync(path.join(workspace, 'src', 'greet.ts'), 'export const old = 1;\n');
    const hub = await start();
    const ana = await hub.initializedClient({ token: await hub.token('operate', 'Ana phone') });
    const { sessionId: kept } = await ana.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    const { sessionId } = await ana.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    // The Edit answered "always allow in this project" (a grant set in this session), the Write once.
    await editTurn(ana, sessionId, ['allow_project', 'allow_once']);
    for (const id of [sessionId, kept]) await ana.request('session/prompt', { sessionId: id, prompt: [{ type: 'text', text: 'hello' }] });
    // Archived: its mark is written at once.
    await ana.request('_zcode/session_archive', { sessionId, archived: true });
    const stores = ['always-grants.json', 'authors.ndjson', 'session-marks.ndjson'];
    await until(() => stores.every((f) => traces(sessionId).includes(f)), `the session in ${stores.join(', ')}`);
    await until(() => traces(kept).includes('authors.ndjson'), 'the other session in authors.ndjson');

    const res = await hub.api(`/api/sessions/${encodeURIComponent(sessionId)}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    // Deleted, and at once forgotten (the author book is rewritten now, not after its flush delay).
    await until(() => traces(sessionId).length === 0, `no trace of ${sessionId}`);
    expect(traces(kept)).toEqual(expect.arrayContaining(['authors.ndjson', 'session-marks.ndjson']));
    // The grant stays, no longer naming the deleted session.
    const listed = grantsSchema.parse(await (await hub.api('/api/policy/grants')).json());
    expect(listed.grants).toHaveLength(1);
    expect(listed.grants[0]).not.toHaveProperty('sessionId');
    // The audit log keeps the deletion itself.
    expect(fs.readFileSync(path.join(stateDir, AUDIT_FILE), 'utf8')).toContain(sessionId);

    await hub.close();
    const again = await start();
    expect(traces(sessionId)).toEqual([]);
    expect(traces(kept)).toEqual(expect.arrayContaining(['authors.ndjson', 'session-marks.ndjson']));
    const c = await again.initializedClient({ name: 'after-restart' });
    const listedAgain = await c.request<{ sessions: Array<{ sessionId: string }> }>('session/list', {});
    expect(listedAgain.sessions.map((s) => s.sessionId)).toContain(kept);
    expect(listedAgain.sessions.map((s) => s.sessionId)).not.toContain(sessionId);
    expect(traces(sessionId)).toEqual([]);
  }, 180_000);
});
