import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * History replay of inlined images (APP-SERVER.md §3.6, §3.7): the simulator's `screenshot`
 * turn keeps a PNG `file` part whose `url` is a `data:image/png;base64,…` URL, as the real
 * server inlines images. A client loading the session must get an ACP image content block, not
 * a resource_link whose URI (and name) is the whole data URL.
 */
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2', '--image-bytes', '4096'] });
});
afterAll(async () => {
  await hub?.close();
});

type Content = { type: string; uri?: string; name?: string; mimeType?: string; data?: string };

describe('images in a history replay', () => {
  it('a data-URL image part replays as an image block', async () => {
    const c = await hub.initializedClient({ name: 'shooter' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'take a screenshot' }] });
    const joiner = await hub.initializedClient({ name: 'viewer' });
    await joiner.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const contents = joiner
      .notifications<{ sessionId: string; update: { sessionUpdate: string; content?: Content } }>('session/update')
      .filter((n) => n.sessionId === sessionId && n.update.content !== undefined)
      .map((n) => n.update.content as Content);
    const images = contents.filter((b) => b.type === 'image');
    expect(images).toHaveLength(1);
    expect(images[0]?.mimeType).toBe('image/png');
    expect(
      Buffer.from(images[0]?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(contents.some((b) => b.type === 'resource_link' && (b.uri ?? '').startsWith('data:'))).toBe(false);
  });
});
