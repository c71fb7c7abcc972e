/**
 * Authors in replay: the agent's history names nobody, so a client that loads a session
 * after the fact — or after the hub restarted — must still learn who sent each prompt
 * (`_meta.zcode.promptedBy`) and who answered each interaction (`_meta.zcode.answeredBy`, on the
 * card it was about), by the token's name, as the live updates said.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AcpWsClient, InboundMessage } from '../helpers/acp-ws-client.js';
import type { HubHarness } from '../helpers/hub-harness.js';
import { restartableHub } from '../helpers/restartable-hub.js';

const { stateDir, workspace, start } = restartableHub('zch-authors-');

const updateSchema = z.looseObject({
  _meta: z.looseObject({ zcode: z.looseObject({ promptedBy: z.looseObject({ name: z.string() }).optional() }).optional() }).optional(),
  update: z.looseObject({
    sessionUpdate: z.string(),
    content: z.unknown().optional(),
    toolCallId: z.string().optional(),
    _meta: z
      .looseObject({
        zcode: z
          .looseObject({
            promptedBy: z.looseObject({ name: z.string() }).optional(),
            answeredBy: z.looseObject({ name: z.string() }).optional(),
          })
          .optional(),
      })
      .nullish(),
  }),
});

const textOf = (c: unknown): string => (typeof c === 'object' && c !== null && 'text' in c && typeof c.text === 'string' ? c.text : '');

/** The prompts a client was replayed, with the author each carried (update and notification `_meta`), and who answered each card. */
function authorsSeen(messages: readonly InboundMessage[]) {
  const prompts: Array<{ text: string; update?: string; notification?: string }> = [];
  const answered: Record<string, string> = {};
  for (const m of messages) {
    if (m.method !== 'session/update') continue;
    const p = updateSchema.parse(m.params);
    const u = p.update;
    if (u.sessionUpdate === 'user_message_chunk')
      prompts.push({
        text: textOf(u.content),
        ...(u._meta?.zcode?.promptedBy ? { update: u._meta.zcode.promptedBy.name } : {}),
        ...(p._meta?.zcode?.promptedBy ? { notification: p._meta.zcode.promptedBy.name } : {}),
      });
    const by = u._meta?.zcode?.answeredBy?.name;
    if (by && u.toolCallId) answered[u.toolCallId] = by;
  }
  return { prompts, answered };
}

async function load(hub: HubHarness, sessionId: string): Promise<AcpWsClient> {
  const c = await hub.initializedClient({ token: await hub.token('view', 'Reader') });
  await c.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
  return c;
}

describe('authors in replay', () => {
  it('a late joiner, and one after a hub restart, learn who prompted and who answered', async () => {
    const hub = await start();
    const ana = await hub.initializedClient({ token: await hub.token('operate', 'Ana phone'), name: 'Ana phone' });
    const laptop = await hub.initializedClient({ token: await hub.token('operate', 'Laptop'), name: 'Laptop' });
    const { sessionId } = await ana.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    await laptop.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });

    expect(
      (await ana.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello from Ana' }] }))
        .stopReason,
    ).toBe('end_turn');
    // Ana's permission prompt, answered on the laptop.
    const turn = ana.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'permission please' }],
    });
    const ask = await laptop.waitForRequest('session/request_permission');
    const toolCallId = z.looseObject({ toolCall: z.looseObject({ toolCallId: z.string() }) }).parse(ask.params).toolCall.toolCallId;
    laptop.answer(ask.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');
    expect(
      (
        await laptop.request<{ stopReason: string }>('session/prompt', {
          sessionId,
          prompt: [{ type: 'text', text: 'hello from the laptop' }],
        })
      ).stopReason,
    ).toBe('end_turn');
    // Live, Ana's own client saw the answer on the card too.
    expect(authorsSeen(ana.messages).answered).toEqual({ [toolCallId]: 'Laptop' });

    const want = {
      prompts: [
        { text: 'hello from Ana', update: 'Ana phone', notification: 'Ana phone' },
        { text: 'permission please', update: 'Ana phone', notification: 'Ana phone' },
        { text: 'hello from the laptop', update: 'Laptop', notification: 'Laptop' },
      ],
      answered: { [toolCallId]: 'Laptop' },
    };
    // Every turn has ended: the replay is the agent's history, named by the hub.
    expect(authorsSeen((await load(hub, sessionId)).messages)).toEqual(want);

    await hub.close();
    const again = await start();
    expect(authorsSeen((await load(again, sessionId)).messages)).toEqual(want);
    expect(fs.statSync(path.join(stateDir, 'authors.ndjson')).mode & 0o777).toBe(0o600);
  }, 180_000);
});
