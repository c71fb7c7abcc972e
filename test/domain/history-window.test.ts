import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pageBefore, tailByTurns, type HistoryPage } from '../../src/acp/history-page.js';
import { parseMessages } from '../../src/acp/message-schema.js';
import { HubError } from '../../src/errors.js';
import { firstWindow, pageFromWindow } from '../../src/domain/sessions/history-window.js';
import { startRig, type DomainRig } from './helpers.js';

let rig: DomainRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** A persisted conversation of `turns` turns (a user prompt, then an answer), written where the rig's simulator keeps sessions. */
function seedConversation(r: DomainRig, sessionId: string, turns: number): void {
  const dir = path.join(r.root, 'sim-data', 'sessions');
  fs.mkdirSync(dir, { recursive: true });
  const messages = [];
  for (let t = 0; t < turns; t++) {
    const at = 1_700_000_000_000 + t * 1000;
    messages.push(
      {
        info: { messageId: `u${t}`, sessionId, role: 'user', time: { created: at } },
        parts: [{ partId: `up${t}`, type: 'text', text: `prompt ${t}` }],
      },
      {
        info: { messageId: `a${t}`, sessionId, role: 'assistant', time: { created: at + 1, completed: at + 2 } },
        parts: [{ partId: `ap${t}`, type: 'text', text: `answer ${t}` }],
      },
    );
  }
  const usage = { totalTokens: 0, inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 };
  const info = {
    sessionId,
    workspace: { workspacePath: r.config.workspace, workspaceKey: r.config.workspace },
    sessionKind: 'main',
    title: 'seeded',
    mode: 'default',
    status: 'idle',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000 + turns * 1000,
  };
  const session = { version: 1, info, turnCount: turns, usage: { ...usage, modelRequestCount: 0, modelErrorCount: 0 }, messages };
  fs.writeFileSync(path.join(dir, `${sessionId}.json`), JSON.stringify(session), { mode: 0o600 });
}

/** The prompts a page of updates shows, in order. */
function prompts(updates: readonly unknown[]): string[] {
  return updates.flatMap((u) => {
    const x = u as { sessionUpdate?: string; content?: { text?: string } };
    return x.sessionUpdate === 'user_message_chunk' && typeof x.content?.text === 'string' ? [x.content.text] : [];
  });
}

/** The `limit`s the hub asked `session/messages` for since `from`. */
function windowsAsked(r: DomainRig, from: number): number[] {
  return r.calls.slice(from).flatMap((c) => (c.method === 'session/messages' ? [(c.params as { limit: number }).limit] : []));
}

describe('history pages read from a window of the newest messages', () => {
  it('[B-LONG] the newest page of a 60-turn session asks for a small window; paging back reads every turn once, in order', async () => {
    rig = await startRig({ limits: { replayMaxMessages: 1_000 } });
    seedConversation(rig, 'sess_window', 60);
    const from = rig.calls.length;
    const newest = await rig.hub.loadEarlier('sess_window', undefined, 4);
    expect(prompts(newest.updates)).toEqual(['prompt 58', 'prompt 59']);
    expect(newest.hasMore).toBe(true);
    // One request, of the first window only: not the whole conversation.
    expect(windowsAsked(rig, from)).toEqual([firstWindow(4, 1_000)]);

    const seen = [...prompts(newest.updates)];
    let cursor = newest.cursor;
    while (cursor !== undefined) {
      const page = await rig.hub.loadEarlier('sess_window', cursor, 4);
      seen.unshift(...prompts(page.updates));
      cursor = page.hasMore ? page.cursor : undefined;
    }
    expect(seen).toEqual(Array.from({ length: 60 }, (_, t) => `prompt ${t}`));
    // Deeper pages grew the window (32, then 128 holds all 120 messages), never past what held the page.
    expect(Math.max(...windowsAsked(rig, from))).toBe(firstWindow(4, 1_000) * 4);
  });

  it('[B-LONG] every page equals the page cut from the whole conversation, also when the cap is shorter than the history', async () => {
    for (const max of [1_000, 50]) {
      rig = await startRig({ limits: { replayMaxMessages: max } });
      seedConversation(rig, 'sess_same', 40);
      const whole = parseMessages(
        await rig.backend
          .request('session/messages', { sessionId: 'sess_same', limit: max })
          .then((r) => (r as { messages: unknown[] }).messages),
      );
      const fetch = async (limit: number) => whole.slice(Math.max(0, whole.length - limit));
      const pages: HistoryPage[] = [];
      let page = await pageFromWindow(fetch, (m) => tailByTurns('sess_same', m, 3), 3, max);
      pages.push(page);
      while (page.hasMore && page.cursor !== undefined) {
        const cursor = page.cursor;
        page = await pageFromWindow(fetch, (m) => pageBefore('sess_same', m, cursor, 3), 3, max);
        pages.push(page);
      }
      // The reference: the same cuts over everything the cap lets the hub read.
      let ref = tailByTurns('sess_same', whole, 3);
      const refs = [ref];
      while (ref.hasMore && ref.cursor !== undefined) {
        ref = pageBefore('sess_same', whole, ref.cursor, 3);
        refs.push(ref);
      }
      expect(pages).toEqual(refs);
      expect(pages.flatMap((p) => p.messages).length).toBe(Math.min(80, max));
      await rig.close();
      rig = undefined;
    }
  });

  it('a cursor naming a message the capped window does not hold is not found, after the window grew to the cap', async () => {
    const asked: number[] = [];
    const messages = parseMessages(
      Array.from({ length: 200 }, (_, i) => ({
        info: { messageId: `m${i}`, sessionId: 's', role: i % 2 ? 'assistant' : 'user' },
        parts: [],
      })),
    );
    const fetch = async (limit: number) => {
      asked.push(limit);
      return messages.slice(messages.length - limit);
    };
    const cursor = Buffer.from(JSON.stringify({ v: 1, sessionId: 's', beforeMessageId: 'gone' })).toString('base64url');
    const failure = await pageFromWindow(fetch, (m) => pageBefore('s', m, cursor, 2), 2, 100).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HubError);
    expect((failure as HubError).code).toBe('HUB_ERR_NOT_FOUND');
    expect(asked).toEqual([24, 96, 100]);
  });
});
