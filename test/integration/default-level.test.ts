import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * APP-SERVER.md §3.2, §11.11: a model with reasoning levels refuses every prompt without one,
 * and `session/create` drops `model.options`. With `--no-default-level` the simulator gives a
 * session created without `thoughtLevel` no level at all (as the real server may); `session/new`
 * with such a model and no `_meta.zcode.thoughtLevel` must still get the model's default level.
 */
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2', '--no-default-level'] });
});
afterAll(async () => {
  await hub?.close();
});

type ConfigOption = { id: string; currentValue?: string };

describe('session/new with a model that needs a reasoning level', () => {
  it('gets the model’s default level, and its prompts run', async () => {
    const c = await hub.initializedClient({ name: 'levels' });
    const opened = await c.request<{ sessionId: string; configOptions?: ConfigOption[] }>('session/new', {
      cwd: hub.workspace,
      mcpServers: [],
      _meta: { zcode: { model: { providerId: 'sim', modelId: 'sim-pro' } } },
    });
    const level = opened.configOptions?.find((o) => o.id === 'thought_level');
    expect(level?.currentValue).toBe('medium');
    const res = await c.request<{ stopReason: string }>('session/prompt', {
      sessionId: opened.sessionId,
      prompt: [{ type: 'text', text: 'hello' }],
    });
    expect(res.stopReason).toBe('end_turn');
  });
});
