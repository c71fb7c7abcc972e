import { defineConfig } from 'vitest/config';

// Integration suites spawn real simulator children and real sockets; keep parallelism modest
// on the 2-core machines this runs on, and give slow children room without timing assertions.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    pool: 'forks',
    maxWorkers: 2,
    // A worker keeps its module cache from one file to the next: the sources each file imports
    // load once per worker instead of once per file. No file may leave global state behind
    // (env vars, process listeners, fake timers, spies, cwd): each restores what it changes.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
    reporters: ['default'],
    // SEC-05: one log directory for the run; at the end every captured log is searched for every
    // secret the suites used and for query strings.
    // The simulator and the CLI bundled once per run: their hundreds of processes start without tsx.
    globalSetup: ['test/security/log-check.global.ts', 'test/helpers/bundle.global.ts'],
  },
});
