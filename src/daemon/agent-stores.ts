/**
 * Which agent stores this state dir has served (`<state-dir>/agent-stores.json`, 0600, atomic).
 * What the hub keeps per session (marks, authors, task output, turn records, the grants' session
 * ids) names sessions of the store its agent had then. Looking for sessions deleted while the hub
 * was down (domain/sessions/deleted-while-down.ts) asks today's agent: sound only when every
 * session kept is one of today's store. A state dir that served another store too — the
 * simulator, then the real CLI (`--backend auto` picks the CLI once it is installed), another
 * `ZCODE_DATA_BASE_DIR` — would have that store's sessions taken for deleted, so it never looks
 * again; its entries go by the stores' bounds alone. A state dir without the file (first start,
 * or one written before this file existed) has an unknown past: the file is started, and the
 * look waits for the next start.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { HubConfig } from '../config/schema.js';
import { statePaths } from '../config/state-paths.js';
import { ListFile } from '../fs/list-file.js';

/** Two are enough to know the state dir is shared between stores. */
const KEPT = 2;

/**
 * Where today's agent keeps its sessions: the simulator's data dir, or the CLI's data base
 * (ZCODE_DATA_BASE_DIR, else the home). The simulator reads its flags in both forms
 * (`--data-dir X`, `--data-dir=X`), the last one winning, and runs in the state dir
 * (spawn-plan.ts), so a relative dir is the state dir's: read here the same way, or two data
 * dirs would be taken for one store and the sessions of one for deleted in the other.
 */
export function agentStoreOf(kind: 'zcode' | 'sim', config: Pick<HubConfig, 'stateDir' | 'simArgs'>, env: NodeJS.ProcessEnv): string {
  if (kind === 'sim') return `sim:${path.resolve(config.stateDir, simDataDirOf(config.simArgs) ?? statePaths(config.stateDir).simData)}`;
  return `zcode:${path.resolve(env['ZCODE_DATA_BASE_DIR'] || os.homedir())}`;
}

/** The data dir the simulator's own flags give it (`--sim-arg`s): the last `--data-dir X` or `--data-dir=X`. */
function simDataDirOf(simArgs: readonly string[]): string | undefined {
  let dir: string | undefined;
  for (let i = 0; i < simArgs.length; i++) {
    const arg = simArgs[i]!;
    if (arg === '--data-dir') dir = simArgs[++i];
    else if (arg.startsWith('--data-dir=')) dir = arg.slice('--data-dir='.length);
  }
  return dir;
}

/**
 * Records `store` as served by the state dir; returns why deleted sessions must not be looked for
 * at this start, or undefined when `store` is the only one it has ever served.
 */
export function noteAgentStore(stateDir: string, store: string): string | undefined {
  const file = new ListFile(path.join(stateDir, 'agent-stores.json'), { key: 'stores', version: 1, versions: { 1: z.string() } });
  let unreadable = false;
  let known: string[];
  try {
    known = file.read(() => {
      unreadable = true;
    });
    if (!known.includes(store)) file.write([...known, store].slice(0, KEPT));
  } catch (err) {
    // Not a file that reads and takes writes (a directory, say): the hub starts, and does not look.
    return `agent-stores.json could not be read or written: ${(err as Error).message}`;
  }
  if (known.length === 0)
    return unreadable ? 'agent-stores.json was unreadable' : 'the agent store this state dir served before is not known yet';
  if (known.length > 1 || known[0] !== store) return 'this state dir has served more than one agent store';
  return undefined;
}
