/**
 * Recordings become tests (docs/APP-SERVER.md §15.4): a session recorded with `--record-wire`
 * against the simulator, replayed by `zcode-hub sim --replay` as the hub's real child, gives
 * an ACP client the same stream of updates as the live run did. The recordings in
 * test/fixtures/recordings/ replay here on every run; `ZCODE_HUB_UPDATE_RECORDINGS=1` records
 * them again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

const RECORDINGS = path.resolve(import.meta.dirname, '..', 'fixtures', 'recordings');
const hubs: HubHarness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const HUB_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

interface Update {
  sessionId: string;
  update: Record<string, unknown>;
}

/**
 * What a client sees of one prompt: the stop reason and every update of the session until the
 * prompt's answer, its workspace written `$WORKSPACE` (each hub has its own; the replayer maps
 * the recorded one onto the live one) and the ids the hub itself mints (prompt and client ids,
 * UUIDs) written `$HUB_ID`: neither comes from the child.
 */
async function promptOnce(hub: HubHarness, text: string): Promise<{ stopReason: string; updates: unknown[] }> {
  const c = await hub.initializedClient({ name: 'replayed' });
  const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
  // A failed turn answers the prompt with an error: that is part of what the client sees.
  const answer = await c.requestRaw('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  const stopReason = answer.error
    ? `error ${answer.error.code}: ${answer.error.message}`
    : String((answer.result as { stopReason?: unknown }).stopReason);
  const updates = c
    .notifications<Update>('session/update')
    .filter((u) => u.sessionId === sessionId)
    .map((u) => u.update);
  const seen = JSON.stringify({ stopReason, updates }).split(hub.workspace).join('$WORKSPACE').replace(HUB_ID, '$HUB_ID');
  return JSON.parse(seen) as { stopReason: string; updates: unknown[] };
}

async function live(text: string, file: string): Promise<{ stopReason: string; updates: unknown[] }> {
  const hub = await startHub({ config: { recordWire: file }, simArgs: ['--turn-delay-scale', '0.2'] });
  hubs.push(hub);
  const seen = await promptOnce(hub, text);
  await hub.close();
  return seen;
}

async function replayed(text: string, file: string): Promise<{ stopReason: string; updates: unknown[] }> {
  // The recorded pacing as it was: the hub sees the turn unfold as it did live.
  const hub = await startHub({ simArgs: ['--replay', file] });
  hubs.push(hub);
  return promptOnce(hub, text);
}

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-replay-'));
  dirs.push(dir);
  return path.join(dir, 'wire.ndjson');
}

/** The prompt a recording was made with: the text of its first `session/send`. */
function recordedPrompt(file: string): string {
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"session/send"')) continue;
    const { msg } = JSON.parse(line) as { msg?: { method?: string; params?: { content?: unknown } } };
    if (msg?.method === 'session/send' && typeof msg.params?.content === 'string') return msg.params.content;
  }
  throw new Error(`${file} holds no session/send with a text content`);
}

/**
 * The fixtures: every `<name>.ndjson` of the directory beside its `<name>.updates.json` (a
 * client's view) — a recording added there runs without touching this file. A probe recording
 * has `<name>.rows.json` instead and runs in test/doctor/probe.test.ts.
 */
const FIXTURES = fs
  .readdirSync(RECORDINGS)
  .filter((f) => f.endsWith('.updates.json'))
  .map((f) => f.slice(0, -'.updates.json'.length))
  .sort()
  .map((name) => ({ name, prompt: recordedPrompt(path.join(RECORDINGS, `${name}.ndjson`)) }));

describe('sim --replay', () => {
  it('every recording in test/fixtures/recordings/ has the stream or the rows it must replay to', () => {
    const names = fs.readdirSync(RECORDINGS);
    const orphans = names
      .filter((f) => f.endsWith('.ndjson'))
      .map((f) => f.slice(0, -'.ndjson'.length))
      .filter((n) => !names.includes(`${n}.updates.json`) && !names.includes(`${n}.rows.json`));
    expect(orphans).toEqual([]);
    expect(FIXTURES.map((f) => f.name)).toEqual(expect.arrayContaining(['answer', 'fail', 'todo']));
  });

  it('a live simulator session and its replay give the client the same updates', async () => {
    const file = tempFile();
    const recorded = await live('hello there', file);
    expect(recorded.updates.length).toBeGreaterThan(3);
    expect(await replayed('hello there', file)).toEqual(recorded);
  });

  for (const f of FIXTURES) {
    it(`test/fixtures/recordings/${f.name}.ndjson replays to its recorded updates`, async () => {
      const file = path.join(RECORDINGS, `${f.name}.ndjson`);
      const expected = path.join(RECORDINGS, `${f.name}.updates.json`);
      if (process.env.ZCODE_HUB_UPDATE_RECORDINGS === '1') {
        const seen = await live(f.prompt, file);
        fs.writeFileSync(expected, `${JSON.stringify(seen, null, 2)}\n`);
      }
      expect(await replayed(f.prompt, file)).toEqual(JSON.parse(fs.readFileSync(expected, 'utf8')));
    });
  }
});
