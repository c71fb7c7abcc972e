/**
 * Entries in `turns/` and `task-outputs/` that carry a record's name but are not regular files —
 * a FIFO, a link to a file of the user's, a directory — are left as they are: never read (a FIFO
 * would block the daemon for good), never written or cut through (a link's target is outside the
 * state dir), never moved or removed. A real daemon, started twice on the dir as a user would:
 * the second start is the one whose look for deleted sessions reads every task output file.
 * The same for the state files of fixed names: a start either runs without touching the planted
 * thing or stops with a sentence naming it — never hangs on it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { idFileName } from '../../src/fs/id-file-name.js';
import { budget, cli, DAEMON, killStarted, ready, start, tempHome, until } from './process-helpers.js';
import { plant, type Planted, type PlantKind } from './plant.js';

afterEach(killStarted);

const legacyName = (id: string, ext: string) => `${Buffer.from(id, 'utf8').toString('base64url')}${ext}`;

describe('planted entries under the names of state files', () => {
  it(
    'are left alone at start and by the look for deleted sessions; the daemon starts, answers and stops',
    async () => {
      const { home, stateDir } = tempHome();
      // A first start on the dir: it records the agent store, so the next start looks for deleted sessions.
      start(home, stateDir);
      await ready(stateDir);
      expect(cli(home, ['stop', '--state-dir', stateDir]).status).toBe(0);

      const turns = path.join(stateDir, 'turns');
      const outputs = path.join(stateDir, 'task-outputs');
      const userFile = (name: string, text: string) => {
        const file = path.join(home, name);
        fs.writeFileSync(file, text);
        return { file, text };
      };
      const victims = [
        userFile('notes.txt', 'first line\nno newline at the end'),
        userFile('record-like.ndjson', '{"t":"open","startedAt":1}\n'),
        userFile('outputs-like.json', '{"version":1,"tasks":[]}'),
      ];
      const planted = {
        fifos: [path.join(turns, idFileName('planted-fifo', '.ndjson')), path.join(outputs, idFileName('planted-fifo', '.json'))],
        links: [
          path.join(turns, idFileName('planted-link', '.ndjson')),
          path.join(turns, legacyName('sess_planted', '.ndjson')),
          path.join(outputs, legacyName('sess_planted', '.json')),
        ],
        dirs: [path.join(turns, idFileName('planted-dir', '.ndjson')), path.join(outputs, idFileName('planted-dir', '.json'))],
      };
      for (const f of planted.fifos) execFileSync('mkfifo', [f]);
      planted.links.forEach((l, i) => fs.symlinkSync(victims[i]!.file, l));
      for (const d of planted.dirs) fs.mkdirSync(d);
      // A session the agent never had: the look forgets it, which shows the look went past the planted entries.
      const gone = path.join(outputs, idFileName('sess_gone', '.json'));
      fs.writeFileSync(gone, JSON.stringify({ version: 1, sessionId: 'sess_gone', tasks: [] }), { mode: 0o600 });

      const daemon = start(home, stateDir);
      await ready(stateDir);
      await until(() => (fs.existsSync(gone) ? undefined : true), 'the look for deleted sessions', budget(1));
      // Still answering after the look.
      await ready(stateDir);
      for (const v of victims) expect(fs.readFileSync(v.file, 'utf8'), v.file).toBe(v.text);
      for (const f of planted.fifos) expect(fs.lstatSync(f).isFIFO(), f).toBe(true);
      for (const l of planted.links) expect(fs.lstatSync(l).isSymbolicLink(), l).toBe(true);
      for (const d of planted.dirs) expect(fs.lstatSync(d).isDirectory(), d).toBe(true);
      // Nothing was moved to the current name of the planted legacy names.
      expect(fs.existsSync(path.join(turns, idFileName('sess_planted', '.ndjson')))).toBe(false);
      expect(fs.existsSync(path.join(outputs, idFileName('sess_planted', '.json')))).toBe(false);
      expect(daemon.output()).toContain('not a regular file');
      expect(cli(home, ['stop', '--state-dir', stateDir]).status).toBe(0);
    },
    budget(2 * DAEMON + 3),
  );

  it(
    'agent-stores.json that is a directory: the daemon starts and answers, and does not look for deleted sessions',
    async () => {
      const { home, stateDir } = tempHome();
      fs.mkdirSync(path.join(stateDir, 'agent-stores.json'), { recursive: true });
      const daemon = start(home, stateDir);
      await ready(stateDir);
      await until(
        () => (daemon.output().includes('agent-stores.json could not be read or written') ? true : undefined),
        'the reason in the log',
      );
      expect(fs.lstatSync(path.join(stateDir, 'agent-stores.json')).isDirectory()).toBe(true);
      expect(cli(home, ['stop', '--state-dir', stateDir]).status).toBe(0);
    },
    budget(DAEMON + 1),
  );

  /**
   * Files a start cannot do without — secrets, identity, an admin's decisions, the lock, the record
   * of who did what, the address the CLI finds the hub by: something else under the name stops the
   * start with a sentence naming the file, what is there and what to do, and the thing stays as it is.
   * One of each kind of thing over the table, one start per case (a refused start is quick).
   */
  const refused: Array<[string, PlantKind]> = [
    ['admin.token', 'fifo'],
    ['jwt.secret', 'dir'],
    ['hub-id', 'link'],
    ['tokens.json', 'fifo'],
    ['policy.json', 'link'],
    ['always-grants.json', 'dir'],
    ['audit.jsonl', 'fifo'],
    ['push-vapid.json', 'link'],
    ['push-subscriptions.json', 'dir'],
    ['peers.json', 'dir'],
    ['machines.json', 'link'],
    ['public-urls.json', 'fifo'],
    ['daemon.lock', 'fifo'],
    ['hub.json', 'dir'],
  ];
  it.each(refused)(
    '%s that is a %s: the start stops with a sentence naming it, and leaves it as it is',
    async (name, kind) => {
      const { home, stateDir } = tempHome();
      fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      const thing = plant(kind, path.join(stateDir, name), home);
      const daemon = start(home, stateDir);
      expect(await daemon.exited).not.toBe(0);
      expect(daemon.output()).toContain(`${path.join(stateDir, name)} is ${thing.found}, not a regular file`);
      expect(daemon.output()).toContain('move it away and start again');
      thing.unchanged();
    },
    budget(DAEMON),
  );

  /**
   * Files the hub keeps as a convenience — marks, authors (and the whole files an earlier version
   * kept them in), the last address: something else under the name counts as no file; the start
   * goes on, says so in the log and leaves the thing alone. Every kind of thing under every name,
   * five names per start.
   */
  const cacheNames = ['session-marks.ndjson', 'authors.ndjson', 'last-address.json', 'session-marks.json', 'authors.json'];
  const kindsInTurn: PlantKind[] = ['fifo', 'dir', 'link'];
  const rotations: PlantKind[][] = kindsInTurn.map((_, r) => cacheNames.map((_, i) => kindsInTurn[(i + r) % kindsInTurn.length]!));
  it.each(rotations)(
    'marks, authors, last address, old marks and old authors as %s, %s, %s, %s, %s: the daemon starts, answers, logs each and stops',
    async (...kinds) => {
      const { home, stateDir } = tempHome();
      fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      const things: Planted[] = cacheNames.map((name, i) => plant(kinds[i]!, path.join(stateDir, name), home));
      const daemon = start(home, stateDir);
      await ready(stateDir);
      for (const [i, name] of cacheNames.entries()) {
        const sentence = `${path.join(stateDir, name)} is ${things[i]!.found}, not a regular file`;
        await until(() => (daemon.output().includes(sentence) ? true : undefined), `the log to name ${name}`);
      }
      expect(cli(home, ['stop', '--state-dir', stateDir]).status).toBe(0);
      expect(await daemon.exited).toBe(0);
      for (const t of things) t.unchanged();
    },
    budget(DAEMON + 1),
  );

  /** The editor bridge's own files, when it starts a daemon: the same refusal, from `zcode-hub acp`. */
  it.each([
    ['acp-start.lock', 'fifo'],
    ['daemon.log', 'fifo'],
    ['daemon.log', 'link'],
  ] as Array<[string, PlantKind]>)(
    '%s that is a %s: `zcode-hub acp` stops with the sentence and leaves it as it is',
    (name, kind) => {
      const { home, stateDir } = tempHome();
      fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      const thing = plant(kind, path.join(stateDir, name), home);
      const run = cli(home, ['acp', '--state-dir', stateDir]);
      expect(run.status).toBe(1);
      expect(run.stdout + run.stderr).toContain(`${path.join(stateDir, name)} is ${thing.found}, not a regular file`);
      thing.unchanged();
    },
    budget(1),
  );
});
