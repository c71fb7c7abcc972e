import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { startHub, type HarnessOptions, type HubHarness } from './hub-harness.js';

/**
 * Hubs started one after another on the same state dir and workspace (a restart), closed and
 * removed after the file's tests. Call at the top level of a test file.
 */
export function restartableHub(prefix: string, simArgs: string[] = ['--turn-delay-scale', '0.2']) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const stateDir = path.join(root, 'state');
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace);
  const hubs: HubHarness[] = [];
  afterAll(async () => {
    for (const h of hubs) await h.close();
    fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);
  /** One more hub on the same state dir; `limits` may differ from run to run. */
  const start = async (limits?: HarnessOptions['limits']): Promise<HubHarness> => {
    const h = await startHub({ simArgs, config: { stateDir, workspace }, ...(limits ? { limits } : {}) });
    hubs.push(h);
    return h;
  };
  return { stateDir, workspace, start };
}
