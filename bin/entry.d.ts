/** The environment variable that names a bundle of the current sources (bin/entry.js). */
export const BUNDLED_ENTRY_ENV: 'ZCODE_HUB_ENTRY';
/** Which code `zcode-hub` runs (bin/entry.js). */
export function chooseEntry(root: string, env?: NodeJS.ProcessEnv): { kind: 'dist' | 'source' | 'bundle'; main: string; reason: string };
