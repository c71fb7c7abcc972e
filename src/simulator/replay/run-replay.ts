import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { LineReader } from '../framing.js';
import { EOF_DRAIN_MS } from '../process-main.js';
import { createSimLogger } from '../sim-log.js';
import { ReplayPlayer } from './replay-player.js';
import { readReplayScript } from './replay-script.js';

export interface RunReplayOptions {
  /** The recording (`--record-wire` output). */
  file: string;
  /** `--replay-time-scale`: 1 keeps the recorded pacing, 0 writes each group at once. */
  timeScale: number;
  logLevel: string;
  input: Readable;
  output: Writable;
}

/**
 * Replays a recording on one pair of streams until stdin ends (docs/APP-SERVER.md §15.4).
 * Throws when the file cannot be read or is not a recording.
 */
export function runReplay(run: RunReplayOptions): Promise<void> {
  const script = readReplayScript(fs.readFileSync(run.file, 'utf8'));
  const log = createSimLogger(run.logLevel);
  const player = new ReplayPlayer(script, (m) => run.output.write(`${JSON.stringify(m)}\n`), run.timeScale, log);
  log.info({ file: run.file, cues: script.cues.length }, 'zcode simulator replaying a recording');
  return new Promise((resolve) => {
    new LineReader(
      run.input,
      (line) => player.handleLine(line),
      () => {
        // §1.1: after stdin EOF the child still finishes what is due for EOF_DRAIN_MS.
        setTimeout(() => {
          player.close();
          resolve();
        }, EOF_DRAIN_MS);
      },
    ).start();
  });
}
