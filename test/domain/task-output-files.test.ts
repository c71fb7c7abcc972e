import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { idFileName } from '../../src/fs/id-file-name.js';
import { TaskOutputFiles } from '../../src/domain/prompts/task-output-files.js';
import { TaskOutputs, type KeptTask } from '../../src/domain/prompts/task-outputs.js';
import { until } from '../helpers/until.js';

const logger = createLogger({ level: 'silent' });
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-taskfiles-'));
  dirs.push(d);
  return path.join(d, 'task-outputs');
}
const task = (id: string, output: string): KeptTask => ({
  toolCallId: id,
  output,
  trimmed: false,
  status: 'in_progress',
  task: { taskId: `t-${id}`, status: 'running' },
});
const jsonFiles = (dir: string) => fs.readdirSync(dir).filter((n) => n.endsWith('.json'));

describe('TaskOutputFiles (kept task output in the state dir)', () => {
  it('names the sessions that have a file, and no file whose id inside does not give its name back', async () => {
    const dir = tempDir();
    const files = new TaskOutputFiles(dir, { maxChars: 100, maxTasks: 4, flushMs: 3_600_000 }, logger);
    for (const id of ['sess_1', 'sess/ä 2']) files.changed(id, { snapshot: () => [task('a', 'out')] });
    await files.close();
    // Not ours: another id inside, no id inside, not JSON, a temp file's name, another extension.
    fs.writeFileSync(path.join(dir, idFileName('other', '.json')), JSON.stringify({ version: 1, sessionId: 'sess_1', tasks: [] }));
    fs.writeFileSync(path.join(dir, idFileName('bare', '.json')), JSON.stringify({ version: 1, tasks: [] }));
    fs.writeFileSync(path.join(dir, idFileName('torn', '.json')), '{"version":1,"sess');
    fs.writeFileSync(path.join(dir, `.${idFileName('sess_1', '.json')}.1.0a0b0c0d.tmp`), '{}');
    fs.writeFileSync(path.join(dir, `${idFileName('sess_1', '.txt')}`), '{}');
    expect(files.storedSessionIds().sort()).toEqual(['sess/ä 2', 'sess_1']);
  });

  it('batches many changes into one write per interval, 0600, and reads them back', async () => {
    const dir = tempDir();
    // An interval no test run reaches: nothing is written until close.
    const files = new TaskOutputFiles(dir, { maxChars: 100, maxTasks: 4, flushMs: 3_600_000 }, logger);
    let reads = 0;
    let kept: KeptTask[] = [];
    for (let i = 0; i < 500; i++) {
      kept = [task('a', `chunk ${i}`)];
      files.changed('s1', {
        snapshot: () => {
          reads += 1;
          return kept;
        },
      });
    }
    expect(jsonFiles(dir)).toEqual([]);
    await files.close();
    expect(reads).toBe(1);
    const [name] = jsonFiles(dir);
    expect(fs.statSync(path.join(dir, name as string)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const again = new TaskOutputFiles(dir, { maxChars: 100, maxTasks: 4, flushMs: 10 }, logger);
    expect(again.load('s1')).toEqual([task('a', 'chunk 499')]);
    expect(again.load('unknown')).toEqual([]);
    await again.close();
  });

  it('writes in the background after the interval, and removes the file with its session', async () => {
    const dir = tempDir();
    const files = new TaskOutputFiles(dir, { maxChars: 100, maxTasks: 4, flushMs: 5 }, logger);
    files.changed('s1', { snapshot: () => [task('a', 'hello')] });
    await until(() => (jsonFiles(dir).length === 1 ? true : undefined), 'the batched write');
    await files.settled();
    expect(files.load('s1')).toEqual([task('a', 'hello')]);
    files.changed('s1', { snapshot: () => [task('a', 'hello again')] });
    files.drop('s1');
    await files.settled();
    await files.close();
    expect(jsonFiles(dir)).toEqual([]);
  });

  it('restores a session from its file (running tasks ended as interrupted) and writes that back', async () => {
    const dir = tempDir();
    const limits = { maxChars: 100, maxTasks: 4, flushMs: 3_600_000 };
    const first = new TaskOutputFiles(dir, limits, logger);
    first.changed('s1', { snapshot: () => [task('a', 'hello')] });
    await first.close();
    const again = new TaskOutputFiles(dir, limits, logger);
    const outputs = new TaskOutputs({ maxChars: 100, maxTasks: 4 });
    again.restore('s1', outputs);
    again.restore('nothing-kept', new TaskOutputs({ maxChars: 100, maxTasks: 4 }));
    expect(outputs.snapshot()).toEqual([{ ...task('a', 'hello'), status: 'failed', task: { taskId: 't-a', status: 'interrupted' } }]);
    await again.close();
    expect(new TaskOutputFiles(dir, limits, logger).load('s1')).toEqual(outputs.snapshot());
    expect(jsonFiles(dir)).toHaveLength(1);
  });

  it('skips an unreadable file, removes one past its bound, keeps the newest taskOutputsMax tasks, and clears stale temp files', async () => {
    const dir = tempDir();
    const limits = { maxChars: 10, maxTasks: 2, flushMs: 5 };
    fs.mkdirSync(dir, { recursive: true });
    const fileOf = (s: string) => path.join(dir, idFileName(s, '.json'));
    fs.writeFileSync(fileOf('broken'), '{not json');
    fs.writeFileSync(fileOf('huge'), 'x'.repeat(2 * 10 * 6 + 64 * 1024 + 1));
    const three = [task('a', 'A'), task('b', 'B'), { ...task('c', 'C'), status: 'nonsense' }, task('d', 'D')];
    fs.writeFileSync(fileOf('many'), JSON.stringify({ version: 1, sessionId: 'many', tasks: three }));
    const files = new TaskOutputFiles(dir, limits, logger);
    expect(files.load('broken')).toEqual([]);
    expect(files.load('huge')).toEqual([]);
    expect(fs.existsSync(fileOf('huge'))).toBe(false);
    // The last two entries; the malformed one among them is skipped.
    expect(files.load('many')).toEqual([task('d', 'D')]);
    await files.close();
  });
});
