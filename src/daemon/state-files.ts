import { z } from 'zod';
import { statePaths } from '../config/state-paths.js';
import { NotRegularFileError, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';

export const hubFileSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  port: z.number().int().min(0).max(65535),
  url: z.string(),
  version: z.string(),
  startedAt: z.number(),
});
export type HubFile = z.infer<typeof hubFileSchema>;

export const lastAddressSchema = z.object({ host: z.string().min(1), port: z.number().int().min(1).max(65535) });
export type LastAddress = z.infer<typeof lastAddressSchema>;

/**
 * A JSON state file; undefined when absent, unparsable, not of this shape, or not a regular file
 * (a FIFO, a directory or a link under the name is never read and counts as no file).
 */
function readStateFile<T>(file: string, schema: z.ZodType<T>): T | undefined {
  let text: string | undefined;
  try {
    text = readFileIfExists(file);
  } catch (err) {
    if (err instanceof NotRegularFileError) return undefined;
    throw err;
  }
  if (text === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Reads hub.json; undefined when absent or not ours. */
export function readHubFile(stateDir: string): HubFile | undefined {
  return readStateFile(statePaths(stateDir).hubFile, hubFileSchema);
}

export function writeHubFile(stateDir: string, hub: HubFile): void {
  writeFileAtomic(statePaths(stateDir).hubFile, `${JSON.stringify(hub, null, 2)}\n`);
}

/** Where this state dir's hub last listened; undefined when it never ran. */
export function readLastAddress(stateDir: string): LastAddress | undefined {
  return readStateFile(statePaths(stateDir).lastAddress, lastAddressSchema);
}

export function writeLastAddress(stateDir: string, address: LastAddress): void {
  writeFileAtomic(statePaths(stateDir).lastAddress, `${JSON.stringify(address)}\n`);
}
