import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * A sub-agent's permission request carries
 * `origin {kind: "subagent", childSessionId, parentSessionId, …}`. Whichever id the server puts
 * in `params.sessionId` (the simulator's `--subagent-permission parent|child`), the parent's
 * clients must get it, or the parent turn blocks for ever.
 */
let hub: HubHarness | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

describe('sub-agent interactions are routed by origin', () => {
  for (const keyedBy of ['child', 'parent'] as const) {
    it(`a sub-agent permission keyed by the ${keyedBy} session reaches the parent's clients`, async () => {
      hub = await startHub({ simArgs: ['--subagent-permission', keyedBy, '--turn-delay-scale', '0.2'] });
      const c = await hub.initializedClient({ name: 'parent-watcher' });
      const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
      const turn = c.request<{ stopReason: string }>('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'use a subagent to survey the code' }],
      });
      const req = await c.waitForRequest('session/request_permission', () => true, 10_000);
      expect(req.params.sessionId).toBe(sessionId);
      const opts = req.params.options as Array<{ optionId: string; kind: string }>;
      c.answer(req.id, { outcome: { outcome: 'selected', optionId: opts.find((o) => o.kind === 'allow_once')?.optionId } });
      expect((await turn).stopReason).toBe('end_turn');
      // No phantom session was made for the child's id.
      const listed = await c.request<{ sessions: Array<{ sessionId: string }> }>('session/list', {});
      expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
      const inbox = await c.request<{ interactions: unknown[] }>('_zcode/interactions/list', {});
      expect(inbox.interactions).toEqual([]);
    });
  }
});

const cardSchema = z.looseObject({
  sessionUpdate: z.string(),
  toolCallId: z.string().optional(),
  content: z.array(z.looseObject({ type: z.string(), path: z.string().optional(), oldText: z.string().nullish() })).nullish(),
  _meta: z
    .looseObject({
      claudeCode: z.looseObject({ toolName: z.string().optional() }).optional(),
      zcode: z
        .looseObject({
          overwrites: z.boolean().optional(),
          answeredBy: z.looseObject({ name: z.string() }).optional(),
          subagent: z.looseObject({ childSessionId: z.string() }).optional(),
        })
        .optional(),
    })
    .nullish(),
});

/** The tool call a permission request is about. */
const callOf = (params: Record<string, unknown>) =>
  cardSchema.parse({ sessionUpdate: 'tool_call', ...z.looseObject({}).parse(params['toolCall']) });

/**
 * A sub-agent's Write that replaces a file: its request comes in on the parent's session (routed
 * by `origin`) with the child's own call id, so the hub keeps the overwrite mark and the answer by
 * (parent session, child call). A replay nests the child's history under the Agent card with the
 * same call id and looks them up by the parent's session: both are found again, whichever session
 * the request named, and whether mirrors name the child's call in `childToolCallId` or not.
 */
describe("a sub-agent's Write that replaces a file", () => {
  for (const simArgs of [
    ['--subagent-permission', 'child'],
    ['--subagent-permission', 'parent', '--mirror-child-ids'],
  ]) {
    it(`stays marked as replacing it, with who allowed it, in a replay rebuilt from history (${simArgs.join(' ')})`, async () => {
      hub = await startHub({ simArgs: [...simArgs, '--subagent-write', '--turn-delay-scale', '0.2'] });
      fs.writeFileSync(path.join(hub.workspace, 'SURVEY.md'), 'an older survey\n');
      const c = await hub.initializedClient({ token: await hub.token('operate', 'Ana phone') });
      const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
      const turn = c.request<{ stopReason: string }>('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'use a subagent to survey the code' }],
      });
      const asked: Array<{ toolCallId: string; overwrites: boolean }> = [];
      for (let i = 0; i < 2; i++) {
        const req = await c.waitForRequest(
          'session/request_permission',
          (r) => !asked.some((a) => a.toolCallId === callOf(r.params).toolCallId),
          30_000,
        );
        expect(req.params.sessionId).toBe(sessionId);
        const call = callOf(req.params);
        asked.push({ toolCallId: call.toolCallId ?? '', overwrites: call._meta?.zcode?.overwrites === true });
        c.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
      }
      expect((await turn).stopReason).toBe('end_turn');
      // The Glob, then the Write of a file that exists: only the Write replaces one.
      expect(asked.map((a) => a.overwrites)).toEqual([false, true]);
      const write = asked[1]!.toolCallId;

      const reader = await hub.initializedClient({ token: await hub.token('view', 'Reader') });
      await reader.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
      const cards = reader
        .notifications<{ update: { sessionUpdate?: unknown } }>('session/update')
        .filter((p) => p.update.sessionUpdate === 'tool_call')
        .map((p) => cardSchema.parse(p.update))
        .filter((u) => u._meta?.zcode?.subagent !== undefined);
      const replayed = cards.find((u) => u._meta?.claudeCode?.toolName === 'Write');
      expect(replayed?.toolCallId).toBe(write);
      expect(replayed?.content?.[0]).toMatchObject({ type: 'diff', path: path.join(hub.workspace, 'SURVEY.md') });
      expect(replayed?._meta?.zcode).toMatchObject({ overwrites: true, answeredBy: { name: 'Ana phone' } });
      // The sub-agent's Glob was answered too, and replaces nothing.
      const glob = cards.find((u) => u._meta?.claudeCode?.toolName === 'Glob');
      expect(glob?._meta?.zcode?.answeredBy).toMatchObject({ name: 'Ana phone' });
      expect(glob?._meta?.zcode?.overwrites).toBeUndefined();
    });
  }
});
