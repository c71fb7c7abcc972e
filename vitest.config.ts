import { defineConfig } from 'vitest/config';

// Integration suites spawn real simulator children and real sockets, and give slow children room
// without timing assertions. Three workers on 2 cores: the suite mostly waits (children, sockets,
// deliberate holds; about one core busy with three workers), so a third file in flight cut the
// wall time by about a third with the same sum of test times (docs/TESTING.md, 5 December).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    pool: 'forks',
    maxWorkers: 3,
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
