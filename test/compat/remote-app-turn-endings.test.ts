import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { RemoteApp } from '../helpers/remote-app.js';
import { until } from '../helpers/until.js';

/**
 * Turns that do not end well, as the zcode-acp-remote app meets them (its `runPrompt`: a settled
 * failure becomes the notice "prompt failed: …", a dropped connection is left to its reconnect
 * banner and replay). A failed turn is told as the agent's error, never as a finished turn; a hub
 * that is stopped mid-turn says so before the socket goes, and the next hub serves what was said.
 */
let hubs: HubHarness[] = [];
afterEach(async () => {
  for (const h of hubs) await h.close();
  hubs = [];
});

describe('[REC-05] zcode-acp-remote: failed and interrupted turns', () => {
  it('a failed turn is the notice with the agent’s error; the next prompt runs', async () => {
    const hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2'] });
    hubs.push(hub);
    const admin = await hub.initializedClient({ name: 'admin-app' });
    const { sessionId } = await admin.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const app = await RemoteApp.connect(hub.url, hub.adminToken);
    try {
      await app.loadSession(sessionId, hub.workspace);
      const notice = await app.promptNotice(sessionId, 'please fail now');
      expect(notice).toMatch(/^prompt failed: The agent could not finish this turn: /);
      expect(await app.promptNotice(sessionId, 'hello')).toBeUndefined();
    } finally {
      app.close();
    }
  });

  it('a hub stopped mid-turn: the notice says it is shutting down; the restarted hub replays what was said', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-compat-stop-'));
    const config = { stateDir: path.join(dir, 'state'), workspace: path.join(dir, 'ws') };
    fs.mkdirSync(config.workspace);
    try {
      const first = await startHub({ config, simArgs: ['--turn-delay-scale', '0.5'] });
      hubs.push(first);
      const admin = await first.initializedClient({ name: 'admin-app' });
      const { sessionId } = await admin.request<{ sessionId: string }>('session/new', { cwd: config.workspace, mcpServers: [] });
      const token = await first.token('operate', 'phone');
      const app = await RemoteApp.connect(first.url, token);
      await app.loadSession(sessionId, config.workspace);
      const notice = app.promptNotice(sessionId, 'slow please');
      const said = () =>
        app.received.filter(
          (m) => m.method === 'session/update' && (m.params.update as { sessionUpdate?: string }).sessionUpdate === 'agent_message_chunk',
        ).length;
      await until(() => said() >= 2 || undefined, 'the turn saying something');
      await first.close();
      expect(await notice).toBe('prompt failed: The hub is shutting down');
      app.close();

      const second = await startHub({ config });
      hubs.push(second);
      const back = await RemoteApp.connect(second.url, token);
      try {
        await back.loadSession(sessionId, config.workspace);
        await until(
          () =>
            back.received.filter(
              (m) =>
                m.method === 'session/update' && (m.params.update as { sessionUpdate?: string }).sessionUpdate === 'agent_message_chunk',
            ).length > 0 || undefined,
          'the replayed answer',
        );
        expect(await back.promptNotice(sessionId, 'hello again')).toBeUndefined();
      } finally {
        back.close();
      }
    } finally {
      for (const h of hubs.splice(0)) await h.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
