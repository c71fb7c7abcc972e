import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimClient } from './sim-client.js';

describe('persistence across a restart (§4.2, §5.2)', () => {
  it('session/list still lists the session; resume brings it back with seq restarting at 1', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-sim-'));
    const a = await SimClient.start({ home, args: ['--turn-delay-scale', '0.2'] });
    const sessionId = await a.openSession();
    await a.prompt(sessionId, 'remember me');
    const deferred = await a.createSession({ persistence: 'deferred' });
    await a.close(true);
    expect(fs.readdirSync(path.join(home, 'sim-data', 'sessions')).length).toBe(1);

    const b = await SimClient.start({ home });
    try {
      const list = await b.call('session/list', {});
      expect(list.sessions.map((s: any) => s.sessionId)).toEqual([sessionId]);
      expect(list.sessions[0].title).toBe('remember me');
      expect(list.sessions.some((s: any) => s.sessionId === deferred.session.sessionId)).toBe(false);
      expect((await b.request('session/read', { sessionId })).error.code).toBe(-32004);
      const snap = await b.call('session/resume', { sessionId });
      expect(snap.messages.map((m: any) => m.info.role)).toEqual(['user', 'assistant']);
      expect(snap.settings.model.available.length).toBeGreaterThanOrEqual(2);
      const sub = await b.call('session/subscribe', { sessionId, deliveryKind: 'desktop-continuous', afterSeq: 0 });
      expect(sub.events.map((e: any) => e.seq)).toEqual([1]);
      const usage = await b.call('session/usage', { sessionId });
      expect(usage.totalTokens).toBeGreaterThan(0);
    } finally {
      await b.close();
    }
  });
});

const providerFile = (providers: { id: string; models: string[]; apiKey?: string }[]): string =>
  JSON.stringify({
    schemaVersion: 1,
    config: {
      providerConfigRules: {
        providerRules: providers.map((p) => ({
          providerId: p.id,
          providerName: p.id,
          config: {
            group: 'standard-personal',
            access: { type: 'api-key', apiKey: p.apiKey ?? 'sk-test' },
            api: { type: 'anthropic-messages', baseUrl: 'https://api.example.com/api/anthropic' },
            personalModelIds: p.models,
          },
        })),
      },
      modelConfigRules: { providerModelRules: [], manualProviderModelRules: [] },
    },
  });

describe('personal provider file (§9.2, §9.3)', () => {
  it('hot reload: new providers become selectable; an invalid file empties the personal layer', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-sim-prov-'));
    const file = path.join(dir, 'provider_config.json');
    fs.writeFileSync(
      file,
      providerFile([
        { id: 'hub-a', models: ['GLM-5.3', 'Flash-1'] },
        { id: 'incomplete', models: ['X'], apiKey: ' ' },
      ]),
    );
    const sim = await SimClient.start({ env: { ZCODE_PERSONAL_PROVIDER_CONFIG_FILE: file } });
    try {
      const ws = { workspacePath: dir, workspaceKey: dir };
      const models = async (): Promise<string[]> =>
        (await sim.createSession()).settings.model.available.map((m: any) => `${m.ref.providerId}/${m.ref.modelId}`);
      expect(await models()).toEqual(expect.arrayContaining(['sim/sim-fast', 'hub-a/GLM-5.3', 'hub-a/Flash-1']));
      expect((await models()).some((m) => m.startsWith('incomplete/'))).toBe(false);
      expect(
        await sim.call('provider/testModelConnectivity', { workspace: ws, selection: { providerId: 'hub-a', modelId: 'Flash-1' } }),
      ).toEqual({ success: true });
      expect(
        await sim.call('provider/testModelConnectivity', { workspace: ws, selection: { providerId: 'sim', modelId: 'sim-fast' } }),
      ).toEqual({ success: true });
      const missing = await sim.request('provider/testModelConnectivity', {
        workspace: ws,
        selection: { providerId: 'incomplete', modelId: 'X' },
      });
      expect(missing.error.code).toBe(-32603);
      // GLM-5.x needs a reasoning level, like the real built-in rules
      const s = await sim.openSession({ model: { providerId: 'hub-a', modelId: 'GLM-5.3' } });
      expect(
        (await sim.request('session/setModel', { sessionId: s, model: { providerId: 'hub-a', modelId: 'GLM-5.3' } })).error.message,
      ).toMatch(/Reasoning level is required/);

      fs.writeFileSync(
        file,
        providerFile([
          { id: 'hub-a', models: ['GLM-5.3'] },
          { id: 'hub-b', models: ['B-1'] },
        ]),
      );
      await expect.poll(models, { timeout: 10_000, interval: 300 }).toContain('hub-b/B-1');
      fs.writeFileSync(file, '{"schemaVersion":1,"config":{"bogus":true}}');
      await expect.poll(async () => (await models()).filter((m) => !m.startsWith('sim/')), { timeout: 10_000, interval: 300 }).toEqual([]);
      expect(sim.stderr).toMatch(/personal provider file is invalid/);
    } finally {
      await sim.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
