import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { conformanceSuite } from '../support/conformance-walk.js';

/**
 * ACP over the `zcode-hub acp` stdio bridge, as an editor runs it (one child per client, finding
 * the hub through its state directory): the conformance walk (test/support/conformance-walk.ts)
 * for every scenario.
 */

const bin = path.resolve(import.meta.dirname, '..', '..', 'bin', 'zcode-hub.js');
const bridges: ChildProcess[] = [];

conformanceSuite(
  'the stdio bridge',
  async (hub) => {
    const env = { ...process.env, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'warn' };
    const bridge = spawn(process.execPath, [bin, 'acp', '--state-dir', hub.stateDir], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    bridges.push(bridge);
    return ndJsonStream(
      Writable.toWeb(bridge.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(bridge.stdout!) as ReadableStream<Uint8Array>,
    );
  },
  // A bridge holds its connection (a place in the token's connection cap) until it ends.
  () => {
    for (const b of bridges.splice(0)) b.kill();
  },
);
