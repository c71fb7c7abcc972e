/**
 * The mark of a Write that replaced a file that existed (`_meta.zcode.overwrites`) outlives its
 * turn: the agent's history has the Write's diff with `oldText: null`, as for a new file, and by
 * then the file holds the new content, so nothing can look it up again. Every way a client gets
 * that tool call back — a `session/load` rebuilt from history, a resume from the journal, a
 * `_zcode/load_earlier` page, `GET /api/sessions/{id}/history` — carries the mark, also after a
 * hub restart on the same state dir. The simulator's `edit` scenario writes `src/greet.ts`; the
 * test creates it first, so that Write replaces it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AcpWsClient, InboundMessage } from '../helpers/acp-ws-client.js';
import type { HubHarness } from '../helpers/hub-harness.js';
import { restartableHub } from '../helpers/restartable-hub.js';
import { authorEntries } from '../helpers/state-logs.js';

const { stateDir, workspace, start } = restartableHub('zch-overwrite-');

const updateSchema = z.looseObject({
  sessionUpdate: z.string(),
  toolCallId: z.string().optional(),
  _meta: z
    .looseObject({
      claudeCode: z.looseObject({ toolName: z.string().optional() }).optional(),
      zcode: z.looseObject({ overwrites: z.boolean().optional() }).optional(),
    })
    .nullish(),
});
type Update = z.infer<typeof updateSchema>;

const updatesIn = (messages: readonly InboundMessage[]): Update[] =>
  messages
    .filter((m) => m.method === 'session/update')
    .map((m) => updateSchema.parse(z.looseObject({ update: z.unknown() }).parse(m.params).update));

/** The edit cards (`tool_call`) a list of updates announces, each with its tool and whether it says it replaced a file. */
function cardsOf(updates: readonly unknown[]): Array<{ tool: string | undefined; overwrites: boolean }> {
  return updates
    .map((u) => updateSchema.parse(u))
    .filter((u) => u.sessionUpdate === 'tool_call' && ['Edit', 'Write'].includes(u._meta?.claudeCode?.toolName ?? ''))
    .map((u) => ({ tool: u._meta?.claudeCode?.toolName, overwrites: u._meta?.zcode?.overwrites === true }));
}

/** The tool calls some update marked as replacing a file. */
const markedIn = (updates: readonly Update[]): string[] =>
  updates.flatMap((u) => (u._meta?.zcode?.overwrites === true && u.toolCallId !== undefined ? [u.toolCallId] : []));

const want = [
  { tool: 'Edit', overwrites: false },
  { tool: 'Write', overwrites: true },
];

async function viewer(hub: HubHarness): Promise<AcpWsClient> {
  return hub.initializedClient({ token: await hub.token('view', 'Reader') });
}

/**
 * What a client rebuilding the session from history is sent, by `session/load`, by the older page
 * a chat scrolled up asks for after a load of the last turn only, and by the REST history.
 */
async function everyHistoryPath(hub: HubHarness, sessionId: string) {
  const loaded = await viewer(hub);
  await loaded.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
  const paged = await viewer(hub);
  const last = await paged.request<{ _meta: { zcode: { replayMeta: { cursor: string } } } }>('session/load', {
    sessionId,
    cwd: workspace,
    mcpServers: [],
    _meta: { zcode: { limit: 1 } },
  });
  expect(cardsOf(updatesIn(paged.messages))).toEqual([]);
  const page = await paged.request<{ updates: unknown[] }>('_zcode/load_earlier', {
    sessionId,
    cursor: last._meta.zcode.replayMeta.cursor,
  });
  const rest = z
    .object({ updates: z.array(z.unknown()) })
    .parse(await (await hub.api(`/api/sessions/${encodeURIComponent(sessionId)}/history`)).json());
  return { load: cardsOf(updatesIn(loaded.messages)), page: cardsOf(page.updates), rest: cardsOf(rest.updates) };
}

describe('a replaced file stays marked as replaced', () => {
  it('after its turn, in a resume from the journal and in every replay rebuilt from history, and after a hub restart', async () => {
    fs.writeFileSync(path.join(workspace, 'README.md'), '# Demo\n\nA project.\n');
    fs.mkdirSync(path.join(workspace, 'src'));
    fs.writeFileSync(path.join(workspace, 'src', 'greet.ts'), 'export const old = 1;\n');
    const hub = await start();
    const ana = await hub.initializedClient({ token: await hub.token('operate', 'Ana phone') });
    const { sessionId } = await ana.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    const turn = ana.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'please edit' }] });
    const asked: string[] = [];
    for (let i = 0; i < 2; i++) {
      const req = await ana.waitForRequest(
        'session/request_permission',
        (r) =>
          r.params['sessionId'] === sessionId &&
          !asked.includes(z.looseObject({ toolCallId: z.string() }).parse(r.params['toolCall']).toolCallId),
      );
      asked.push(z.looseObject({ toolCallId: z.string() }).parse(req.params['toolCall']).toolCallId);
      ana.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    }
    expect((await turn).stopReason).toBe('end_turn');
    const write = asked[1]!;
    expect(markedIn(updatesIn(ana.messages))).toEqual([write]);
    // A later turn, so that a load of the last turn leaves the Write to an older page.
    expect(
      (await ana.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] })).stopReason,
    ).toBe('end_turn');

    // The turn has ended: a device that reopens the session from the journal (the web app's reload with its seq) ...
    const resumed = await viewer(hub);
    await resumed.request('session/resume', { sessionId, cwd: workspace, mcpServers: [], _meta: { zcode: { afterSeq: 0 } } });
    expect(markedIn(updatesIn(resumed.messages))).toEqual([write]);
    // ... and every replay rebuilt from the agent's history say it.
    const before = await everyHistoryPath(hub, sessionId);
    expect(before).toEqual({ load: want, page: want, rest: want });

    await hub.close();
    const again = await start();
    expect(await everyHistoryPath(again, sessionId)).toEqual({ load: want, page: want, rest: want });
    // Kept as the mark alone: no content of the file, nothing of the request.
    expect(authorEntries(stateDir).filter((e) => e.k === 'overwrite')).toEqual([{ k: 'overwrite', s: sessionId, id: write }]);
  }, 180_000);
});
