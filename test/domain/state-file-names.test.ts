/**
 * Session ids become file names in `turns/` and `task-outputs/` through one mapping
 * (src/fs/id-file-name.ts). Any id the hub accepts — up to SESSION_ID_MAX_CHARS characters of
 * any kind — gets a short, lowercase name, is written, found again by a new store on the same
 * directory (a restart), and removed with its session; two ids never share a name, not even on a
 * case-insensitive file system. Files an earlier version wrote under `base64url(id)` are moved
 * to the current name at start and found under their id.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TaskOutputFiles } from '../../src/domain/prompts/task-output-files.js';
import type { KeptTask } from '../../src/domain/prompts/task-outputs.js';
import { TurnRecords } from '../../src/domain/prompts/turn-record.js';
import { idFileName, legacyIdOf } from '../../src/fs/id-file-name.js';
import { LIMITS } from '../../src/limits.js';
import { createLogger } from '../../src/logger.js';
import { SESSION_ID_MAX_CHARS } from '../../src/zcode-ext/requests.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempDir(name: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-idnames-'));
  dirs.push(d);
  return path.join(d, name);
}

/** A logger whose warnings are kept (an ENAMETOOLONG shows up as one). */
function capture() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = createLogger({ level: 'info', destination: { write: (s: string) => lines.push(JSON.parse(s)) } });
  return { logger, warnings: () => lines.filter((l) => l.level >= 40) };
}

const max = SESSION_ID_MAX_CHARS;
/** Ids a client may name or an agent may hand out: the longest, multi-byte, path-like, NUL, case-only apart. */
const HOSTILE = [
  'a'.repeat(max),
  '€'.repeat(max),
  '𝄞'.repeat(max / 2),
  `${'b'.repeat(max - 1)}/`,
  '../../etc/passwd',
  '..',
  '/',
  'nul\u0000inside',
  'sess_ABC',
  'sess_abc',
  'Sess_abc',
  '\ud800',
  '\udbff',
  'e\u0301',
  '\u00e9',
];
const task = (id: string): KeptTask => ({
  toolCallId: id,
  output: `out of ${id}`,
  trimmed: false,
  status: 'completed',
  task: { taskId: 't' },
});
const frame = (text: string) =>
  JSON.stringify({
    method: 'session/update',
    params: { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
  });

describe('file names made from session ids', () => {
  it('are 64 lowercase hex characters and the extension, distinct for distinct ids even ignoring case, the same in every run', () => {
    const names = HOSTILE.map((id) => idFileName(id, '.ndjson'));
    for (const name of names) expect(name).toMatch(/^[0-9a-f]{64}\.ndjson$/);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(HOSTILE.length);
    // Fixed: a restart (or another version of Node) names the same file (SHA-256 of the UTF-16LE code units, computed apart).
    expect(idFileName('sess_1', '.json')).toBe('8aaee0b7331f24a03701a2db60409670a9bf80042b228576aa45e1db0095c54f.json');
  });

  it('keep task output of every hostile id across a restart, and remove it with its session', async () => {
    const dir = tempDir('task-outputs');
    const { logger, warnings } = capture();
    const limits = { maxChars: 100, maxTasks: 4, flushMs: 3_600_000 };
    const first = new TaskOutputFiles(dir, limits, logger);
    for (const id of HOSTILE) first.changed(id, { snapshot: () => [task(id)] });
    await first.close();
    expect(fs.readdirSync(dir)).toHaveLength(HOSTILE.length);

    const again = new TaskOutputFiles(dir, limits, logger);
    expect(again.storedSessionIds().sort()).toEqual([...HOSTILE].sort());
    for (const id of HOSTILE) expect(again.load(id)).toEqual([task(id)]);
    // Deleting sessions the hub never kept anything for, the longest included.
    for (const id of ['z'.repeat(max), '字'.repeat(max)]) again.drop(id);
    for (const id of HOSTILE) again.drop(id);
    await again.settled();
    await again.close();
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it('keep the running-turn record of every hostile id across a restart, and forget it with its session', async () => {
    const dir = tempDir('turns');
    const { logger, warnings } = capture();
    const limits = { turnRecordMaxBytes: LIMITS.turnRecordMaxBytes, turnRecordFlushMs: 5 };
    const first = new TurnRecords(dir, limits, logger);
    HOSTILE.forEach((id, i) => {
      first.open(id, i + 1);
      first.turn(id, 'run');
      first.frame(id, frame(`said in ${i}`), Buffer.byteLength(frame(`said in ${i}`)));
    });
    await first.close();
    expect(fs.readdirSync(dir)).toHaveLength(HOSTILE.length);

    const again = new TurnRecords(dir, limits, logger);
    const restored = again.loadAll();
    expect([...restored.keys()].sort()).toEqual([...HOSTILE].sort());
    HOSTILE.forEach((id, i) => {
      const turn = restored.get(id);
      expect(turn?.startedAt).toBe(i + 1);
      expect(turn?.running).toBe(true);
      expect(turn?.bytes).toBe(fs.statSync(path.join(dir, idFileName(id, '.ndjson'))).size);
    });
    for (const id of ['z'.repeat(max), '字'.repeat(max), ...HOSTILE]) again.forget(id);
    await again.settled();
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it("move an earlier version's files to their current names at start, and find them under their ids", async () => {
    const turns = tempDir('turns');
    const outputs = path.join(path.dirname(turns), 'task-outputs');
    fs.mkdirSync(turns);
    fs.mkdirSync(outputs);
    const legacy = (id: string, ext: string) => `${Buffer.from(id, 'utf8').toString('base64url')}${ext}`;
    const ids = ['sess_old', 'ünïcode/../x'];
    for (const id of ids) {
      fs.writeFileSync(path.join(turns, legacy(id, '.ndjson')), `{"t":"open","startedAt":5}\n{"t":"run"}\n${frame(`old ${id}`)}\n`, {
        mode: 0o600,
      });
      fs.writeFileSync(path.join(outputs, legacy(id, '.json')), JSON.stringify({ version: 1, tasks: [task(id)] }), { mode: 0o600 });
    }
    // An old file beside a current one of the same session: the current one wins.
    fs.writeFileSync(path.join(outputs, legacy('both', '.json')), JSON.stringify({ version: 1, tasks: [task('old')] }));
    const current = new TaskOutputFiles(outputs, { maxChars: 100, maxTasks: 4, flushMs: 3_600_000 }, createLogger({ level: 'silent' }));
    // Written through a store that does not move anything yet (the old file was planted after it started).
    current.changed('both', { snapshot: () => [task('new')] });
    await current.close();
    // Not an old name: a name that does not decode to an id, a user's file.
    fs.writeFileSync(path.join(outputs, 'notes.json'), '{"mine":true}');
    // An old name whose content does not read: left as it is.
    fs.writeFileSync(path.join(outputs, legacy('torn', '.json')), '{"version":1,"ta');

    const { logger } = capture();
    const records = new TurnRecords(turns, { turnRecordMaxBytes: LIMITS.turnRecordMaxBytes, turnRecordFlushMs: 5 }, logger);
    const restored = records.loadAll();
    const files = new TaskOutputFiles(outputs, { maxChars: 100, maxTasks: 4, flushMs: 3_600_000 }, logger);
    for (const id of ids) {
      expect(restored.get(id)?.startedAt).toBe(5);
      expect(restored.get(id)?.running).toBe(true);
      expect(restored.get(id)?.updates).toHaveLength(1);
      expect(files.load(id)).toEqual([task(id)]);
    }
    expect(files.load('both')).toEqual([task('new')]);
    expect(fs.readdirSync(turns).sort()).toEqual(ids.map((id) => idFileName(id, '.ndjson')).sort());
    expect(fs.readdirSync(outputs).sort()).toEqual(
      [...[...ids, 'both'].map((id) => idFileName(id, '.json')), 'notes.json', legacy('torn', '.json')].sort(),
    );
    expect(files.storedSessionIds().sort()).toEqual([...ids, 'both'].sort());
    // A moved record is continued in its new file after the restart.
    records.resume('sess_old', restored.get('sess_old')?.bytes ?? 0);
    records.frame('sess_old', frame('after the upgrade'), 60);
    await records.close();
    const again = new TurnRecords(turns, { turnRecordMaxBytes: LIMITS.turnRecordMaxBytes, turnRecordFlushMs: 5 }, logger);
    expect(again.loadAll().get('sess_old')?.updates).toHaveLength(2);
    await files.close();
  });

  it('read an old name back only when it is the canonical encoding of an id', () => {
    expect(legacyIdOf(`${Buffer.from('s1').toString('base64url')}.json`, '.json')).toBe('s1');
    expect(legacyIdOf('_w.json', '.json')).toBeUndefined();
    expect(legacyIdOf('notes.json', '.json')).toBeUndefined();
    expect(legacyIdOf('czE.ndjson', '.json')).toBeUndefined();
    expect(legacyIdOf(idFileName('s1', '.json'), '.json')).toBeUndefined();
  });
});
