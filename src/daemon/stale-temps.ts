import { statePaths } from '../config/state-paths.js';
import { isTempFileName } from '../fs/secure-file.js';
import { removeStaleTempFiles } from '../fs/stale-temp-files.js';
import type { Logger } from '../logger.js';
import { isSettingsTempName } from '../settings/atomic-write.js';

/**
 * At start (the instance lock held, nothing written yet): the temp files a killed daemon left in
 * the directories it writes atomically — the state dir, `turns/`, `task-outputs/` and
 * `provider-backups/` — go, if older than `startedAt` (ARCHITECTURE.md §9.1). The agent's own
 * directories (the simulator's `sim/`) are its business.
 */
export function sweepStateTemps(stateDir: string, logger: Logger, startedAt: number): void {
  const p = statePaths(stateDir);
  const isTemp = (name: string) => isTempFileName(name) || isSettingsTempName(name);
  const { removed, failed } = removeStaleTempFiles([p.dir, p.turnRecords, p.taskOutputs, p.providerBackups], isTemp, startedAt);
  if (removed.length > 0) logger.info({ removed }, 'temp files left by a daemon stopped mid-write were removed');
  for (const { file, err } of failed) logger.warn({ err, file }, 'a temp file left by a daemon stopped mid-write could not be removed');
}
