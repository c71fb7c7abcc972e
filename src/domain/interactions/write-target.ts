/**
 * Whether a Write permission would replace a file that exists. The agent sends a Write's new
 * content only, so its diff reads `oldText: null` — which ACP means as "a new file" — also when
 * the file is there; an approver must not be shown a replacement as a creation
 * (docs/CLIENT-PROTOCOL.md "Interactions": `toolCall._meta.zcode.overwrites`).
 *
 * Only whether a regular file exists is looked up, never its content: the request goes to every
 * attached device, viewers included, and the file may lie outside the workspace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { inputPath } from '../../acp/tool-info.js';

/** True when `toolName` is a Write and the file its input names (relative to `cwd`) exists as a regular file. */
export function writeOverwrites(toolName: string, input: unknown, cwd: string): boolean {
  if (toolName.toLowerCase() !== 'write') return false;
  const file = inputPath(input);
  if (file === undefined || file.length === 0) return false;
  try {
    return fs.statSync(path.resolve(cwd, file), { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    // An unreadable parent (EACCES) or a bad path: nothing to say about the file.
    return false;
  }
}
