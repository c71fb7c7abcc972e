/**
 * A restart mid-turn, as a user meets it: `zcode-hub start` (a real process, the real simulator
 * child), a turn that has streamed thoughts, a Read tool, a Markdown answer and a Bash call now
 * waiting on its permission — and the daemon goes away (killed outright, or stopped) and starts
 * again on the same state dir. A client that loads the session afterwards gets the prompt and
 * everything said so far, exactly once, then the interrupted marker naming the restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AcpWsClient, RpcError, type InboundMessage } from '../helpers/acp-ws-client.js';
import { killStarted, ready, start, tempHome, until } from './process-helpers.js';

afterEach(killStarted);

/** A daemon and its child start slowly on a loaded machine; the wait is for a state, not a time. */
const READY_MS = 120_000;

const update = z.looseObject({
  sessionId: z.string(),
  update: z.looseObject({
    sessionUpdate: z.string(),
    content: z.unknown().optional(),
    toolCallId: z.string().optional(),
    status: z.string().optional(),
    title: z.string().optional(),
  }),
});
const textOf = (c: unknown): string => (typeof c === 'object' && c !== null && 'text' in c && typeof c.text === 'string' ? c.text : '');

/** What a user sees of the session, folded from a client's `session/update`s in arrival order. */
function fold(messages: readonly InboundMessage[]) {
  const f = {
    prompt: '',
    text: '',
    thoughts: '',
    tools: {} as Record<string, { title?: string; status?: string }>,
    markers: [] as unknown[],
  };
  for (const m of messages) {
    if (m.method !== 'session/update') continue;
    const u = update.parse(m.params).update;
    if (u.sessionUpdate === 'user_message_chunk') f.prompt += textOf(u.content);
    else if (u.sessionUpdate === 'agent_message_chunk') f.text += textOf(u.content);
    else if (u.sessionUpdate === 'agent_thought_chunk') f.thoughts += textOf(u.content);
    else if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') {
      const id = u.toolCallId ?? '?';
      const prev = f.tools[id] ?? {};
      f.tools[id] = {
        ...prev,
        ...(u.title === undefined ? {} : { title: u.title }),
        ...(u.status === undefined ? {} : { status: u.status }),
      };
    } else if (u.sessionUpdate === 'session_info_update') {
      const ended = z.looseObject({ _meta: z.looseObject({ zcode: z.looseObject({ turnEnded: z.unknown() }) }) }).safeParse(u);
      if (ended.success) f.markers.push(ended.data._meta.zcode.turnEnded);
    }
  }
  return f;
}

async function connect(stateDir: string, url: string, name: string): Promise<AcpWsClient> {
  const token = fs.readFileSync(path.join(stateDir, 'admin.token'), 'utf8').trim();
  const c = await AcpWsClient.connect(`${url.replace(/^http/, 'ws')}/acp`, { token });
  await c.initialize({ name });
  return c;
}

describe('[REC-05] a daemon restart mid-turn keeps what had been said and says what was interrupted', () => {
  for (const how of ['SIGKILL', 'SIGTERM'] as const) {
    it(`${how}: a client loading the session after the restart gets the partial turn, then the interrupted marker`, async () => {
      const { home, stateDir } = tempHome();
      const first = start(home, stateDir);
      const hub = await ready(stateDir, READY_MS);
      const prompter = await connect(stateDir, hub.url, 'prompter');
      const { sessionId } = await prompter.request<{ sessionId: string }>('session/new', { cwd: home, mcpServers: [] });
      const answered = prompter.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'tour please' }] }).then(
        () => undefined,
        (err: unknown) => err,
      );
      // The turn now waits on the Bash call's permission: everything before it has been streamed.
      const ask = await prompter.waitFor((msgs) => msgs.find((m) => m.method === 'session/request_permission'), 60_000, 'the permission');
      const bashId = z.looseObject({ toolCall: z.looseObject({ toolCallId: z.string() }) }).parse(ask.params).toolCall.toolCallId;
      const recordDir = path.join(stateDir, 'turns');
      const record = () =>
        fs
          .readdirSync(recordDir)
          .map((f) => fs.readFileSync(path.join(recordDir, f), 'utf8'))
          .join('');
      const before = fold(prompter.messages);
      // Written as it streams (coalesced), not only at shutdown: the Bash card is on disk, with the
      // title its last update gave it (a kill before the coalesced write lands would lose that update).
      const bashTitle = JSON.stringify(before.tools[bashId]?.title ?? '');
      await until(
        () => (record().includes(bashId) && record().includes(bashTitle) ? true : undefined),
        'the turn record to hold the Bash call',
      );
      for (const f of fs.readdirSync(recordDir)) expect(fs.statSync(path.join(recordDir, f)).mode & 0o777).toBe(0o600);
      // The prompter's own echo is not sent back to it; it knows its prompt.
      expect(before.prompt).toBe('');
      expect(before.thoughts.length).toBeGreaterThan(0);
      expect(before.text).toMatch(/^## Answer[\s\S]*I will run the tests/);
      expect(Object.keys(before.tools)).toHaveLength(2);

      first.child.kill(how);
      await first.exited;
      // Stopped, the hub answers the prompt in flight before its socket goes (a client can tell
      // the hub going away from a network that dropped); killed, it can only lose the socket.
      const answer = await answered;
      if (how === 'SIGTERM') {
        expect(answer).toBeInstanceOf(RpcError);
        expect([(answer as RpcError).hubCode, (answer as RpcError).message]).toEqual([
          'HUB_ERR_BACKEND_UNAVAILABLE',
          'The hub is shutting down',
        ]);
        // Naming the prompt: its ending is the journaled marker below.
        expect((answer as RpcError).data).toMatchObject({ details: { backend: 'stopped', promptId: expect.any(String) } });
      } else expect(String(answer)).toMatch(/socket closed/);
      const restarted = start(home, stateDir);
      const again = await ready(stateDir, READY_MS).catch((err: unknown) => {
        throw new Error(`${String(err)}\n${restarted.output()}`);
      });
      const joiner = await connect(stateDir, again.url, 'joiner');
      await joiner.request('session/load', { sessionId, cwd: home, mcpServers: [] });
      const after = fold(joiner.messages);
      expect(after.prompt).toBe('tour please');
      expect(after.thoughts).toBe(before.thoughts);
      // Exactly what had been said, once.
      expect(after.text).toBe(before.text);
      // The Bash call waited on a permission nothing can answer now: its card ends failed, never
      // pending; the Read call that had finished is as it was.
      expect(before.tools[bashId]?.status).not.toBe('failed');
      expect(after.tools).toEqual({ ...before.tools, [bashId]: { ...before.tools[bashId], status: 'failed' } });
      expect(after.markers).toEqual([
        expect.objectContaining({
          outcome: 'interrupted',
          promptedBy: expect.objectContaining({ name: expect.any(String) }),
          error: expect.objectContaining({ type: 'hub_restarted' }),
        }),
      ]);
      // The marker comes after everything the turn had said.
      // (The agent's commands follow the load result as state, not as part of the turn.)
      const kinds = joiner.messages
        .filter((m) => m.method === 'session/update')
        .map((m) => update.parse(m.params).update.sessionUpdate)
        .filter((k) => k !== 'available_commands_update');
      expect(kinds.at(-1)).toBe('session_info_update');
      expect(
        joiner
          .notifications<{ sessionId: string; state: string }>('_zcode/turn_state')
          .filter((p) => p.sessionId === sessionId)
          .at(-1)?.state,
      ).toBe('idle');

      // The zcode-acp-remote profile (`/acp?instance=&token=`, a device token) is served the same.
      const device = z.object({ token: z.string() }).parse(
        await (
          await fetch(`${again.url}/api/tokens`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${fs.readFileSync(path.join(stateDir, 'admin.token'), 'utf8').trim()}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ name: 'remote app', scope: 'operate' }),
          })
        ).json(),
      ).token;
      const compat = await AcpWsClient.connect(`${again.url.replace(/^http/, 'ws')}/acp`, {
        query: { instance: 'zcode-hub', token: device },
      });
      await compat.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      await compat.request('session/load', { sessionId, cwd: home, mcpServers: [] });
      expect(fold(compat.messages.filter((m) => m.method !== 'session/update' || JSON.stringify(m.params).includes('"zcode"')))).toEqual(
        after,
      );
      await compat.close();

      // A second restart replays the same, with one marker (the first restart's), and the record stays private.
      for (const f of fs.readdirSync(recordDir)) expect(fs.statSync(path.join(recordDir, f)).mode & 0o777).toBe(0o600);
      await joiner.close();
      restarted.child.kill(how);
      await restarted.exited;
      start(home, stateDir);
      const third = await ready(stateDir, READY_MS);
      const late = await connect(stateDir, third.url, 'late');
      await late.request('session/load', { sessionId, cwd: home, mcpServers: [] });
      expect(fold(late.messages)).toEqual(after);
    }, 400_000);
  }
});
