import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Every model a session offers is selectable through
 * `session/set_config_option`, with the reasoning level that model needs (APP-SERVER.md §3.2,
 * §4.14, §11.11). The simulator's `sim-pro` requires a level (like GLM-5.x); `sim-fast` has none
 * and refuses one.
 */
interface ConfigOption {
  id: string;
  currentValue: string;
  options: Array<{ value: string; name: string; _meta?: { zcode?: { reasoningLevels?: string[]; defaultReasoningLevel?: string } } }>;
}

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

function option(options: ConfigOption[], id: string): ConfigOption | undefined {
  return options.find((o) => o.id === id);
}

describe('model switch over the real simulator', () => {
  it('switches to a model with reasoning levels, changes the level, and back to one without', async () => {
    const c = await hub.initializedClient({ name: 'switcher' });
    const opened = await c.request<{ sessionId: string; configOptions: ConfigOption[] }>('session/new', {
      cwd: hub.workspace,
      mcpServers: [],
    });
    const model = option(opened.configOptions, 'model');
    expect(model?.currentValue).toBe('sim/sim-fast');
    // The picker can tell which models take a level, and which levels.
    const pro = model?.options.find((o) => o.value === 'sim/sim-pro');
    expect(pro?._meta?.zcode).toEqual({ reasoningLevels: ['low', 'medium', 'high'], defaultReasoningLevel: 'medium' });
    expect(option(opened.configOptions, 'thought_level')).toBeUndefined();

    const toPro = await c.request<{ configOptions: ConfigOption[] }>('session/set_config_option', {
      sessionId: opened.sessionId,
      configId: 'model',
      value: 'sim/sim-pro',
    });
    expect(option(toPro.configOptions, 'model')?.currentValue).toBe('sim/sim-pro');
    expect(option(toPro.configOptions, 'thought_level')).toMatchObject({
      currentValue: 'medium',
      options: [{ value: 'low' }, { value: 'medium' }, { value: 'high' }],
    });

    const high = await c.request<{ configOptions: ConfigOption[] }>('session/set_config_option', {
      sessionId: opened.sessionId,
      configId: 'thought_level',
      value: 'high',
    });
    expect(option(high.configOptions, 'thought_level')?.currentValue).toBe('high');

    const back = await c.request<{ configOptions: ConfigOption[] }>('session/set_config_option', {
      sessionId: opened.sessionId,
      configId: 'model',
      value: 'sim/sim-fast',
    });
    expect(option(back.configOptions, 'model')?.currentValue).toBe('sim/sim-fast');
    expect(option(back.configOptions, 'thought_level')).toBeUndefined();

    // A prompt runs on the chosen model afterwards.
    const res = await c.request<{ stopReason: string }>('session/prompt', {
      sessionId: opened.sessionId,
      prompt: [{ type: 'text', text: 'hello after the switch' }],
    });
    expect(res.stopReason).toBe('end_turn');
  });

  it('a model chosen with a level keeps that level', async () => {
    const c = await hub.initializedClient({ name: 'switcher-2' });
    const opened = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const r = await c.request<{ configOptions: ConfigOption[] }>('session/set_config_option', {
      sessionId: opened.sessionId,
      configId: 'model',
      value: 'sim/sim-pro',
      _meta: { zcode: { thoughtLevel: 'low' } },
    });
    expect(option(r.configOptions, 'thought_level')?.currentValue).toBe('low');
  });
});
