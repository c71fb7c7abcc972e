import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * A prompt the runtime
 * refuses at model creation ends with only `state.updated prompt_failed`; its reason shows
 * only in `v4/telemetry/event` `turn.terminal` (`errorMessage`). The simulator refuses a send on
 * every send so with `--reject-sends MESSAGE` (as it does a model without its reasoning level),
 * and the hub must surface that reason.
 */
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--reject-sends', 'Reasoning level is required for sim/sim-pro'] });
});
afterAll(async () => {
  await hub?.close();
});

describe('a prompt refused before its turn starts', () => {
  it('fails with the reason from turn.terminal telemetry', async () => {
    const c = await hub.initializedClient({ name: 'refused' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const err = await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).message).toContain('Reasoning level is required for sim/sim-pro');
  });
});
