import { afterEach, describe, expect, it } from 'vitest';
import { RpcError } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Snapshots inline images as data URLs of up to
 * 20 MiB each, and create/resume/subscribe/`set*` results carry the messages. The simulator's
 * `screenshot` turn keeps a `--image-bytes` PNG in the conversation. A result line over the old
 * 64 MiB cap killed the child and every session with it; now such lines are read (cap 256 MiB),
 * and a line over the cap is skipped — its request fails, the child lives on.
 */
const IMAGE_BYTES = 20 * 1024 * 1024;
let hub: HubHarness | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

async function screenshots(
  h: HubHarness,
  n: number,
): Promise<{ c: Awaited<ReturnType<HubHarness['initializedClient']>>; sessionId: string }> {
  const c = await h.initializedClient({ name: 'screens' });
  const { sessionId } = await c.request<{ sessionId: string }>('session/new', {
    cwd: h.workspace,
    mcpServers: [],
    _meta: { zcode: { mode: 'yolo' } },
  });
  for (let i = 0; i < n; i++) {
    const r = await c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: `take screenshot number ${i + 1}` }],
    });
    expect(r.stopReason).toBe('end_turn');
  }
  return { c, sessionId };
}

describe('big snapshots over the real child pipe', () => {
  it('three 20 MiB screenshots: a set* result of ~80 MiB is read; the child is not restarted', async () => {
    hub = await startHub({ simArgs: ['--image-bytes', String(IMAGE_BYTES), '--turn-delay-scale', '0.2'] });
    const { c, sessionId } = await screenshots(hub, 3);
    const epoch = hub.daemon.backend.status().epoch;
    // session/setMode answers with the snapshot, messages and images included (§4.14).
    const r = await c.request<{ configOptions: Array<{ id: string; currentValue: string }> }>('session/set_config_option', {
      sessionId,
      configId: 'mode',
      value: 'build',
    });
    expect(r.configOptions.find((o) => o.id === 'mode')?.currentValue).toBe('build');
    expect(hub.daemon.backend.status()).toMatchObject({ state: 'ready', epoch, restarts: 0 });
  }, 120_000);

  it('a result over the line cap fails that request with a clear error; the session goes on', async () => {
    hub = await startHub({
      simArgs: ['--image-bytes', String(IMAGE_BYTES), '--turn-delay-scale', '0.2'],
      limits: { childStdoutLineBytes: 40 * 1024 * 1024 },
    });
    const { c, sessionId } = await screenshots(hub, 2);
    const err = await c.request('session/set_config_option', { sessionId, configId: 'mode', value: 'build' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).message).toMatch(/over the hub's 41943040-byte line limit/);
    expect(hub.daemon.backend.status()).toMatchObject({ state: 'ready', epoch: 1, restarts: 0 });
    const next = await c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'still there?' }] });
    expect(next.stopReason).toBe('end_turn');
  }, 120_000);
});
