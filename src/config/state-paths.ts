import path from 'node:path';

/** The files the daemon keeps in its state dir (ARCHITECTURE.md §9). */
export function statePaths(stateDir: string) {
  return {
    dir: stateDir,
    hubFile: path.join(stateDir, 'hub.json'),
    /** Where the hub last listened; kept after it stops, so a daemon the editor bridge starts comes back there. */
    lastAddress: path.join(stateDir, 'last-address.json'),
    adminToken: path.join(stateDir, 'admin.token'),
    childPid: path.join(stateDir, 'backend.pid'),
    simData: path.join(stateDir, 'sim'),
    builtinProviders: path.join(stateDir, 'zcode-builtin.json'),
    /** One record per session with a running (or interrupted) turn the agent has not stored. */
    turnRecords: path.join(stateDir, 'turns'),
    /** The kept output of each session's background tasks (one file per session), for replay after a restart. */
    taskOutputs: path.join(stateDir, 'task-outputs'),
    /** Copies of the provider file taken before each change the hub made to it. */
    providerBackups: path.join(stateDir, 'provider-backups'),
    /** Who sent each prompt and answered each interaction, for replay (an append-only log, fs/entry-log.ts). */
    authors: path.join(stateDir, 'authors.ndjson'),
    /** Where an earlier version kept the authors whole; moved into {@link authors} at start. */
    legacyAuthors: path.join(stateDir, 'authors.json'),
    /** The approval rules and their revision (docs/SECURITY.md "Approval rules"). */
    policy: path.join(stateDir, 'policy.json'),
    /** The "always allow" grants the hub keeps and answers with (docs/SECURITY.md "Always allow"). */
    alwaysGrants: path.join(stateDir, 'always-grants.json'),
  };
}
