import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { RemoteApp } from '../helpers/remote-app.js';

/** zcode-acp-remote's Files (its ADR 0005) against a real hub. */
const PHONE_ORIGIN = 'https://phone.example';
let hub: HubHarness;
let app: RemoteApp;
let sessionId: string;

beforeAll(async () => {
  hub = await startHub({ config: { allowOrigins: [PHONE_ORIGIN] } });
  const editor = await hub.initializedClient({ name: 'editor' });
  ({ sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] }));
  await editor.close();
  fs.writeFileSync(path.join(hub.workspace, 'big.txt'), Array.from({ length: 6_000 }, (_, i) => `line ${i + 1}`).join('\n'));
  fs.writeFileSync(path.join(hub.workspace, 'crlf.txt'), 'one\r\ntwo\r\nthree\r\n');
  fs.writeFileSync(path.join(path.dirname(hub.workspace), 'outside.txt'), 'not yours\n');
  fs.symlinkSync(path.join(path.dirname(hub.workspace), 'outside.txt'), path.join(hub.workspace, 'link.txt'));
  app = await RemoteApp.connect(hub.url, await hub.token('operate', 'phone'));
});
afterAll(async () => {
  app?.close();
  await hub?.close();
});

/** The app's `fsFileText`: a line window, `firstLine` from `X-Zcode-First-Line`. */
async function fileText(file: string, line: number, limit?: number): Promise<{ status: number; firstLine: string | null; text: string }> {
  const q = new URLSearchParams({ sessionId, path: file, line: String(line), ...(limit === undefined ? {} : { limit: String(limit) }) });
  const res = await app.api(`/api/instances/zcode-hub/fs/file?${q}`);
  return { status: res.status, firstLine: res.headers.get('x-zcode-first-line'), text: await res.text() };
}

describe('zcode-acp-remote: Files', () => {
  it('initialize advertises agentCapabilities._meta.zcode.fs, so the app shows its Files button', () => {
    expect(app.fsCapable).toBe(true);
  });

  it('fs/file?line=N&limit=M returns only those lines, with X-Zcode-First-Line', async () => {
    const w = await fileText('big.txt', 401, 200);
    expect(w.status).toBe(200);
    expect(w.firstLine).toBe('401');
    const lines = w.text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1)).toEqual(Array.from({ length: 200 }, (_, i) => `line ${401 + i}`));

    const tail = await fileText('big.txt', 5_999, 50);
    expect(tail.text).toBe('line 5999\nline 6000\n');
    const past = await fileText('big.txt', 9_000, 10);
    expect(past).toMatchObject({ status: 200, firstLine: '6001', text: '' });
    expect((await fileText('crlf.txt', 2, 5)).text).toBe('two\nthree\n');
  });

  it('a window without limit has fsLineWindowDefault lines, and a limit over fsLineWindowMax is lowered to it', async () => {
    expect((await fileText('big.txt', 1)).text.split('\n')).toHaveLength(200 + 1);
    const capped = await fileText('big.txt', 1, 6_000);
    expect(capped.text.split('\n')).toHaveLength(5_000 + 1);
    const bad = await app.api(`/api/instances/zcode-hub/fs/file?${new URLSearchParams({ sessionId, path: 'big.txt', line: '-3' })}`);
    expect(bad.status).toBe(400);
  });

  it('windows stay confined to the session root', async () => {
    expect((await fileText('../outside.txt', 1, 5)).status).toBe(403);
    expect((await fileText('link.txt', 1, 5)).status).toBe(403);
  });

  it('an allowed origin may read X-Zcode-First-Line (CORS expose-headers)', async () => {
    const q = new URLSearchParams({ sessionId, path: 'big.txt', line: '10', limit: '2' });
    const res = await fetch(`${hub.url}/api/instances/zcode-hub/fs/file?${q}`, {
      headers: { authorization: `Bearer ${app.token}`, origin: PHONE_ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(PHONE_ORIGIN);
    expect(
      res.headers
        .get('access-control-expose-headers')
        ?.toLowerCase()
        .split(/\s*,\s*/),
    ).toContain('x-zcode-first-line');
  });
});
