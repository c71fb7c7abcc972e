import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * What the write batcher builds for a turn (src/gateway/write-batch.ts) dies young: once a
 * turn's batches are written nothing old points at its frames, so the scavenges free them
 * rather than promote them, even after one turn long enough for the batcher's own state to grow
 * old. Run in a child process with a 1 MiB young generation (the daemon runs with 2), where the
 * garbage collector's figures are the batcher's alone.
 */

const DRIVER = fileURLToPath(new URL('./fixtures/join-promotion.ts', import.meta.url));
const resultSchema = z.object({ promoted: z.number(), frameBytes: z.number(), scavenges: z.number(), written: z.number() });

function drive(turns: number): Promise<z.infer<typeof resultSchema>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-semi-space-size=1', '--import', 'tsx', DRIVER, String(turns)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the driver exited ${code}: ${err}`));
      else resolve(resultSchema.parse(JSON.parse(out)));
    });
  });
}

describe('write batching and the garbage collector', () => {
  it("promotes next to nothing of the turns' joined frames", async () => {
    const r = await drive(3000);
    // The turns did run through the joins and the collector (a scavenge per ~100 turns here).
    expect(r.written).toBeGreaterThan(r.frameBytes);
    expect(r.scavenges).toBeGreaterThan(10);
    // Promoted: about 10 KB. With the map kept and cleared, more than the frames' own bytes.
    expect(r.promoted).toBeLessThan(r.frameBytes / 20);
  }, 60_000);
});
