import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPolicyCli } from '../../src/cli/policy.js';
import { collector } from '../helpers/cli-io.js';

/**
 * `zcode-hub policy set FILE` with a file that is not a rules file: one sentence naming the file
 * and what is wrong (the line and column of a JSON error when V8 gives a position), exit 2, before
 * any hub is looked for — so no daemon runs here, and the answer is the same with one.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-set-file-'));
const stateDir = path.join(dir, 'state');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function fileWith(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function set(file: string): Promise<{ code: number; out: string; err: string }> {
  const io = collector();
  const code = await runPolicyCli(['set', file, '--state-dir', stateDir], io);
  return { code, out: io.out(), err: io.err() };
}

describe('zcode-hub policy set with a file that holds no rules', () => {
  it('JSON with a syntax error: the file, "not valid JSON" and where, exit 2', async () => {
    const file = fileWith('trailing-comma.json', '{\n "rules": [],\n}');
    expect(await set(file)).toEqual({ code: 2, out: '', err: `zcode-hub policy set: ${file} is not valid JSON (line 3, column 1)\n` });
  });

  it('not JSON at all (YAML): the file and "not valid JSON", never the text itself', async () => {
    const file = fileWith('rules.yaml', 'rules:\n  - id: secret-looking-text\n');
    const r = await set(file);
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toMatch(
      new RegExp(
        `^zcode-hub policy set: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON( \\(line \\d+, column \\d+\\))?\\n$`,
      ),
    );
    expect(r.err).not.toContain('secret-looking-text');
  });

  it('a file that is not there, and a folder: cannot read it, and why', async () => {
    const missing = path.join(dir, 'nope.json');
    expect(await set(missing)).toEqual({ code: 2, out: '', err: `zcode-hub policy set: cannot read ${missing}: there is no such file\n` });
    expect(await set(dir)).toEqual({ code: 2, out: '', err: `zcode-hub policy set: cannot read ${dir}: it is a folder\n` });
  });

  it('JSON of another shape: what the file must hold instead', async () => {
    const file = fileWith('other.json', '{"policy": []}');
    expect(await set(file)).toEqual({
      code: 2,
      out: '',
      err: `zcode-hub policy set: ${file} holds no rules: give a JSON list of rules, or {"rules": [...]} (docs/policy.example.json)\n`,
    });
  });

  it('a good file goes on to look for the hub (none runs here: exit 1, as before)', async () => {
    const file = fileWith('good.json', '[]');
    expect(await set(file)).toEqual({
      code: 1,
      out: '',
      err: 'zcode-hub policy: no running hub for this state dir (start it with zcode-hub start)\n',
    });
  });
});
