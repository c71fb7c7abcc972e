/**
 * What the hub keeps in its state dir outlives a daemon killed outright (SIGKILL: a crash, an
 * OOM kill), as a user meets it: `zcode-hub start` (a real process, the real simulator child),
 * killed right after a turn ended, right after an "always allow" answer, right after an archive
 * and mid-stream, then started again on the same state dir. Each time it starts, every file it
 * keeps still parses, and `session/list` shows what was written before the kill — a finished
 * turn's preview above all, which is written when the turn ends, not when the daemon stops.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LIMITS } from '../../src/limits.js';
import { previewOfUpdates } from '../../src/domain/sessions/session-preview.js';
import { previewText } from '../../src/domain/sessions/session-marks.js';
import { AcpWsClient } from '../helpers/acp-ws-client.js';
import { sessionMarks } from '../helpers/state-logs.js';
import { budget, DAEMON, killStarted, ready, start, tempHome, until } from './process-helpers.js';

afterEach(killStarted);

const listed = z.object({
  sessions: z.array(
    z.looseObject({
      sessionId: z.string(),
      _meta: z.looseObject({
        zcode: z.looseObject({ archived: z.boolean(), preview: z.object({ role: z.string(), text: z.string() }).optional() }),
      }),
    }),
  ),
});
const markSchema = z.looseObject({ preview: z.object({ role: z.string(), text: z.string() }).optional() });

async function connect(stateDir: string, url: string, name: string): Promise<AcpWsClient> {
  const token = fs.readFileSync(path.join(stateDir, 'admin.token'), 'utf8').trim();
  const c = await AcpWsClient.connect(`${url.replace(/^http/, 'ws')}/acp`, { token });
  await c.initialize({ name });
  return c;
}

/**
 * Nothing the daemon keeps is torn: every `.json` file parses whole, and every complete line of an
 * append-only `.jsonl` / `.ndjson` file parses (a last line cut mid-append is what their readers skip).
 * Returns the files seen, relative to the state dir.
 */
function intact(stateDir: string): string[] {
  const seen: string[] = [];
  for (const entry of fs.readdirSync(stateDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const rel = path.relative(stateDir, file);
    seen.push(rel);
    const text = fs.readFileSync(file, 'utf8');
    if (entry.name.endsWith('.json')) expect(() => JSON.parse(text) as unknown, rel).not.toThrow();
    if (entry.name.endsWith('.jsonl') || entry.name.endsWith('.ndjson')) {
      const complete = text.slice(0, text.lastIndexOf('\n') + 1);
      for (const line of complete.split('\n').filter((l) => l !== '')) expect(() => JSON.parse(line) as unknown, rel).not.toThrow();
    }
  }
  return seen.sort();
}

async function list(c: AcpWsClient, home: string, includeArchived = false) {
  return listed.parse(await c.request('session/list', { cwd: home, _meta: { zcode: { includeArchived } } })).sessions;
}

describe('a daemon killed with SIGKILL keeps what it had written', () => {
  it(
    'after a turn, an always-allow answer, an archive and mid-stream: it starts, nothing is torn, the list shows the sessions',
    async () => {
      const { home, stateDir } = tempHome();
      let daemon = start(home, stateDir);
      let hub = await ready(stateDir);
      const kill = async (): Promise<void> => {
        daemon.child.kill('SIGKILL');
        await daemon.exited;
      };
      const restart = async (): Promise<AcpWsClient> => {
        daemon = start(home, stateDir);
        const current = daemon;
        hub = await ready(stateDir).catch((err: unknown) => {
          throw new Error(`${String(err)}\n${current.output()}`);
        });
        return connect(stateDir, hub.url, 'phone');
      };

      // A turn that asks for a permission, answered "always allow" for the project, then ends.
      const phone = await connect(stateDir, hub.url, 'phone');
      const { sessionId } = await phone.request<{ sessionId: string }>('session/new', { cwd: home, mcpServers: [] });
      const turn = phone.request<{ stopReason: string }>('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'permission please' }],
      });
      const ask = await phone.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
      phone.answer(ask.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
      expect((await turn).stopReason).toBe('end_turn');
      const said = phone
        .notifications<{ sessionId: string; update: SessionUpdate }>('session/update')
        .filter((u) => u.sessionId === sessionId)
        .map((u) => u.update);
      const last = previewOfUpdates(said, LIMITS.sessionPreviewChars);
      expect(last?.role).toBe('agent');
      const preview = { role: 'agent', text: previewText(last?.text ?? '', LIMITS.sessionPreviewChars) };
      expect(preview.text).not.toBe('');
      // Written when the turn ended — the daemon is still running, nothing else wrote the marks.
      await until(() => {
        const kept = markSchema.safeParse(sessionMarks(stateDir)[sessionId]);
        return kept.success && kept.data.preview?.text === preview.text;
      }, 'the finished turn’s preview in session-marks.ndjson');
      expect(fs.existsSync(path.join(stateDir, 'always-grants.json'))).toBe(true);

      await kill();
      expect(intact(stateDir)).toEqual(
        expect.arrayContaining(['admin.token', 'always-grants.json', 'audit.jsonl', 'session-marks.ndjson']),
      );
      let c = await restart();
      expect(await list(c, home)).toEqual([expect.objectContaining({ sessionId, _meta: { zcode: expect.objectContaining({ preview }) } })]);
      const grants = z.object({ grants: z.array(z.looseObject({ toolName: z.string() })) }).parse(
        await (
          await fetch(`${hub.url}/api/policy/grants`, {
            headers: { authorization: `Bearer ${fs.readFileSync(path.join(stateDir, 'admin.token'), 'utf8').trim()}` },
          })
        ).json(),
      );
      expect(grants.grants.map((g) => g.toolName)).toEqual(['Bash']);

      // Killed right after an archive was answered.
      await c.request('_zcode/session_archive', { sessionId, archived: true });
      await kill();
      intact(stateDir);
      c = await restart();
      expect(await list(c, home)).toEqual([]);
      expect(await list(c, home, true)).toEqual([
        expect.objectContaining({ sessionId, _meta: { zcode: expect.objectContaining({ archived: true, preview }) } }),
      ]);

      // Killed mid-stream: a second session's turn streams, then waits on a permission.
      const { sessionId: second } = await c.request<{ sessionId: string }>('session/new', { cwd: home, mcpServers: [] });
      void c.request('session/prompt', { sessionId: second, prompt: [{ type: 'text', text: 'tour please' }] }).catch(() => undefined);
      await c.waitForRequest('session/request_permission', (q) => q.params.sessionId === second);
      await kill();
      intact(stateDir);
      c = await restart();
      const after = await list(c, home, true);
      expect(after.map((s) => s.sessionId).sort()).toEqual([sessionId, second].sort());
      expect(after.find((s) => s.sessionId === sessionId)?._meta.zcode).toMatchObject({ archived: true, preview });
      await c.close();
    },
    budget(4 * DAEMON),
  );
});
