/**
 * `zcode-hub sim --replay FILE` as a child process on its own: what it does where the live
 * hub and the recording part ways, and with a file that is not a recording.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { simulatorSpawnSpec } from '../../src/simulator/launcher.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function recording(lines: object[] | string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-replay-unit-'));
  dirs.push(dir);
  const file = path.join(dir, 'wire.ndjson');
  fs.writeFileSync(file, typeof lines === 'string' ? lines : lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return file;
}

/** Runs the replayer with `input` on stdin until it exits; its stdout lines parsed. `timeScale` 0: each group at once. */
function replay(
  file: string,
  input: object[],
  timeScale = 0,
): { status: number | null; out: Array<Record<string, unknown>>; stderr: string } {
  const spec = simulatorSpawnSpec(['--replay', file, '--replay-time-scale', String(timeScale), '--log-level', 'silent']);
  const r = spawnSync(spec.command, spec.args, {
    input: input.map((m) => `${JSON.stringify(m)}\n`).join(''),
    encoding: 'utf8',
    timeout: 30_000,
  });
  const out = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: r.status, out, stderr: r.stderr };
}

const recorded = [
  { dir: 'meta', t: 0, event: 'start', format: 1 },
  { dir: 'meta', t: 0, event: 'spawn' },
  { dir: 'out', t: 1, msg: { id: 1, method: 'runtime/capabilities' } },
  { dir: 'in', t: 2, msg: { id: 1, result: { independentPlanState: true } } },
  {
    dir: 'out',
    t: 3,
    msg: { id: 2, method: 'session/list', params: { workspace: { workspacePath: '/old/ws', workspaceKey: '/old/ws' } } },
  },
  { dir: 'in', t: 4, msg: { id: 2, result: { sessions: [{ sessionId: 'sess_1', workspace: { workspacePath: '/old/ws' } }] } } },
  { dir: 'meta', t: 5, event: 'exit', code: 0, signal: null },
  { dir: 'out', t: 6, msg: { id: 3, method: 'session/list' } },
];

describe('sim --replay', () => {
  it('answers by method and order under the live ids, maps the recorded workspace onto the live one, and refuses what the recording lacks', () => {
    const r = replay(recording(recorded), [
      { id: 'a', method: 'runtime/capabilities' },
      { id: 'b', method: 'session/list', params: { workspace: { workspacePath: '/new/ws', workspaceKey: '/new/ws' } } },
      { id: 'c', method: 'session/list', params: {} },
    ]);
    expect(r.status).toBe(0);
    expect(r.out).toEqual([
      { id: 'a', result: { independentPlanState: true } },
      { id: 'b', result: { sessions: [{ sessionId: 'sess_1', workspace: { workspacePath: '/new/ws' } }] } },
      // The third list is after the recorded child's exit: not part of the replay.
      { id: 'c', error: { code: -32603, message: 'replay: the recording has no further session/list request' } },
    ]);
  });

  it("a response recorded after the hub's next request still answers a hub that waits for it", () => {
    // Live, the hub sent session/list before capabilities were answered; this hub sends only capabilities.
    const r = replay(
      recording([
        { dir: 'meta', t: 0, event: 'start', format: 1 },
        { dir: 'out', t: 1, msg: { id: 1, method: 'runtime/capabilities' } },
        { dir: 'out', t: 2, msg: { id: 2, method: 'session/list', params: {} } },
        { dir: 'in', t: 3, msg: { id: 1, result: { independentPlanState: true } } },
        { dir: 'in', t: 4, msg: { id: 2, result: { sessions: [] } } },
      ]),
      [{ id: 'a', method: 'runtime/capabilities' }],
    );
    expect(r.out).toEqual([{ id: 'a', result: { independentPlanState: true } }]);
  });

  it("a request sent sooner than the recording's keeps the child's order: what was written before it comes first", () => {
    // Recorded: a prompt's stream wrote two events before the hub's stop, the stop's answer group a third.
    // Live, the stop comes at once (both requests in one read), with the recorded pacing kept: the stop's
    // group, 1 ms after its cue, must not overtake the prompt's events 20 and 60 ms after theirs.
    const event = (seq: number) => ({ method: 'session/event', params: { sessionId: 's', seq } });
    const r = replay(
      recording([
        { dir: 'meta', t: 0, event: 'start', format: 1 },
        { dir: 'out', t: 1, msg: { id: 1, method: 'session/send', params: { sessionId: 's' } } },
        { dir: 'in', t: 2, msg: { id: 1, result: {} } },
        { dir: 'in', t: 20, msg: event(1) },
        { dir: 'in', t: 60, msg: event(2) },
        { dir: 'out', t: 100, msg: { id: 2, method: 'session/stop', params: { sessionId: 's' } } },
        { dir: 'in', t: 101, msg: event(3) },
        { dir: 'in', t: 102, msg: { id: 2, result: {} } },
      ]),
      [
        { id: 'a', method: 'session/send', params: { sessionId: 's' } },
        { id: 'b', method: 'session/stop', params: { sessionId: 's' } },
      ],
      1,
    );
    expect(r.out).toEqual([{ id: 'a', result: {} }, event(1), event(2), event(3), { id: 'b', result: {} }]);
  });

  it('a file that is not a recording exits 2 naming the line', () => {
    const r = replay(recording('{"dir":"meta","t":0,"event":"start"}\nnot json\n'), []);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--replay .*wire\.ndjson: line 2: not JSON/);
    expect(replay(path.join(os.tmpdir(), 'zch-no-such-recording.ndjson'), []).stderr).toMatch(/ENOENT/);
  });
});
