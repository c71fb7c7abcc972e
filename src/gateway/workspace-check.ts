import fs from 'node:fs/promises';
import path from 'node:path';
import { HubError } from '../errors.js';

/**
 * Refuses a workspace that is not an existing folder before a session is created there (issue 14
 * item 4): `/does/not/exist` used to be accepted, then offered as the default for every new
 * session. ACP requires an absolute `cwd`; the message says what to pick instead.
 */
export async function assertWorkspace(cwd: string): Promise<void> {
  if (!path.isAbsolute(cwd)) throw new HubError('HUB_ERR_BAD_REQUEST', `The workspace must be an absolute path: ${cwd}`);
  let stat;
  try {
    stat = await fs.stat(cwd);
  } catch {
    throw new HubError('HUB_ERR_BAD_REQUEST', `No such folder: ${cwd}. Pick an existing project folder.`);
  }
  if (!stat.isDirectory()) throw new HubError('HUB_ERR_BAD_REQUEST', `Not a folder: ${cwd}. Pick a project folder, not a file.`);
}
