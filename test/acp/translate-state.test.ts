import { describe, expect, it } from 'vitest';
import { configOptionUpdate, configOptions, modeState, parseModelValueId, stateFacts } from '../../src/acp/translate-state.js';

// The example of APP-SERVER.md §5.8.
const example = {
  type: 'state.updated',
  scope: 'session',
  workspace: { workspacePath: '/w/app', workspaceKey: '/w/app' },
  sessionId: 'sess_9f2c',
  revision: 6,
  reason: 'prompt_completed',
  patch: {
    mode: { current: 'yolo' },
    model: {
      available: [
        {
          ref: { providerId: 'my-provider', modelId: 'GLM-5.3' },
          label: 'GLM-5.3',
          contextWindow: 200000,
          properties: {
            inputFormat: { supportsText: true, supportsImage: false, supportsVideo: false, supportsAudio: false, supportsPdf: false },
            outputFormat: { supportsText: true },
          },
        },
      ],
      current: { providerId: 'my-provider', modelId: 'GLM-5.3', options: { reasoningLevel: 'high' } },
      lastUsed: { providerId: 'my-provider', modelId: 'GLM-5.3' },
    },
    permission: { mode: 'yolo' },
    thoughtLevel: { available: [{ label: 'high', value: 'high' }], current: 'high', enabled: true },
  },
};

describe('state.updated (§5.8)', () => {
  it('prompt_completed is the ready boundary and carries Settings', () => {
    const f = stateFacts(example);
    expect(f).toMatchObject({
      sessionId: 'sess_9f2c',
      revision: 6,
      reason: 'prompt_completed',
      running: false,
      ready: true,
      failed: false,
    });
    expect(f?.settings?.mode?.current).toBe('yolo');
  });

  it('prompt_started is running with a {status} patch; prompt_failed is ready and failed', () => {
    expect(stateFacts({ ...example, reason: 'prompt_started', patch: { status: 'running' } })).toMatchObject({
      running: true,
      ready: false,
    });
    expect(stateFacts({ ...example, reason: 'prompt_failed' })).toMatchObject({ ready: true, failed: true });
  });

  it('garbage is not a state update', () => {
    expect(stateFacts('nope')).toBeUndefined();
  });

  it('config options for model, mode and thought level', () => {
    const f = stateFacts(example);
    const opts = configOptions(f!.settings!, [
      { ref: { providerId: 'my-provider', modelId: 'GLM-5.3' }, label: 'GLM-5.3' },
      { ref: { providerId: 'my-provider', modelId: 'GLM-4.6' }, label: 'GLM-4.6' },
    ]);
    expect(opts.map((o) => [o.id, o.currentValue])).toEqual([
      ['model', 'my-provider/GLM-5.3'],
      ['mode', 'yolo'],
      ['thought_level', 'high'],
    ]);
    expect((opts[0] as { options: unknown[] }).options).toHaveLength(2);
    expect(configOptionUpdate(f!.settings!).sessionUpdate).toBe('config_option_update');
    expect(parseModelValueId('my-provider/GLM-5.3')).toEqual({ providerId: 'my-provider', modelId: 'GLM-5.3' });
    expect(parseModelValueId('bad')).toBeUndefined();
    expect(modeState('build').availableModes.map((m) => m.id)).toContain('plan');
  });
});
