import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import type { HubHarness } from '../helpers/hub-harness.js';
import { conformanceSuite } from '../support/conformance-walk.js';

/**
 * ACP over the `zcode-hub acp` stdio bridge, as an editor runs it (one child per client, finding
 * the hub through its state directory): the conformance walk (test/support/conformance-walk.ts)
 * for every scenario. Each client still gets a bridge process of its own; the next few are
 * started ahead while a walk runs, so a walk does not wait for a process to start three times.
 */

const bin = path.resolve(import.meta.dirname, '..', '..', 'bin', 'zcode-hub.js');
/** Bridges handed to a walk (ended after each scenario) and bridges started ahead, not yet used. */
const used: ChildProcess[] = [];
const ahead: ChildProcess[] = [];
/** One walk opens three clients (prompter, watcher, loader). */
const AHEAD = 3;

function startBridge(hub: HubHarness): ChildProcess {
  const env = { ...process.env, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'warn' };
  return spawn(process.execPath, [bin, 'acp', '--state-dir', hub.stateDir], { env, stdio: ['pipe', 'pipe', 'ignore'] });
}

conformanceSuite(
  'the stdio bridge',
  async (hub) => {
    const bridge = ahead.shift() ?? startBridge(hub);
    while (ahead.length < AHEAD) ahead.push(startBridge(hub));
    used.push(bridge);
    const { readable, writable } = ndJsonStream(
      Writable.toWeb(bridge.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(bridge.stdout!) as ReadableStream<Uint8Array>,
    );
    // The SDK's ndjson writable has no close of its own: closing it would leave the bridge's
    // stdin open, so a client "leaving" would not end its connection (and the walk would wait
    // its cap for the bridge's stdout to end). An editor that is done closes the bridge's stdin.
    const writer = writable.getWriter();
    const ended = new Promise<void>((resolve) => bridge.stdin!.once('close', resolve));
    return {
      readable,
      writable: new WritableStream({
        write: (message) => writer.write(message),
        close: async () => {
          await writer.close();
          bridge.stdin!.end();
          await ended;
        },
      }),
    };
  },
  // A bridge holds its connection (a place in the token's connection cap) until it ends.
  () => {
    for (const b of used.splice(0)) b.kill();
  },
  // Bridges started ahead and never used end before the hub does: a bridge that finds no daemon
  // starts one (writing into the state dir while it is being removed).
  async () => {
    await Promise.all(
      ahead.splice(0).map((b) => {
        const exited = new Promise((resolve) => b.once('exit', resolve));
        b.kill();
        return b.exitCode === null && b.signalCode === null ? exited : undefined;
      }),
    );
  },
);
