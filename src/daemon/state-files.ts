import { z } from 'zod';
import { statePaths } from '../config/state-paths.js';
import { readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';

export const hubFileSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  port: z.number().int().min(0).max(65535),
  url: z.string(),
  version: z.string(),
  startedAt: z.number(),
});
export type HubFile = z.infer<typeof hubFileSchema>;

/** Reads hub.json; undefined when absent or not ours. */
export function readHubFile(stateDir: string): HubFile | undefined {
  const text = readFileIfExists(statePaths(stateDir).hubFile);
  if (text === undefined) return undefined;
  try {
    const parsed = hubFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeHubFile(stateDir: string, hub: HubFile): void {
  writeFileAtomic(statePaths(stateDir).hubFile, `${JSON.stringify(hub, null, 2)}\n`);
}
