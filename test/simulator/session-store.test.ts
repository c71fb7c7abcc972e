import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { emptyUsage, SessionStore, type StoredSession } from '../../src/simulator/session-store.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

function session(sessionId: string, title: string, turns: number): StoredSession {
  const messages = Array.from({ length: turns * 2 }, (_, i) => ({
    info: { messageId: `${sessionId}-m${i}`, sessionId, role: i % 2 === 0 ? ('user' as const) : ('assistant' as const) },
    parts: [{ partId: `${sessionId}-p${i}`, type: 'text', text: `message ${i}` }],
  }));
  return {
    version: 1,
    info: {
      sessionId,
      workspace: { workspacePath: '/w', workspaceKey: '/w' },
      sessionKind: 'main',
      title,
      mode: 'default',
      status: 'idle',
      createdAt: 1,
      updatedAt: 2,
    },
    turnCount: turns,
    usage: emptyUsage(),
    messages,
  };
}

describe('simulator session store: listing', () => {
  it('lists heads without messages, and sees a file rewritten, added or removed since the last list', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-store-'));
    roots.push(root);
    const store = new SessionStore(root, createLogger({ level: 'silent' }));
    store.save(session('sess_a', 'first title', 50));
    store.save(session('sess_b', 'b', 1));
    const first = store.list();
    expect(first.map((s) => s.info.title).sort()).toEqual(['b', 'first title']);
    expect(first.every((s) => !('messages' in s))).toBe(true);

    // Same length title, so only the file's identity (a new inode from the atomic write) tells it changed.
    store.save(session('sess_a', 'other title', 50));
    store.save(session('sess_c', 'c', 1));
    store.delete('sess_b');
    expect(
      store
        .list()
        .map((s) => s.info.title)
        .sort(),
    ).toEqual(['c', 'other title']);
    // The whole session is still read whole where it is loaded.
    expect(store.load('sess_a')?.messages).toHaveLength(100);
  });

  it('a file that turns unreadable is left out of the next list', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-store-'));
    roots.push(root);
    const store = new SessionStore(root, createLogger({ level: 'silent' }));
    store.save(session('sess_a', 'a', 1));
    expect(store.list()).toHaveLength(1);
    fs.writeFileSync(path.join(root, 'sessions', 'sess_a.json'), '{"version":1,"broken":');
    expect(store.list()).toEqual([]);
  });
});
