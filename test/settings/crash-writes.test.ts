/**
 * CFG-01: a writer *process* is SIGKILLed at random points while it writes the provider file
 * through the store. After every kill the file parses, validates, is canonical, and is either
 * the last version the writer finished or the one it was writing; the next start removes the
 * dead writer's temp files and the next writer reclaims its lock. 30 kills by default, 200 with
 * RUN_FAULTS=1.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderStore } from '../../src/settings/provider-store.js';
import { encodeProviderDocument, validateProviderDocument } from '../../src/settings/provider-schema.js';

const WRITER = fileURLToPath(new URL('./fixtures/provider-writer.ts', import.meta.url));
const KILLS = process.env.RUN_FAULTS === '1' ? 200 : 30;

interface Progress {
  done: number;
  attempt: number;
}

/**
 * Runs one writer; kills it `killAfterMs` after it is ready — or after its first finished write
 * (`from: 'first-done'`), so some runs always complete writes however slow the machine — or lets
 * a `once` run finish.
 */
function runWriter(
  filePath: string,
  first: number,
  killAfterMs: number | 'once',
  from: 'ready' | 'first-done' = 'ready',
): Promise<Progress> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', WRITER, filePath, String(first), ...(killAfterMs === 'once' ? ['once'] : [])],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const progress: Progress = { done: first - 1, attempt: first - 1 };
    let buffered = '';
    let stderr = '';
    let killArmed = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const [word, n] = line.split(' ');
        if (killAfterMs !== 'once' && !killArmed && (from === 'ready' ? line === 'ready' : word === 'done')) {
          killArmed = true;
          setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        }
        if (word === 'attempt') progress.attempt = Number(n);
        if (word === 'done') progress.done = Number(n);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (killAfterMs === 'once' && code !== 0) reject(new Error(`writer exited ${code}: ${stderr}`));
      else if (killAfterMs !== 'once' && signal !== 'SIGKILL')
        reject(new Error(`writer ended without the kill (${code}/${signal}): ${stderr}`));
      else resolve(progress);
    });
  });
}

describe('provider file under SIGKILL', () => {
  let dir: string;
  let filePath: string;

  beforeAll(async () => {
    process.umask(0o022);
    dir = await mkdtemp(join(tmpdir(), 'hub-cfg01-'));
    filePath = join(dir, 'provider_config.json');
    const initial = {
      schemaVersion: 1,
      config: {
        providerConfigRules: {
          providerRules: [
            {
              providerId: 'crash',
              providerName: 'v0',
              config: { group: 'standard-personal', api: { type: 'anthropic-messages', baseUrl: 'https://api.example.com' } },
            },
          ],
        },
        modelConfigRules: { providerModelRules: [], manualProviderModelRules: [] },
      },
    };
    await writeFile(filePath, encodeProviderDocument(initial), { mode: 0o600 });
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(
    `[CFG-01] ${KILLS} × SIGKILL of a writer process: the file is always the old or the new version; stale temp files cleaned on next start`,
    async () => {
      let next = 1;
      let current = 0;
      let totalDone = 0;
      let tempFilesSeen = 0;
      for (let kill = 0; kill < KILLS; kill += 1) {
        // Every third run is killed only after a finished write: old and new both get checked.
        const progress = await runWriter(filePath, next, Math.floor(Math.random() * 60), kill % 3 === 2 ? 'first-done' : 'ready');
        totalDone += progress.done - (next - 1);

        const bytes = await readFile(filePath, 'utf8');
        const parsed: unknown = JSON.parse(bytes);
        const result = validateProviderDocument(parsed);
        expect(result.ok, `kill ${kill}: file invalid`).toBe(true);
        if (!result.ok) return;
        expect(encodeProviderDocument(parsed)).toBe(bytes); // canonical, whole
        const name = result.value.config.providerConfigRules.providerRules[0]?.providerName;
        // Old = the last version that finished (this run's, or the file as we found it); new = the one being written.
        const finished = progress.done >= next ? progress.done : current;
        const allowed = [`v${finished}`, `v${progress.attempt}`];
        expect(allowed, `kill ${kill}: found ${String(name)}`).toContain(String(name));
        current = Number(String(name).slice(1));

        // The next start: temp files of the dead writer go away.
        tempFilesSeen += (await readdir(dir)).filter((e) => e.includes('.hub-tmp-')).length;
        await new ProviderStore({ filePath }).start();
        expect((await readdir(dir)).filter((e) => e.includes('.hub-tmp-'))).toEqual([]);
        next = Math.max(progress.attempt, progress.done, current) + 1;
      }
      // A last writer finishes normally: it reclaimed whatever lock the last victim held.
      const final = await runWriter(filePath, next, 'once');
      expect(final.done).toBe(next);
      const last = validateProviderDocument(JSON.parse(await readFile(filePath, 'utf8')));
      expect(last.ok && last.value.config.providerConfigRules.providerRules[0]?.providerName).toBe(`v${next}`);
      expect(totalDone).toBeGreaterThan(0);
      // With 200 kills some always land mid-write (a temp file left behind); 30 usually leave ~5.
      if (KILLS >= 200) expect(tempFilesSeen).toBeGreaterThan(0);
    },
    (KILLS + 5) * 4_000,
  );
});
