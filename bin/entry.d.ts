/** Which code `zcode-hub` runs (bin/entry.js). */
export function chooseEntry(root: string, env?: NodeJS.ProcessEnv): { kind: 'dist' | 'source'; main: string; reason: string };
